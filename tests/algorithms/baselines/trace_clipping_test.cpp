#include "algorithms/baselines/trace_clipping.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "tests/algorithms/baselines/baseline_test_support.hpp"

namespace tb = dpb::test::baselines;
using dpb::alg::Diagnostics;
using dpb::alg::baselines::PsdSamples;

namespace {

void check_weights(const Eigen::VectorXd& c, const std::vector<double>& expected) {
  REQUIRE(c.size() == static_cast<Eigen::Index>(expected.size()));
  for (Eigen::Index i = 0; i < c.size(); ++i) {
    INFO("sample " << i);
    CHECK(c[i] == Approx(expected[static_cast<std::size_t>(i)]).epsilon(1e-15));
  }
}

}  // namespace

TEST_CASE("trace clipping: c_i = min{1, beta^2 / Tr A_i} by hand, boundary and zero sample kept",
          "[baselines]") {
  const Eigen::MatrixXd X = tb::hand_vectors();
  const PsdSamples data = PsdSamples::from(tb::input(X, 1, 1, 0.1), "own");
  Diagnostics diagnostics;
  // beta = 2: traces 2, 9, 4 (= beta^2, kept), 0 (no division), 3.
  check_weights(dpb::alg::baselines::trace_clip_weights(data, 2.0, diagnostics), {1, 4.0 / 9, 1, 1, 1});
  CHECK(diagnostics.counters.at("clipped") == 1);
  CHECK(diagnostics.counters.count("clipped_by_alpha") == 0);
  // The counter is added to, not overwritten; beta = 1.5 (beta^2 = 2.25) clips traces 9, 4 and 3.
  check_weights(dpb::alg::baselines::trace_clip_weights(data, 1.5, diagnostics), {1, 2.25 / 9, 2.25 / 4, 1, 2.25 / 3});
  CHECK(diagnostics.counters.at("clipped") == 1 + 3);

  // Shifted matrices clip on Tr A_i = tr C + ||x||^2 = 5, 12, 7, 3, 6.
  const auto shifted = tb::hand_shifted();
  Diagnostics d2;
  check_weights(dpb::alg::baselines::trace_clip_weights(PsdSamples::from(tb::samples_input(shifted), "own"), 2.0,
                                                        d2),
                {0.8, 4.0 / 12, 4.0 / 7, 1, 4.0 / 6});
  CHECK(d2.counters.at("clipped") == 4);
}

TEST_CASE("trace and l1 clipping: the binding term by hand, both radii hold after clipping", "[baselines]") {
  const Eigen::MatrixXd X = tb::hand_vectors();
  const PsdSamples data = PsdSamples::from(tb::input(X, 1, 1, 0.1), "own");
  const double beta = 2, alpha = 3;
  Diagnostics diagnostics;
  // (Tr, l1) = (2, 2), (9, 3): trace binds 4/9, (4, 4): l1 binds 9/16 (trace on its boundary), (0, 0),
  // (3, 3): l1 on its boundary.
  const Eigen::VectorXd c = dpb::alg::baselines::trace_and_l1_clip_weights(data, beta, alpha, diagnostics);
  check_weights(c, {1, 4.0 / 9, 9.0 / 16, 1, 1});
  CHECK(diagnostics.counters.at("clipped") == 2);
  CHECK(diagnostics.counters.at("clipped_by_alpha") == 1);

  // Shifted: (Tr, sum sqrt diag) = (5, 3), (12, sqrt 12), (7, 5), (3, sqrt 3), (6, 4): trace binds 4/5 and
  // 4/12, l1 binds 9/25 and 9/16.
  const auto shifted_samples = tb::hand_shifted();
  const PsdSamples shifted = PsdSamples::from(tb::samples_input(shifted_samples), "own");
  Diagnostics d2;
  const Eigen::VectorXd cs = dpb::alg::baselines::trace_and_l1_clip_weights(shifted, beta, alpha, d2);
  check_weights(cs, {0.8, 4.0 / 12, 9.0 / 25, 1, 9.0 / 16});
  CHECK(d2.counters.at("clipped") == 4);
  CHECK(d2.counters.at("clipped_by_alpha") == 2);

  // What the weights are for: Tr(c_i A_i) <= beta^2 and sum_j sqrt((c_i A_i)_jj) = sqrt(c_i) s_i <= alpha.
  const auto check_radii = [&](const PsdSamples& s, const Eigen::VectorXd& w) {
    for (Eigen::Index i = 0; i < s.n(); ++i) {
      CHECK(w[i] * s.trace(i) <= beta * beta * (1 + 1e-15));
      CHECK(std::sqrt(w[i]) * s.sum_sqrt_diagonal(i) <= alpha * (1 + 1e-15));
    }
  };
  check_radii(data, c);
  check_radii(shifted, cs);
}
