#include "algorithms/calibration_param.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"

using namespace dpb::alg;

TEST_CASE("the calibration parameter: one default per family, listed first, read back", "[registry]") {
  const ParamSpec classical = gaussian_calibration_param(GaussianCalibration::classical, "doc", "ref");
  CHECK(classical.name == "calibration");
  CHECK(std::get<std::string>(classical.default_value) == "classical");
  CHECK(classical.choices == std::vector<std::string>{"classical", "analytic"});
  CHECK(gaussian_calibration_param(GaussianCalibration::analytic, "doc", "ref").choices ==
        std::vector<std::string>{"analytic", "classical"});
  const dpb::core::ParamMap none, analytic{{"calibration", std::string("analytic")}};
  CHECK(read_gaussian_calibration(none, GaussianCalibration::classical, "x") == GaussianCalibration::classical);
  CHECK(read_gaussian_calibration(analytic, GaussianCalibration::classical, "x") == GaussianCalibration::analytic);
  CHECK_THROWS_AS(read_gaussian_calibration({{"calibration", std::string("exact")}}, GaussianCalibration::analytic, "x"),
                  dpb::InvalidArgument);
  // The families' defaults, each written once: the papers' classical calibration for cai2024 and dugler2026,
  // the analytic one for the Analyze-Gauss baselines.
  const auto& registry = algorithm_registry();
  for (const auto& [id, expected] : {std::pair<const char*, const char*>{"cai2024.gaussian_mechanism", "classical"},
                                     {"dugler2026.private_oja", "classical"},
                                     {"baseline.dp_gauss_1", "analytic"},
                                     {"baseline.gaussian_mean", "analytic"}}) {
    INFO(id);
    CHECK(std::get<std::string>(registry.resolve(id, {}).values().at("calibration")) == expected);
  }
}
