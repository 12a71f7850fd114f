// The numpy loops the bench times beside dugler2026's adaptive family
// (bench/support/numpy_adaptive_loops.hpp) must compute what they stand for, or "numpy / dpbounds" would
// compare dpbounds with some other work. Each runs here on data with a planted plane, never timed. (This
// holds the loops' results; that their work per batch is dpbounds' rests on reading them side by side, and on
// plan() and blocks() being dpbounds' formulas.)
#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "algorithms/pca/dugler2026_adaptive_step.hpp"
#include "bench/support/numpy_adaptive_loops.hpp"
#include "bench/support/numpy_mechanisms.hpp"
#include "tests/bench/numpy_check.hpp"

using namespace dpb::bench;

TEST_CASE("the bench's numpy adaptive loops estimate what dugler2026's algorithms do", "[bench]") {
  // d = 8 samples with variance 9 along e1 (1 elsewhere) and the shift C = diag(20, 1) on e2, e3: the top
  // plane of C + Sigma, span(e1, e2), needs both the shift and the samples' products. Thresholds hold over
  // data seeds 100-107 and loop seeds 0-7 (seed 0 here); each mutant named fails it in all eight:
  // - PRIVRANGE (n = 1e5): Lhat over its target, max_r lambda_max((q^T S q) S + S q q^T S) for Gaussian
  //   samples (C cancels in the paired differences), is 1.69-1.98 (the safety factor 2, a bin's width);
  //   in [1.5, 3.2]. Without the samples' product 0; without the factor 2 <= 0.99; 1/b for 1/(2b) >= 3.37.
  // - TRUNCATEDMEAN (n = 5e4, 10 samples scaled by 100, shift 2000 so that the mean lies beyond R of 0): the
  //   error over its own noise's expected norm is 0.63-1.06; in [0.5, 2]. Without the noise <= 0.12, ten
  //   times it >= 6.2, without the clamp >= 4.4, centres at 0 >= 133, without the shift's product >= 428.
  // - ADADPO (n = 5e5, the median of three starts: one start in eight is slow to leave it): the smallest
  //   cosine to the plane 0.928-0.963; in [0.9, 0.98]. Without noise >= 0.992; without the shift's or the
  //   samples' product, or with ten times the noise, <= 0.52.
  // - TADADPO (n = 1e6, a warm start: it refines) 0.9972-0.9995, in [0.99, 0.9999]; the two-stage method
  //   (n = 1e6, a random start) 0.988-0.9965, in [0.98, 0.9999]. Without noise both >= 0.99999; without
  //   either product, or with ten times the noise, <= 0.92.
  const std::string check = R"(
V, lam = np.eye(8)[:, 1:3], np.array([20.0, 1.0])
S = np.diag([9.0] + [1.0] * 7)
def planted(n, outliers=0):
    g = np.random.default_rng(100)
    X = g.standard_normal((n, 8)); X[:, 0] *= 3
    X[g.choice(n, outliers, replace=False)] *= 100
    return X
cosine = lambda Q: float(np.linalg.svd(Q[:2, :], compute_uv=False).min())
orthonormal = lambda Q: float(np.abs(Q.T @ Q - np.eye(2)).max())
out = {}
rng = np.random.default_rng(0)
Lhat, Q = priv_range(planted(100000), V, lam)
out["priv_range"] = (Lhat or 0.0) / max(np.linalg.eigvalsh((q @ S @ q) * S + np.outer(S @ q, S @ q))[-1] for q in Q.T)
rng = np.random.default_rng(0)
G, Q = truncated_mean(planted(50000, 10), V, np.array([2000.0, 1.0]), Lhat=9.0)
R = 9 * np.log(50000 * 16 / 0.01)
noise = 2 * R * 16 / 50000 * np.sqrt(2 * np.log(250)) / 0.5
out["truncated_mean"] = float(np.linalg.norm(G - (np.diag([0, 2000.0, 1] + [0] * 5) + S) @ Q) / noise)
rng = np.random.default_rng(0)
X = planted(500000)
runs = sorted((cosine(Q), orthonormal(Q)) for Q in [adadpo(X, V, lam) for _ in range(3)])
out["adadpo"], out["adadpo_orthonormal"] = runs[1][0], max(r[1] for r in runs)
rng = np.random.default_rng(0)
Q0 = np.linalg.qr(np.eye(8)[:, :2] + 0.3 * np.random.default_rng(200).standard_normal((8, 2)))[0]
Q = tadadpo(planted(1000000), V, lam, Q0)
out["tadadpo"], out["tadadpo_orthonormal"] = cosine(Q), orthonormal(Q)
rng = np.random.default_rng(0)
Q = two_stage(planted(1000000), V, lam)
out["two_stage"], out["two_stage_orthonormal"] = cosine(Q), orthonormal(Q)
print(json.dumps(out))
)";
  const auto result = numpy_check(std::string(kNumpyMechanisms) + kNumpyAdaptiveLoops + check);
  if (!result) return;
  check_within(*result, "priv_range", 1.5, 3.2);
  check_within(*result, "truncated_mean", 0.5, 2.0);
  check_within(*result, "adadpo", 0.9, 0.98);
  check_within(*result, "tadadpo", 0.99, 0.9999);
  check_within(*result, "two_stage", 0.98, 0.9999);
  for (const char* q : {"adadpo_orthonormal", "tadadpo_orthonormal", "two_stage_orthonormal"})
    CHECK(result->at(q).get<double>() < 1e-12);
}

