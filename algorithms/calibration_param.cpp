#include "algorithms/calibration_param.hpp"

namespace dpb::alg {
namespace {
constexpr const char* kName = "calibration";
}  // namespace

ParamSpec gaussian_calibration_param(GaussianCalibration default_value, std::string doc, std::string spec_ref) {
  const GaussianCalibration other = default_value == GaussianCalibration::classical ? GaussianCalibration::analytic
                                                                                   : GaussianCalibration::classical;
  return choice_param(kName, to_string(default_value), {to_string(default_value), to_string(other)},
                      std::move(doc), std::move(spec_ref));
}

GaussianCalibration read_gaussian_calibration(const core::ParamMap& params, GaussianCalibration default_value,
                                              const std::string& owner) {
  return parse_gaussian_calibration(params.get_string(kName, to_string(default_value), owner), owner);
}

}  // namespace dpb::alg
