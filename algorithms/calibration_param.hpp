#pragma once
// The `calibration` parameter every Gaussian release offers (GaussianCalibration, mechanisms/gaussian.hpp): one
// field of a parameter table, so each family writes its default once, in its parameter struct.
#include <string>
#include <utility>

#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/param_fields.hpp"

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

}  // namespace dpb::alg
