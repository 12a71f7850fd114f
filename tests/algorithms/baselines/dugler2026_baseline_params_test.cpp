#include "algorithms/baselines/dugler2026_baseline_params.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"

namespace base = dpb::alg::baselines;
using dpb::core::ParamMap;

namespace {

// A registry holding one entry with the shared schema, so that its ranges and choices are checked the way
// Registry::resolve checks every baseline's parameters.
dpb::alg::Registry schema_registry() {
  dpb::alg::Registry r;
  dpb::alg::AlgorithmEntry e;
  e.id = "test.dugler_baseline";
  e.params = base::dugler_baseline_fields(true, "the mode doc").schema();
  e.factory = [](const ParamMap&) -> std::unique_ptr<dpb::alg::Estimator> { return nullptr; };
  r.add(std::move(e));
  return r;
}

std::vector<std::string> names(const std::vector<dpb::alg::ParamSpec>& specs) {
  std::vector<std::string> out;
  for (const auto& s : specs) out.push_back(s.name);
  return out;
}

}  // namespace

TEST_CASE("dugler2026 baseline params: schema names, defaults agree with the struct", "[baselines]") {
  CHECK(names(base::dugler_baseline_fields(false, "doc").schema()) ==
        std::vector<std::string>{"beta", "clip_constant", "zeta", "calibration", "mode"});
  const auto with_alpha = base::dugler_baseline_fields(true, "the mode doc").schema();
  CHECK(names(with_alpha) ==
        std::vector<std::string>{"beta", "clip_constant", "zeta", "alpha", "calibration", "mode"});
  CHECK(with_alpha.back().doc == "the mode doc");
  CHECK(with_alpha.back().choices == std::vector<std::string>{"corrected", "faithful"});

  // The schema's defaults, read back, are the struct's defaults.
  const auto registry = schema_registry();
  const auto p = base::dugler_baseline_fields(true, "doc").read(registry.resolve("test.dugler_baseline", {}), "own");
  const base::DuglerBaselineParams defaults;
  CHECK(p.radii.beta == defaults.radii.beta);
  CHECK(p.radii.alpha == defaults.radii.alpha);
  CHECK(p.radii.clip_constant == defaults.radii.clip_constant);
  CHECK(p.radii.zeta == defaults.radii.zeta);
  CHECK(p.radii.zeta == 0.01);
  CHECK(p.calibration == dpb::alg::GaussianCalibration::analytic);
  CHECK_FALSE(p.faithful);
}

TEST_CASE("dugler2026 baseline params: accept/reject boundaries say what is allowed", "[baselines]") {
  const auto registry = schema_registry();
  const auto resolve = [&](const ParamMap& given) { return registry.resolve("test.dugler_baseline", given); };
  CHECK_NOTHROW(resolve({{"zeta", 1e-12}, {"beta", 0.0}, {"alpha", 0.0}, {"clip_constant", 0.0}}));
  CHECK_NOTHROW(resolve({{"zeta", 1.0}}));
  CHECK_THROWS_WITH(resolve({{"zeta", 0.0}}), Catch::Contains("'zeta' must lie in [1e-12, 1], got 0"));
  CHECK_THROWS_WITH(resolve({{"zeta", 1.5}}), Catch::Contains("'zeta' must lie in [1e-12, 1], got 1.5"));
  CHECK_THROWS_WITH(resolve({{"beta", -1.0}}), Catch::Contains("'beta' must lie in [0, inf], got -1"));
  CHECK_THROWS_WITH(resolve({{"alpha", -1.0}}), Catch::Contains("'alpha' must lie in [0, inf]"));
  CHECK_THROWS_WITH(resolve({{"clip_constant", -0.5}}), Catch::Contains("'clip_constant' must lie in [0, inf]"));
  CHECK_THROWS_WITH(resolve({{"calibration", std::string("exact")}}),
                    Catch::Contains("'calibration' must be one of: analytic, classical"));
  CHECK_THROWS_WITH(resolve({{"mode", std::string("faithfull")}}),
                    Catch::Contains("'mode' must be one of: corrected, faithful"));
  CHECK_THROWS_WITH(resolve({{"gamma", 1.0}}), Catch::Contains("allowed: beta, clip_constant, zeta, alpha"));
}

