#include "algorithms/mechanisms/oneshot_top_k.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <initializer_list>
#include <map>

#include "algorithms/mechanisms/accountant.hpp"
#include "core/errors.hpp"
#include "core/samplers.hpp"

using namespace dpb::alg;
using dpb::core::Rng;
using Eigen::Index;
using Eigen::VectorXd;

namespace {

VectorXd vec(std::initializer_list<double> values) {
  VectorXd v(static_cast<Index>(values.size()));
  Index i = 0;
  for (double x : values) v[i++] = x;
  return v;
}

}  // namespace

TEST_CASE("one-shot top-k: the entry charges the coupling distance (2k + k) s, and 0 for the set when k = m",
          "[kumar2025]") {
  CHECK(oneshot_top_k_coupling_sensitivity(10, 3, 0.5, true) == Approx(4.5));
  CHECK(oneshot_top_k_coupling_sensitivity(10, 3, 0.5, false) == Approx(3.0));
  CHECK(oneshot_top_k_coupling_sensitivity(3, 3, 0.5, true) == Approx(1.5));
  CHECK(oneshot_top_k_coupling_sensitivity(3, 3, 0.5, false) == 0);
  const LedgerEntry e = oneshot_top_k_entry("row", 10, 3, 0.5, 2.0, true, Privacy{0.1, 1e-6});
  CHECK(e.mechanism == Mechanism::laplace);
  CHECK(e.norm == SensitivityNorm::l1);
  CHECK(e.noise_scale == 2.0);
  CHECK(e.calibrated_for.epsilon == 0.1);
  CHECK(entry_cost(e, Neighbours::replace).epsilon == Approx(4.5 / 2.0));  // pure: sensitivity / scale
  CHECK_THROWS_AS(oneshot_top_k_entry("row", 3, 4, 0.5, 2.0, true, Privacy{}), dpb::InvalidArgument);
  CHECK_THROWS_AS(oneshot_top_k_entry("row", 3, 2, 0.5, 0.0, true, Privacy{}), dpb::InvalidArgument);
  Ledger ledger;
  Rng rng(1, 1);
  const LedgerEntry gauss = gaussian_entry("g", 1, 1, Privacy{1, 1e-5});
  CHECK_THROWS_AS(oneshot_top_k_mechanism(VectorXd::Zero(3), 1, true, gauss, ledger, rng),
                  dpb::InvalidArgument);
}

TEST_CASE("one-shot top-k: draws, ranking by magnitude, one ledger use per call", "[kumar2025]") {
  const VectorXd scores = vec({0.5, -3.0, 0.1, 2.0, -0.2});
  const LedgerEntry e = oneshot_top_k_entry("row", 5, 2, 0.01, 1e-6, true, Privacy{1, 1e-5});
  Ledger ledger;
  Rng rng(2, 1), replay(2, 1);
  const OneshotTopK r = oneshot_top_k_mechanism(scores, 2, true, e, ledger, rng);
  // Tiny noise: the two largest magnitudes (-3 and 2), ascending, with their values.
  CHECK(r.support == std::vector<Index>{1, 3});
  double max_noise = 0;
  for (Index j = 0; j < 5; ++j) max_noise = std::max(max_noise, std::abs(dpb::core::laplace(replay, 1e-6)));
  const double z1 = dpb::core::laplace(replay, 1e-6), z3 = dpb::core::laplace(replay, 1e-6);
  CHECK(r.values[0] == -3.0 + z1);
  CHECK(r.values[1] == 2.0 + z3);
  CHECK(r.max_abs_noise == std::max({max_noise, std::abs(z1), std::abs(z3)}));
  oneshot_top_k_mechanism(scores, 2, true, e, ledger, rng);
  REQUIRE(ledger.entries().size() == 1);
  CHECK(ledger.entries().front().uses == 2);
  // Without values: only the m selection draws.
  Rng a(3, 1), b(3, 1);
  const OneshotTopK s = oneshot_top_k_mechanism(scores, 2, false, e, ledger, a);
  CHECK(s.values.size() == 0);
  for (Index j = 0; j < 5; ++j) dpb::core::laplace(b, 1e-6);
  CHECK(a() == b());
}

TEST_CASE("one-shot top-k by magnitude: selection frequencies of neighbours within e^{2 k s / b}",
          "[kumar2025]") {
  // A Monte Carlo sanity check of the coupling (oneshot_top_k.hpp): scores moved by at most s = 1 in every
  // coordinate, signs included, change each selected set's probability by at most e^{2 k s / b} (b = 2).
  const double s = 1, b = 2;
  const int runs = 100000;
  const LedgerEntry e = oneshot_top_k_entry("row", 4, 2, s, b, false, Privacy{2, 0});
  const std::vector<std::pair<VectorXd, VectorXd>> pairs = {
      {vec({0, 0, 0, 0}), vec({1, -1, 1, -1})},
      {vec({0.5, -0.5, 2, 0}), vec({-0.5, 0.5, 1, 1})},
      {vec({1, 0, 0, -1}), vec({0, 1, 1, 0})},
  };
  const double bound = std::exp(2 * 2 * s / b);
  for (const auto& [x, y] : pairs) {
    std::map<std::vector<Index>, double> px, py;
    Ledger ledger;
    Rng rx(4, 1), ry(4, 2);
    for (int t = 0; t < runs; ++t) {
      px[oneshot_top_k_mechanism(x, 2, false, e, ledger, rx).support] += 1.0 / runs;
      py[oneshot_top_k_mechanism(y, 2, false, e, ledger, ry).support] += 1.0 / runs;
    }
    for (const auto& [set, p] : px) {
      if (p < 0.01 || py[set] < 0.01) continue;  // too rare to estimate the ratio
      INFO("set {" << set[0] << ", " << set[1] << "}: " << p << " vs " << py[set]);
      CHECK(p / py[set] <= bound * 1.1);
      CHECK(py[set] / p <= bound * 1.1);
    }
  }
}
