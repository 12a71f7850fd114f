#pragma once
// The `calibration` parameter every Gaussian release offers (GaussianCalibration, mechanisms/gaussian.hpp):
// its schema entry and its reader, so each family writes its default once.
#include <string>

#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/param_fields.hpp"
#include "algorithms/registry.hpp"

namespace dpb::alg {

// choice "calibration" in {classical, analytic} for a GaussianCalibration member, its struct's default listed
// first.
template <class P>
FieldTable<P>& calibration_field(FieldTable<P>& table, GaussianCalibration P::*member, std::string doc,
                                 std::string spec_ref) {
  return table.choice("calibration", member,
                      {{to_string(GaussianCalibration::classical), GaussianCalibration::classical},
                       {to_string(GaussianCalibration::analytic), GaussianCalibration::analytic}},
                      std::move(doc), std::move(spec_ref), ChoiceOrder::default_first);
}

// choice "calibration" in {classical, analytic}, default `default_value` (listed first).
ParamSpec gaussian_calibration_param(GaussianCalibration default_value, std::string doc, std::string spec_ref);
// The calibration `params` names, `default_value` when absent; throws dpb::InvalidArgument naming `owner` on
// another value.
GaussianCalibration read_gaussian_calibration(const core::ParamMap& params, GaussianCalibration default_value,
                                              const std::string& owner);

}  // namespace dpb::alg
