#include "algorithms/pca/private_top_eigenvalue.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/samplers.hpp"
#include "liu2022_fixtures.hpp"
#include "support/statistics.hpp"

using namespace dpb::alg;

namespace {
Ledger top_eigenvalue_ledger;  // where releases whose ledger a test does not read are recorded
}  // namespace
using Catch::Matchers::Contains;

namespace {
const Privacy kTopEigenvaluePrivacy{1.0, 1e-5, Neighbours::replace};
constexpr double kTopEigenvalueZeta = 0.01;
}  // namespace

TEST_CASE("liu2022.private_top_eigenvalue rejects invalid input with what is allowed", "[liu2022]") {
  // k = ceil(4 log(1/(1e-5 * 0.01))/1) + 2 = 67 subsets; B' < 2k = 134 must be refused (ambiguity 13).
  CHECK(top_eigenvalue_subsets(1, 1e-5, 0.01, 4) == 67);
  TopEigenvalueWorkspace ws;
  dpb::core::Rng rng(1, 1);
  const Eigen::MatrixXd G = Eigen::MatrixXd::Ones(3, 133);
  CHECK_THROWS_WITH(private_top_eigenvalue(G, kTopEigenvaluePrivacy, kTopEigenvalueZeta, {}, rng, ws,
                                           top_eigenvalue_ledger),
                    Contains("B' >= 2k") && Contains("133"));
  const Eigen::MatrixXd ok = Eigen::MatrixXd::Ones(3, 134);
  CHECK_NOTHROW(private_top_eigenvalue(ok, kTopEigenvaluePrivacy, kTopEigenvalueZeta, {}, rng, ws,
                                       top_eigenvalue_ledger));
  CHECK_THROWS_AS(
      private_top_eigenvalue(ok, Privacy{1.0, 0.0}, kTopEigenvalueZeta, {}, rng, ws, top_eigenvalue_ledger),
      dpb::InvalidArgument);
  CHECK_THROWS_AS(private_top_eigenvalue(ok, Privacy{1.0, 1e-5, Neighbours::add_remove}, kTopEigenvalueZeta,
                                         {}, rng, ws, top_eigenvalue_ledger),
                  dpb::InvalidArgument);
  CHECK_THROWS_AS(private_top_eigenvalue(ok, kTopEigenvaluePrivacy, 0.0, {}, rng, ws, top_eigenvalue_ledger),
                  dpb::InvalidArgument);
  Input none;
  none.privacy = kTopEigenvaluePrivacy;
  CHECK_THROWS_WITH(PrivateTopEigenvalue({}, 0.01).run(none, rng), Contains("needs vectors"));
}

TEST_CASE("liu2022.private_top_eigenvalue known answer: every subset in one bin", "[liu2022]") {
  // g_{2i-1} = 0, g_{2i} = sqrt(3) e1: every g~ = sqrt(3) e1, every subset eigenvalue is exactly 3, bin
  // m = floor(4 log2 3) = 6 with left end 2^{6/4}. That bin holds all k points (frequency 1, far above
  // the threshold 2 log(2/delta)/(eps k) + 1/k = 0.38), so the output is 2^{1.5}/2 (halved) or 2^{1.5}
  // (faithful) whatever the noise.
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(4, 300);
  for (Eigen::Index i = 1; i < 300; i += 2) G(0, i) = std::sqrt(3.0);
  TopEigenvalueWorkspace ws;
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    dpb::core::Rng rng(seed, 1);
    const auto halved = private_top_eigenvalue(G, kTopEigenvaluePrivacy, kTopEigenvalueZeta, {}, rng, ws,
                                               top_eigenvalue_ledger);
    REQUIRE(halved.value);
    CHECK(*halved.value == Approx(std::pow(2.0, 1.5) / 2).epsilon(1e-14));
    CHECK(halved.subsets == 67);
    CHECK(halved.subset_size == 2);
    const auto faithful = private_top_eigenvalue(G, kTopEigenvaluePrivacy, kTopEigenvalueZeta, {4, false},
                                                 rng, ws, top_eigenvalue_ledger);
    CHECK(*faithful.value == Approx(std::pow(2.0, 1.5)).epsilon(1e-14));
  }
}

