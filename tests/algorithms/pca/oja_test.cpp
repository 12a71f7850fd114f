#include "algorithms/pca/oja.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "core/samplers.hpp"
#include "liu2022_fixtures.hpp"

using namespace dpb::alg;
using Catch::Matchers::Contains;
using dpb::test::liu2022::input;
using dpb::test::liu2022::spiked;

namespace {

OjaParams inverse_time(double c1, double c2) {
  OjaParams p;
  p.c1 = c1;
  p.c2 = c2;
  return p;
}

// Predicted E sin^2 for eta_t = h/(gap (c2 + t)) on Gaussian data, from linearising Oja around v1: the
// tangent coordinate j follows u_t = (1 - eta_t (l1 - l_j)) u_{t-1} + eta_t xi_t, with gradient noise
// xi = (x x^T v1)_j of variance l1 l_j, whose stationary variance is h^2 l1 l_j/((2h - 1) gap^2 t).
// Summed over j >= 2: h^2 l1 l2 (d - 1)/((2h - 1) gap^2 n) (Thm 2.2's first term with explicit constants).
double oja_prediction(double h, double d, double n) {
  return h * h * 5.0 * 1.0 * (d - 1) / ((2 * h - 1) * 16.0 * n);
}

}  // namespace

TEST_CASE("liu2022.oja rejects invalid input with what is allowed", "[liu2022]") {
  const auto data = spiked(5, 50, 1);
  dpb::core::Rng rng(1, 1);
  const Oja oja(inverse_time(0.25, 1));
  Input none;
  CHECK_THROWS_WITH(oja.run(none, rng), Contains("needs sample matrices"));
  Input k2 = input(*data.samples, 1, 1e-3);
  k2.k = 2;
  CHECK_THROWS_WITH(oja.run(k2, rng), Contains("k = 1"));
  OjaParams theory;
  theory.schedule = OjaParams::Schedule::theory;
  theory.lr_mult = 0.4;
  CHECK_THROWS_WITH(Oja(theory), Contains("> 1/2"));
  // c1 = 0 reads the oracle: without one the error names the parameter to set.
  CHECK_THROWS_WITH(Oja(OjaParams{}).run(input(*data.samples, 1, 1e-3), rng), Contains("lambda1"));
  Eigen::MatrixXd bad = data.X;
  bad(0, 3) = std::nan("");
  CHECK_THROWS_AS(dpb::core::VectorSamples(bad), dpb::InvalidArgument);
}

TEST_CASE("liu2022.oja known answer: one step on A = e1 e1^T", "[liu2022]") {
  // n = 1, x = (1, 0, 0): w_1 = normalise(w_0 + eta_1 w_0[0] e1) with eta_1 = c1/(c2 + 1) = 0.5, and w_0 is
  // the first draw of the rng (Alg. 1 line 1), which the test reproduces.
  Eigen::MatrixXd X = Eigen::MatrixXd::Zero(3, 1);
  X(0, 0) = 1;
  const dpb::core::VectorSamples samples(X);
  dpb::core::Rng rng(7, 3), replay(7, 3);
  const Eigen::VectorXd w0 = dpb::core::unit_sphere(replay, 3);
  Eigen::VectorXd expected = w0;
  expected[0] += 0.5 * w0[0];
  expected.normalize();
  const Estimate e = Oja(inverse_time(1, 1)).run(input(samples, 1, 1e-3), rng);
  CHECK((e.Q->col(0) - expected).norm() < 1e-15);
  CHECK(e.claim.scope == ClaimScope::not_private);
}

TEST_CASE("liu2022.oja is deterministic for a seed", "[liu2022]") {
  const auto data = spiked(5, 500, 2);
  const Oja oja(inverse_time(0.25, 1));
  dpb::core::Rng a(3, 9), b(3, 9), c(4, 9);
  const auto ea = oja.run(input(*data.samples, 1, 1e-3), a), eb = oja.run(input(*data.samples, 1, 1e-3), b);
  const auto ec = oja.run(input(*data.samples, 1, 1e-3), c);
  CHECK(*ea.Q == *eb.Q);
  CHECK(*ea.Q != *ec.Q);
}

TEST_CASE("liu2022.oja converges to v1 at the predicted rate and its error shrinks with n", "[liu2022]") {
  // d = 10, lambda1 = 5, lambda2 = 1, eta_t = 1/(gap (1 + t)) (h = 1), 10 data sets per n. The mean of
  // sin^2 over 10 runs of a (roughly) weighted chi^2 is within 2x of its expectation except with tiny
  // probability; the bound is 3x the prediction (the initial transient adds a little at small n).
  const double d = 10;
  double mean_small = 0, mean_large = 0;
  for (int rep = 0; rep < 10; ++rep)
    for (const Eigen::Index n : {2000, 20000}) {
      const auto data = spiked(10, n, 100 + rep);
      dpb::core::Rng rng(rep, 5);
      OjaParams p;  // c1 = lr_mult/gap from the oracle
      p.c2 = 1;
      const auto e = Oja(p).run(input(*data.samples, 1, 1e-3, &data.info()), rng);
      const double s2 = dpb::core::sin2_angle(e.Q->col(0), data.info().target.col(0));
      (n == 2000 ? mean_small : mean_large) += s2 / 10;
    }
  CHECK(mean_small < 3 * oja_prediction(1, d, 2000));
  CHECK(mean_large < 3 * oja_prediction(1, d, 20000));
  // Ten times the data: the prediction falls 10x; require at least 4x.
  CHECK(mean_large * 4 < mean_small);
}

TEST_CASE("liu2022.oja theory schedule reads the oracle and says when Thm 2.2 does not apply", "[liu2022]") {
  const auto data = spiked(5, 200, 3);
  OjaParams p;
  p.schedule = OjaParams::Schedule::theory;
  const Oja oja(p);
  const auto s = oja.schedule(input(*data.samples, 1, 1e-3, &data.info()));
  // c1 = alpha/gap = 1/4; xi = 20 max(kappa M, kappa^2 (V + 1)/log(1 + 1e-4)) >= 2e5 kappa^2 (V + 1).
  CHECK(s.c1 == Approx(0.25));
  CHECK(s.c2 > 2e5 * (25.0 / 16) * (2 + 4.0 / 5 + 1));
  dpb::core::Rng rng(1, 1);
  const auto e = oja.run(input(*data.samples, 1, 1e-3, &data.info()), rng);
  REQUIRE(e.diagnostics.notes.size() == 1);
  CHECK_THAT(e.diagnostics.notes[0], Contains("T > xi"));
}
