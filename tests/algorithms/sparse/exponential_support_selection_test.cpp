#include "algorithms/sparse/exponential_support_selection.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/mechanisms/accountant.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/samplers.hpp"
#include "tests/support/statistics.hpp"

using namespace dpb::alg;
using dpb::core::Rng;
using Eigen::Index;
using Eigen::MatrixXd;

namespace {

// d = 4, n = 40 fixed points with a strong pair (coordinates 0 and 1), clipped at tau = 1.5 in places;
// block(Z, S) is the clipped second moment on the support S, as the tests recompute it by hand.
constexpr Index kD = 4, kK = 2, kN = 40;
constexpr double kTau = 1.5;

MatrixXd fixed_data() {
  Rng data_rng(3, 0);
  MatrixXd X = dpb::core::standard_normal_matrix(data_rng, kD, kN);
  X.row(0) *= 2.0;
  X.row(1) += 0.8 * X.row(0);
  return X;
}

MatrixXd clipped_block(const MatrixXd& X, const std::vector<Index>& S) {
  const MatrixXd Z = X.cwiseMax(-kTau).cwiseMin(kTau);
  MatrixXd block(kK, kK);
  for (Index a = 0; a < kK; ++a)
    for (Index b = 0; b < kK; ++b) block(a, b) = Z.row(S[a]).dot(Z.row(S[b])) / kN;
  return block;
}

}  // namespace

TEST_CASE("supports are enumerated lexicographically, the size guard refuses with a clear error",
          "[kumar2025]") {
  Ledger scratch;
  const auto s = enumerate_supports(4, 2, 100);
  REQUIRE(s.size() == 6);
  CHECK(s.front() == std::vector<Index>{0, 1});
  CHECK(s[2] == std::vector<Index>{0, 3});
  CHECK(s.back() == std::vector<Index>{2, 3});
  CHECK(support_count(30, 4) == 27405);
  CHECK(enumerate_supports(5, 5, 1).size() == 1);
  CHECK_THROWS_WITH(enumerate_supports(30, 4, 1000),
                    Catch::Contains("C(30, 4) = 2.74e+04") && Catch::Contains("max_supports = 1000"));
  const MatrixXd X = MatrixXd::Ones(30, 5);
  Rng rng(1, 1);
  ExpMechSupportParams p;
  p.tau = 1;
  p.max_supports = 1000;
  CHECK_THROWS_WITH(exponential_support_selection(X, 4, Privacy{1, 0}, p, scratch, rng),
                    Catch::Contains("max_supports"));
}

TEST_CASE("exp-mech support selection rejects invalid input", "[kumar2025]") {
  Ledger scratch;
  const MatrixXd X = MatrixXd::Ones(4, 5);
  Rng rng(1, 1);
  ExpMechSupportParams p;
  p.tau = 1;
  CHECK_THROWS_WITH(exponential_support_selection(X, 2, Privacy{1, 1e-5}, p, scratch, rng),
                    Catch::Contains("pure eps-DP"));
  CHECK_THROWS_AS(exponential_support_selection(X, 5, Privacy{1, 0}, p, scratch, rng), dpb::InvalidArgument);
  p.tau = 0;  // the default tau needs sigma2
  CHECK_THROWS_WITH(exponential_support_selection(X, 2, Privacy{1, 0}, p, scratch, rng),
                    Catch::Contains("sigma2"));
}

