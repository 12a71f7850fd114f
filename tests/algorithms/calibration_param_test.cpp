#include "algorithms/calibration_param.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"

using namespace dpb::alg;

namespace {
struct WithCalibration {
  GaussianCalibration calibration = GaussianCalibration::classical;
};
}  // namespace

TEST_CASE("the calibration parameter: one default per family, listed first, read back", "[registry]") {
  FieldTable<WithCalibration> fields;
  calibration_field(fields, &WithCalibration::calibration, "doc", "ref");
  const ParamSpec classical = fields.schema()[0];
  CHECK(classical.name == "calibration");
  CHECK(std::get<std::string>(classical.default_value) == "classical");
  CHECK(classical.choices == std::vector<std::string>{"classical", "analytic"});
  CHECK(fields.schema(WithCalibration{GaussianCalibration::analytic})[0].choices ==
        std::vector<std::string>{"analytic", "classical"});
  const dpb::core::ParamMap none, analytic{{"calibration", std::string("analytic")}};
  CHECK(fields.read(none, "x").calibration == GaussianCalibration::classical);
  CHECK(fields.read(analytic, "x").calibration == GaussianCalibration::analytic);
  CHECK_THROWS_AS(fields.read({{"calibration", std::string("exact")}}, "x"), dpb::InvalidArgument);
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