TEST_CASE("dugler2026 baseline params: the table reads every value, wrong types are refused", "[baselines]") {
  const auto fields = base::dugler_baseline_fields(true, "doc");
  const auto p = fields.read({{"beta", 2.0},
                              {"alpha", 3.0},
                              {"clip_constant", 0.5},
                              {"zeta", 0.1},
                              {"calibration", std::string("classical")},
                              {"mode", std::string("faithful")}},
                             "own");
  CHECK(p.radii.beta == 2.0);
  CHECK(p.radii.alpha == 3.0);
  CHECK(p.radii.clip_constant == 0.5);
  CHECK(p.radii.zeta == 0.1);
  CHECK(p.calibration == dpb::alg::GaussianCalibration::classical);
  CHECK(p.faithful);
  CHECK_FALSE(fields.read({{"mode", std::string("corrected")}}, "own").faithful);
  CHECK_THROWS_WITH(fields.read({{"beta", std::string("big")}}, "own"), "own: parameter 'beta' must be a number");
  CHECK_THROWS_WITH(fields.read({{"calibration", std::string("exact")}}, "own"),
                    "own: parameter 'calibration' must be one of: classical, analytic; got 'exact'");
  // A map that bypassed Registry::resolve still cannot turn a misspelt mode into the default.
  CHECK_THROWS_WITH(fields.read({{"mode", std::string("faithfull")}}, "own"),
                    "own: parameter 'mode' must be one of: corrected, faithful; got 'faithfull'");
}

TEST_CASE("dugler2026 clip radii: given values win, otherwise §7 F.1 from the oracle, else a clear error",
          "[baselines]") {
  dpb::core::ModelInfo info;
  info.params = {{"lambda1", 4.0}, {"sigma2", 0.25}};
  dpb::alg::Input in;
  in.oracle = &info;
  base::DuglerClipRadii radii;
  radii.clip_constant = 1.5;
  radii.zeta = 0.01;
  // n = 100, d = 3: sigma sqrt(d log(n/zeta)) = 0.5 sqrt(3 log 1e4) = 2.62826...
  const double tail = 0.5 * std::sqrt(3 * std::log(1e4));
  CHECK(tail == Approx(2.62826).epsilon(1e-5));
  CHECK(radii.resolve_beta(in, 100, 3, "own") == Approx(1.5 * 2 + tail).epsilon(1e-14));
  // alpha = sigma d + sqrt(lambda1 d) + tail = 1.5 + sqrt(12) + tail.
  CHECK(radii.resolve_alpha(in, 100, 3, "own") == Approx(1.5 + std::sqrt(12.0) + tail).epsilon(1e-14));

  radii.beta = 7;
  radii.alpha = 9;
  CHECK(radii.resolve_beta(in, 100, 3, "own") == 7);
  CHECK(radii.resolve_alpha(in, 100, 3, "own") == 9);
  // Given radii need no oracle at all.
  CHECK(radii.resolve_beta(dpb::alg::Input{}, 100, 3, "own") == 7);

  const base::DuglerClipRadii derive;
  CHECK_THROWS_WITH(derive.resolve_beta(dpb::alg::Input{}, 100, 3, "own"),
                    "own: needs the population quantity 'lambda1' from the model oracle, which is absent; on "
                    "data without an oracle give beta (and for the power method alpha) explicitly");
  info.params.erase("sigma2");
  CHECK_THROWS_WITH(derive.resolve_alpha(in, 100, 3, "own"),
                    Catch::Contains("'sigma2'") && Catch::Contains("missing it"));
}

TEST_CASE("dugler2026 clip radii: a caller's public clip radius stands in for the oracle", "[baselines]") {
  // `dpbounds pca` special-cased Analyze-Gauss by id to set its beta to the preprocessing's radius; the radii
  // now read Input::clip_radius themselves, after a given value and before the oracle.
  dpb::core::ModelInfo info;
  info.params = {{"lambda1", 4.0}, {"sigma2", 0.25}};
  dpb::alg::Input in;
  in.clip_radius = 3.0;
  base::DuglerClipRadii radii;
  CHECK(radii.resolve_beta(in, 100, 4, "own") == 3.0);
  CHECK(radii.resolve_alpha(in, 100, 4, "own") == 6.0);  // ||x||_1 <= sqrt(d) ||x||_2, sqrt(4) = 2
  in.oracle = &info;  // the caller's radius wins over the model's
  CHECK(radii.resolve_beta(in, 100, 4, "own") == 3.0);
  radii.beta = 7;
  radii.alpha = 9;
  CHECK(radii.resolve_beta(in, 100, 4, "own") == 7);
  CHECK(radii.resolve_alpha(in, 100, 4, "own") == 9);
}