TEST_CASE("liu2022.private_top_eigenvalue BOTTOM and zero-bin paths", "[liu2022]") {
  TopEigenvalueWorkspace ws;
  // All-zero input: every subset eigenvalue is 0, the [0, 0] bin wins with value 0.
  const Eigen::MatrixXd zeros = Eigen::MatrixXd::Zero(3, 300);
  dpb::core::Rng rng(3, 3);
  const auto z = private_top_eigenvalue(zeros, kTopEigenvaluePrivacy, kTopEigenvalueZeta, {}, rng, ws,
                                        top_eigenvalue_ledger);
  REQUIRE(z.value);
  CHECK(*z.value == 0);
  CHECK(z.zero_bin);
  // Subset j's differences scaled by 2^j: its eigenvalue is 4^j x const, so every subset has a bin of its
  // own (8 bins apart) with frequency 1/k. Such a bin is released with probability delta/4 (spec §2.7),
  // so all k = 67 stay hidden except with probability <= 67 * 2.5e-6: BOTTOM.
  const Eigen::Index k = 67, b = 2;
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(3, 2 * k * b);
  for (Eigen::Index j = 0; j < k; ++j)
    for (Eigen::Index i = 0; i < b; ++i) G(1, 2 * (j * b + i) + 1) = std::exp2(static_cast<double>(j));
  int bottoms = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    dpb::core::Rng r(seed, 4);
    const auto res = private_top_eigenvalue(G, kTopEigenvaluePrivacy, kTopEigenvalueZeta, {}, r, ws,
                                            top_eigenvalue_ledger);
    CHECK(res.occupied_bins == static_cast<std::size_t>(k));
    if (!res.value) ++bottoms;
  }
  CHECK(bottoms == 20);
  // The mutant zoo's seam (release = every_occupied_bin, not private): the same k singleton bins are all
  // released, and one of them wins.
  TopEigenvalueOptions unthresholded;
  unthresholded.release = BinRelease::every_occupied_bin;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    dpb::core::Rng r(seed, 4);
    const auto res = private_top_eigenvalue(G, kTopEigenvaluePrivacy, kTopEigenvalueZeta, unthresholded, r,
                                            ws, top_eigenvalue_ledger);
    CHECK(res.released_bins == static_cast<std::size_t>(k));
    CHECK(res.value.has_value());
  }
  // The standalone estimator reports BOTTOM as an empty scalar and a note.
  Eigen::MatrixXd X = G;
  Input in;
  in.X = &X;
  in.privacy = kTopEigenvaluePrivacy;
  dpb::core::Rng r(1, 1);
  const auto e = PrivateTopEigenvalue({}, kTopEigenvalueZeta).run(in, r);
  CHECK(!e.scalar);
  CHECK(e.diagnostics.counters.at("bottom") == 1);
  CHECK_THAT(e.diagnostics.notes.at(0), Contains("BOTTOM"));
}

TEST_CASE("liu2022.private_top_eigenvalue lands in [2^-1/2, 2^1/2] lambda1^2 ||H_u|| (Thm 6.1)",
          "[liu2022]") {
  // g_i = A_i u = x_i (x_i^T u), x Gaussian with Sigma = 4 v v^T + I (d = 4), u a fixed unit vector.
  // lambda1^2 H_u = (u^T S u) S + S u u^T S (spec §4.4). B' = 2 k b with b = 300 differences per subset
  // (Thm 6.1's b = Omega(K^2 d log(.)): with these heavy-tailed products of Gaussians b = 300 still
  // spreads the subset eigenvalues over 3-4 bins and the histogram returns BOTTOM, so b = 2000). Thm 6.1:
  // the fraction of runs outside the interval (BOTTOM counts as outside) is <= zeta; allowed: 20 zeta +
  // Bernstein slack at 1e-6.
  const auto data = dpb::test::liu2022::spiked(4, 1, 9);
  const Eigen::MatrixXd S = data.info().Sigma;
  Eigen::VectorXd u = Eigen::VectorXd::Ones(4).normalized();
  const Eigen::MatrixXd H = (u.dot(S * u)) * S + (S * u) * (S * u).transpose();
  const double target = dpb::core::symmetric_eigenvalues(H).maxCoeff();
  const Eigen::Index Bp = 2 * 67 * 2000;
  TopEigenvalueWorkspace ws;
  int outside = 0;
  for (int run = 0; run < 20; ++run) {
    dpb::core::Rng data_rng(run, 21);
    const Eigen::MatrixXd X = data.model->sample(Bp, data_rng);
    Eigen::MatrixXd G(4, Bp);
    for (Eigen::Index i = 0; i < Bp; ++i) G.col(i) = X.col(i) * X.col(i).dot(u);
    dpb::core::Rng rng(run, 22);
    const auto r = private_top_eigenvalue(G, kTopEigenvaluePrivacy, kTopEigenvalueZeta, {}, rng, ws,
                                          top_eigenvalue_ledger);
    const double ratio = r.value ? *r.value / target : 0.0;
    if (ratio < std::pow(2.0, -0.5) || ratio > std::pow(2.0, 0.5)) ++outside;
  }
  CHECK(outside <= 0.01 * 20 + 20 * dpb::test::bernstein_halfwidth(0.01, 20, 1e-6));
}

TEST_CASE("liu2022.private_top_eigenvalue is deterministic for a seed", "[liu2022]") {
  // Gaussian vectors (lighter tails than A_i u): 40000 of them give b = 298 per subset.
  const auto data = dpb::test::liu2022::spiked(4, 40000, 5);
  Input in;
  in.X = &data.X;
  in.privacy = kTopEigenvaluePrivacy;
  dpb::core::Rng a(1, 1), b(1, 1);
  const auto ea = PrivateTopEigenvalue({}, kTopEigenvalueZeta).run(in, a),
             eb = PrivateTopEigenvalue({}, kTopEigenvalueZeta).run(in, b);
  REQUIRE(ea.scalar);
  CHECK(*ea.scalar == *eb.scalar);
  // Vector input: Cov(x) = Sigma, top eigenvalue 5; the estimate is within 2^{+-1/2} of it.
  CHECK(*ea.scalar > 5 / std::sqrt(2.0));
  CHECK(*ea.scalar < 5 * std::sqrt(2.0));
  // ... which is the model's lambda1, the estimand a run measures it against; on sample matrices (A_i u
  // at a random u) it estimates nothing a model publishes.
  CHECK(ea.scalar_estimand == "lambda1");
  Input on_matrices;
  on_matrices.samples = data.samples.get();
  on_matrices.privacy = kTopEigenvaluePrivacy;
  const auto em = PrivateTopEigenvalue({}, kTopEigenvalueZeta).run(on_matrices, a);
  CHECK(em.scalar_estimand.empty());
}