TEST_CASE("the bench's numpy batch plan is dpbounds' adaptive_plan", "[bench]") {
  // plan() restates adaptive_plan in Python so that the loops run dpbounds' batch and step counts. Sizes
  // where n / log n is feasible as it stands and where PRIVRANGE's blocks (at zeta / (divisor T)) or
  // TRUNCATEDMEAN's histograms raise it; e.g. n = 1e5, d = 200, k = 1, margin 1 raises 8686 to 34400 (T = 2),
  // where judging PRIVRANGE at the requested T = 11 gave 40000.
  struct Case {
    Eigen::Index n, d, k;
    double divisor, margin;
  };
  const std::vector<Case> cases{{100000, 200, 1, 2, 1.0}, {100000, 200, 1, 8, 1.0},  {100000, 100, 5, 2, 2.0},
                                {1000000, 20, 5, 2, 2.0}, {1000000, 200, 1, 8, 1.0}, {300000, 50, 2, 2, 1.0}};
  std::string script = "out = {}\n";
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    script += fmt::format("out['{}'] = plan({}, {}, {}, {}, {})\n", i, c.n, c.d, c.k, c.divisor, c.margin);
  }
  // n = 1 cannot fill one batch of two: both refuse it (plan() with its own assertion, not a division by 0).
  script += "try:\n    plan(1, 20, 1, 2)\nexcept AssertionError:\n    out['n = 1'] = 'refused'\n";
  script += "print(json.dumps(out))\n";
  const auto result = numpy_check(std::string(kNumpyMechanisms) + kNumpyAdaptiveLoops + script);
  if (!result) return;
  bool some_raised = false;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    dpb::alg::dugler2026::AdaptiveSettings s;
    s.feasibility_margin = c.margin;
    const auto plan = dpb::alg::dugler2026::adaptive_plan({}, s, c.n, c.d, c.k, dpb::alg::Privacy{1.0, 0.01},
                                                          c.divisor, "t");
    CAPTURE(c.n, c.d, c.k, c.divisor, c.margin);
    CHECK(result->at(std::to_string(i))[0].get<Eigen::Index>() == plan.B);
    CHECK(result->at(std::to_string(i))[1].get<Eigen::Index>() == plan.T);
    some_raised = some_raised || plan.increased;
  }
  CHECK(some_raised);
  CHECK(result->value("n = 1", "") == "refused");
  CHECK_THROWS_AS(dpb::alg::dugler2026::adaptive_plan({}, {}, 1, 20, 1, dpb::alg::Privacy{1.0, 0.01}, 2, "t"),
                  dpb::InvalidArgument);
}
