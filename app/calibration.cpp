#include "app/calibration.hpp"

#include <nlohmann/json.hpp>
#include <cmath>
#include <fmt/format.h>

#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/mechanisms/laplace.hpp"
#include "core/errors.hpp"

namespace dpb::app {

Calibration calibrate_gaussian(double sensitivity, double epsilon, double delta, bool analytic) {
  Calibration c{analytic ? "gaussian (analytic, Balle & Wang 2018)" : "gaussian (classical)", "sigma",
                sensitivity, epsilon, delta};
  c.scale = analytic ? alg::analytic_gaussian_sigma(sensitivity, epsilon, delta)
                     : alg::classical_gaussian_sigma(sensitivity, epsilon, delta);
  const double z = c.scale / sensitivity;
  c.exact_delta = alg::gaussian_delta(z, epsilon);
  c.exact_epsilon = alg::gaussian_epsilon(z, delta);
  return c;
}

Calibration calibrate_laplace(double sensitivity, double epsilon, double delta) {
  if (delta != 0)
    throw InvalidArgument("the Laplace mechanism is pure eps-DP: --delta is not allowed (or must be 0)");
  Calibration c{"laplace", "b", sensitivity, epsilon, 0.0};
  c.scale = alg::laplace_scale(sensitivity, epsilon);
  c.exact_delta = 0;
  c.exact_epsilon = epsilon;  // the privacy loss is bounded by exactly Delta / b = eps
  return c;
}

std::string to_text(const Calibration& c) {
  std::string out = fmt::format("mechanism      {}\nsensitivity    {:g}\ntarget         eps = {:g}", c.mechanism,
                                c.sensitivity, c.epsilon);
  if (c.delta > 0) out += fmt::format(", delta = {:g}", c.delta);
  out += fmt::format("\n{:<15}{:.10g}\n", c.scale_name, c.scale);
  if (c.scale_name == "sigma") {
    out += fmt::format("noise multiplier sigma/sensitivity = {:.10g}\n", c.scale / c.sensitivity);
    out += fmt::format("exact privacy  delta({:g}) = {:.6g}; at delta = {:g} the smallest eps is {:.6g}\n",
                       c.epsilon, c.exact_delta, c.delta, c.exact_epsilon);
  } else {
    out += fmt::format("exact privacy  {:g}-DP (pure), delta = 0\n", c.exact_epsilon);
  }
  return out;
}

nlohmann::json to_json(const Calibration& c) {
  return {{"mechanism", c.mechanism}, {"sensitivity", c.sensitivity},     {"epsilon", c.epsilon},
          {"delta", c.delta},         {c.scale_name, c.scale},           {"exact_delta", c.exact_delta},
          {"exact_epsilon", c.exact_epsilon}};
}

}  // namespace dpb::app