TEST_CASE("exp-mech support selection: scores, output and frequencies match the exact distribution",
          "[kumar2025]") {
  // fixed_data() (d = 4, k = 2, n = 40; tau = 1.5 clips some coordinates). Scores are recomputed here by brute
  // force, probabilities from the paper's formula exp(eps_S n q / (4 k tau^2)) directly, at the selection's
  // share eps_S = eps / 2 of the default (private) release.
  const Index d = kD, k = kK, n = kN;
  const MatrixXd X = fixed_data();
  ExpMechSupportParams p;
  p.tau = kTau;
  const double eps = 0.5;
  const auto supports = enumerate_supports(d, k, 100);
  std::vector<double> q, prob;
  for (const auto& S : supports) {
    q.push_back(dpb::core::symmetric_eigenvalues(clipped_block(X, S))[k - 1]);
    prob.push_back(std::exp(p.selection_share * eps * n * q.back() / (4 * k * p.tau * p.tau)));
  }
  double total = 0;
  for (double w : prob) total += w;
  for (double& w : prob) w /= total;
  const int runs = 20000;
  std::vector<double> count(supports.size(), 0.0);
  for (int seed = 0; seed < runs; ++seed) {
    Rng rng(seed, 9);
    Ledger ledger;
    const ExpMechSupportResult r = exponential_support_selection(X, k, Privacy{eps, 0}, p, ledger, rng);
    if (seed == 0) {
      // Two exponential mechanisms at eps/2 each: the support (max-score sensitivity 2 k tau^2 / n) and the
      // vector on it (spectral sensitivity k tau^2 / n of SigmaHat_S): pure eps in total.
      REQUIRE(ledger.entries().size() == 2);
      CHECK(ledger.entries()[0].norm == SensitivityNorm::max_score);
      CHECK(ledger.entries()[0].sensitivity == Approx(2 * k * p.tau * p.tau / n));
      CHECK(ledger.entries()[1].norm == SensitivityNorm::spectral);
      CHECK(ledger.entries()[1].sensitivity == Approx(k * p.tau * p.tau / n));
      for (const LedgerEntry& e : ledger.entries()) {
        CHECK(e.calibrated_for.epsilon == Approx(eps / 2));
        CHECK(entry_cost(e, Neighbours::replace).epsilon == Approx(eps / 2));
      }
      CHECK(account(ledger, 0, Neighbours::replace).epsilon == Approx(eps));
      for (std::size_t s = 0; s < q.size(); ++s) CHECK(r.scores[s] == Approx(q[s]).epsilon(1e-12));
      CHECK(r.sensitivity == Approx(2 * k * p.tau * p.tau / n));
      CHECK(r.selection_epsilon == Approx(eps / 2));
      CHECK(r.proposals >= 1);  // the vector on the support was sampled, not computed
      CHECK(r.v_hat.norm() == Approx(1));
      for (Index j = 0; j < d; ++j)
        if (std::find(r.support.begin(), r.support.end(), j) == r.support.end()) CHECK(r.v_hat[j] == 0);
    }
    count[static_cast<std::size_t>(r.support_rank)] += 1;
  }
  // Every probability must be non-trivial for the test to have power.
  CHECK(*std::min_element(prob.begin(), prob.end()) > 0.02);
  // Bernstein at level 1e-8 per support (6 supports): a correct sampler fails with probability < 1e-7.
  for (std::size_t s = 0; s < prob.size(); ++s) {
    INFO("support " << s << ": frequency " << count[s] / runs << ", probability " << prob[s]);
    CHECK(std::abs(count[s] / runs - prob[s]) <= dpb::test::bernstein_halfwidth(prob[s], runs, 1e-8));
  }
}

TEST_CASE("exp-mech support selection: the vector on the support is sampled privately unless as printed",
          "[kumar2025]") {
  Ledger scratch;
  const Index d = kD, k = kK;
  const MatrixXd X = fixed_data();
  ExpMechSupportParams p;
  p.tau = kTau;
  auto exact_on_support = [&](const ExpMechSupportResult& r) {
    const Eigen::VectorXd v =
        dpb::core::symmetric_eigenpairs(clipped_block(X, r.support)).vectors.col(k - 1);
    Eigen::VectorXd full(d);
    full.setZero();
    for (Index a = 0; a < k; ++a) full[r.support[a]] = v[a];
    return full;
  };
  // As printed, lines 12-13 return the exact eigenvector on S_hat: the same vector on every run that
  // selects that support (which is why it is not private), with the whole eps for the selection.
  p.release = ExpMechSupportParams::Release::as_printed;
  Rng rng(5, 1);
  const ExpMechSupportResult printed = exponential_support_selection(X, k, Privacy{0.5, 0}, p, scratch, rng);
  CHECK(printed.selection_epsilon == 0.5);
  CHECK(printed.proposals == 0);
  // The ledger shows the printed vector as a release without noise: nothing bounds it.
  REQUIRE(scratch.entries().size() == 2);
  CHECK(scratch.entries()[1].mechanism == Mechanism::exact);
  CHECK(std::isinf(account(scratch, 0, Neighbours::replace).epsilon));
  CHECK(std::abs(printed.v_hat.dot(exact_on_support(printed))) == Approx(1.0).epsilon(1e-12));
  // Private: Bingham draws on the k-sphere. At eps = 0.5 they scatter (mean |<v, exact>| well below 1);
  // at eps = 5e4 the exponent's gap is ~1e4 and they sit on the exact vector (1 - cos ~ 1e-4).
  p.release = ExpMechSupportParams::Release::exponential_mechanism;
  auto mean_alignment = [&](double eps) {
    double sum = 0;
    for (int run = 0; run < 200; ++run) {
      Rng r_rng(run, 2);
      const ExpMechSupportResult r = exponential_support_selection(X, k, Privacy{eps, 0}, p, scratch, r_rng);
      sum += std::abs(r.v_hat.dot(exact_on_support(r)));
    }
    return sum / 200;
  };
  CHECK(mean_alignment(0.5) < 0.95);
  CHECK(mean_alignment(5e4) > 0.999);
  p.selection_share = 1.0;
  CHECK_THROWS_WITH(exponential_support_selection(X, k, Privacy{0.5, 0}, p, scratch, rng),
                    Catch::Contains("selection_share"));
}
