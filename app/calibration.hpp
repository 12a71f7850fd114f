#pragma once
// Noise calibration as `dpbounds calibrate` reports it: the scale for a target (eps, delta) and the
// exact privacy that scale achieves.
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace dpb::app {

struct Calibration {
  std::string mechanism;   // "gaussian (classical)", "gaussian (analytic)", "laplace"
  std::string scale_name;  // "sigma" or "b"
  double sensitivity = 0;
  double epsilon = 0;  // target
  double delta = 0;    // target (0 for Laplace)
  double scale = 0;
  // Exact privacy of the calibrated noise: its delta at the target epsilon, and the smallest
  // epsilon it achieves at the target delta.
  double exact_delta = 0;
  double exact_epsilon = 0;
};

// Throws dpb::InvalidArgument on sensitivity <= 0, eps <= 0, delta outside (0, 1), or eps >= 1 for
// the classical calibration.
Calibration calibrate_gaussian(double sensitivity, double epsilon, double delta, bool analytic);
// Laplace: b = sensitivity / eps, exactly eps-DP (delta = 0). A given delta must be 0.
Calibration calibrate_laplace(double sensitivity, double epsilon, double delta);

std::string to_text(const Calibration& c);
nlohmann::json to_json(const Calibration& c);

}  // namespace dpb::app
