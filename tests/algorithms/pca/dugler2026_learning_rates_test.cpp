#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/pca/dugler2026_learning_rates.hpp"
#include "algorithms/pca/dugler2026_support.hpp"
#include "algorithms/registry.hpp"
#include "core/errors.hpp"

using namespace dpb;
using namespace dpb::alg::dugler2026;
namespace dt = dpb::test::dugler;

TEST_CASE("dugler2026 learning-rate families of F.2 have their printed values", "[dugler2026]") {
  const auto data = dt::shifted(10, 2, 0.5, 100, 1);  // eigenvalues 1.5 + 0.25, 1 + 0.25, 0.25...
  const auto in = data.input(2, 1, 0.01);
  LearningRateSettings s;  // step decay c = 10, rho = 1/2, p = 1/2
  const LearningRate step = make_learning_rate(s, in, 100, 10, "test");
  CHECK(step(1) == Approx(1.0 / 11));
  CHECK(step(5) == Approx(1.0 / 15));                             // t <= tau = 5
  CHECK(step(6) == Approx((1.0 / 16) * std::sqrt(15.0 / 16.0)));  // t > tau
  s.family = LearningRateFamily::lambda1_spiked;
  const LearningRate spiked = make_learning_rate(s, in, 100, 10, "test");
  // 1/(20 sigma lambda~_1 + Delta_1 t / log n), lambda~_1 = 1.75, Delta_1 = 0.5, sigma = 0.5.
  CHECK(spiked(3) == Approx(1.0 / (20 * 0.5 * 1.75 + 0.5 * 3 / std::log(100.0))));
  s.family = LearningRateFamily::dim_scaled;
  s.gap = GapChoice::kth;  // Delta_k = 1
  CHECK(make_learning_rate(s, in, 100, 10, "test")(3) ==
        Approx(1.0 / (20 * 0.5 * 1.75 * 10 + 3 / std::log(100.0))));
  s.lambda1 = 2, s.gap_value = 1, s.sigma = 1;  // explicit values: no oracle needed
  auto no_oracle = in;
  no_oracle.oracle = nullptr;
  CHECK(make_learning_rate(s, no_oracle, 100, 10, "test")(1) ==
        Approx(1.0 / (20 * 2 * 10 + 1 / std::log(100.0))));
  s.sigma = 0;
  CHECK_THROWS_WITH(make_learning_rate(s, no_oracle, 100, 10, "test"), Catch::Contains("lr_sigma"));
}

TEST_CASE("dugler2026 registry: every id, its schema, and a run through the factory", "[dugler2026]") {
  const auto& reg = alg::algorithm_registry();
  const auto data = dt::shifted(3, 1, 0.5, 3000, 2);
  for (const std::string id :
       {"dugler2026.oja", "dugler2026.private_oja", "dugler2026.priv_range", "dugler2026.truncated_mean",
        "dugler2026.adadpo", "dugler2026.tadadpo", "dugler2026.two_stage"}) {
    const auto& entry = reg.find(id);
    CHECK(entry.needs == alg::DataNeed::sample_matrices);
    CHECK_FALSE(entry.privacy.empty());
    for (const auto& spec : entry.params) CHECK_FALSE(spec.spec_ref.empty());
    const auto est = reg.make(id, {});
    core::Rng a(1, 2), b(1, 2);
    const auto in = data.input(1, 0.9, 0.01);
    const auto e1 = est->run(in, a), e2 = est->run(in, b);
    if (e1.Q) CHECK(*e1.Q == *e2.Q);  // determinism for a seed
    if (e1.scalar) CHECK(*e1.scalar == *e2.scalar);
    if (e1.mean) CHECK(*e1.mean == *e2.mean);
    CHECK(est->claim(in).epsilon == (id == "dugler2026.oja" ? 0.0 : 0.9));
  }
  const auto& ada = reg.find("dugler2026.adadpo");
  std::vector<std::string> names;
  for (const auto& s : ada.params) names.push_back(s.name);
  for (const std::string n :
       {"batch_rule", "auto_increase", "learning_rate", "lr_offset", "K", "a", "zeta", "C1", "range_safety",
        "range_bins_per_octave", "radius_constant", "noise_constant", "calibration", "range_fallback",
        "center_fallback", "log_argument"})
    CHECK(std::find(names.begin(), names.end(), n) != names.end());
  CHECK_THROWS_AS(reg.make("dugler2026.two_stage", {{"warm_fraction", 1.5}}), InvalidArgument);
}
