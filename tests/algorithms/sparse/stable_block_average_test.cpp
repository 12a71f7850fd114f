#include "algorithms/sparse/stable_block_average.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/mechanisms/accountant.hpp"
#include "algorithms/mechanisms/laplace.hpp"
#include "core/errors.hpp"
#include "tests/algorithms/sparse/sparse_fixtures.hpp"

using namespace dpb::alg;
using dpb::core::Rng;
using Eigen::Index;
using Eigen::MatrixXd;

namespace {

constexpr Index kD = 6;
const SparseConstants kScaled{true, 0.5};

MatrixXd spike_block(double top) { return dpb::test::diagonal_block(dpb::test::spike_diagonal(kD, top)); }

// 16 blocks diag(4, 1, ...), 20 blocks diag(4.8, 1, ...) and 4 blocks diag(5.6, 1, ...) (m = 40, b = 6). With
// tau = 1/4 the friend radius 4 tau = 1 links 4 ~ 4.8 and 4.8 ~ 5.6 but not 4 ~ 5.6, so f = 36, 40, 24 and
// on the ramp from m/2 = 20 to 2m/3 = 26.67: p = 1, 1, 0.6; Z = 38.4. All blocks are 2-RCS with gap >= 3/4.
MatrixXd chain_blocks() {
  return dpb::test::concat_blocks({dpb::test::repeated_blocks(spike_block(4), 16, spike_block(4.8), 20),
                                   dpb::test::repeated_blocks(spike_block(5.6), 4, MatrixXd(kD, 0), 0)});
}

constexpr double kTau = 0.25;
const Privacy kTight{1e3, 0.5};  // bounds (3/eps) log 24 = 0.0095 and (21/eps) log 24 = 0.067: both tests pass

StableBlockResult average(const MatrixXd& X, const CertificationRule& rule, std::uint64_t seed,
                          const StableBlockConstants& K = {}) {
  Rng rng(seed, 7);
  Ledger ledger;
  return stable_block_average(X, 40, kTau, rule, kTight, K, ledger, rng);
}

}  // namespace

TEST_CASE("stable block constants: private-mode boundaries are inclusive and name the lemma", "[kumar2025]") {
  CHECK_NOTHROW(StableBlockConstants{}.validate("own"));
  const auto at = [](auto set) {
    StableBlockConstants K;
    set(K);
    return K;
  };
  // Each floor of the privacy proof is accepted exactly, refused just below.
  CHECK_NOTHROW(at([](auto& K) { K.final_threshold = 17; }).validate("own"));
  CHECK_THROWS_WITH(at([](auto& K) { K.final_threshold = 16.9; }).validate("own"),
                    "own: final_threshold = 16.9 is below 17, which voids the privacy proof (Lemma 11, spec "
                    "§2.6); only constants=scaled_not_private allows it");
  CHECK_THROWS_WITH(at([](auto& K) { K.friend_radius = 5; }).validate("own"),
                    Catch::Contains("final_threshold = 17 is below 21"));
  CHECK_THROWS_WITH(at([](auto& K) { K.test_cutoff = 0.79; }).validate("own"),
                    Catch::Contains("test_cutoff = 0.79 is below 0.8") && Catch::Contains("Lemma 10"));
  CHECK_THROWS_WITH(at([](auto& K) { K.ramp_low = 0.49; }).validate("own"),
                    Catch::Contains("ramp_low = 0.49 is below 0.5"));
  CHECK_THROWS_WITH(at([](auto& K) { K.count_noise_scale = 2.99; }).validate("own"),
                    Catch::Contains("count_noise_scale = 2.99 is below 3"));
  CHECK_THROWS_WITH(at([](auto& K) { K.mass_noise_scale = 20.9; }).validate("own"),
                    Catch::Contains("mass_noise_scale = 20.9 is below 21"));
  CHECK_THROWS_WITH(at([](auto& K) { K.tail_constant = 11.9; }).validate("own"),
                    Catch::Contains("tail_constant = 11.9 is below 12"));
  // A wider ramp lowers the mass floor to 3 (1 + 1/(3/4 - 1/2)) = 15.
  CHECK_NOTHROW(at([](auto& K) { K.ramp_high = 0.75, K.mass_noise_scale = 15; }).validate("own"));
  CHECK_THROWS_WITH(at([](auto& K) { K.ramp_high = 0.75, K.mass_noise_scale = 14.9; }).validate("own"),
                    Catch::Contains("below 15"));
  CHECK(at([](auto& K) { K.ramp_high = 0.75; }).mass_sensitivity(10) == Approx(1 + 9 / 2.5).epsilon(1e-15));

  // Scaled mode drops the floors but keeps the ranges.
  const auto scaled = [&](auto set) {
    return at([&](auto& K) {
      K.constants = kScaled;
      set(K);
    });
  };
  CHECK_NOTHROW(scaled([](auto& K) {
                  K.final_threshold = 1, K.test_cutoff = 0.5, K.ramp_low = 0.1, K.count_noise_scale = 0.1,
                  K.mass_noise_scale = 0.1, K.tail_constant = 2;
                }).validate("own"));
  CHECK_THROWS_WITH(scaled([](auto& K) { K.test_cutoff = 1.5; }).validate("own"),
                    "own: test_cutoff must lie in [1e-12, 1], got 1.5");
  CHECK_THROWS_WITH(scaled([](auto& K) { K.tail_constant = 1; }).validate("own"),
                    Catch::Contains("tail_constant must lie in"));
  CHECK_THROWS_WITH(scaled([](auto& K) { K.ramp_low = 0.7; }).validate("own"),
                    "own: need ramp_low < ramp_high, got 0.7 and 0.666667");
}

TEST_CASE("stable block constants: the sensitivity of Z is 1 + (m-1)/(m (ramp_high - ramp_low))", "[kumar2025]") {
  const StableBlockConstants K;
  CHECK(K.mass_sensitivity(1) == Approx(1.0).epsilon(1e-15));
  CHECK(K.mass_sensitivity(31) == Approx(211.0 / 31).epsilon(1e-14));  // 1 + 30 * 6 / 31
  CHECK(K.mass_sensitivity(1000000) == Approx(7.0).epsilon(1e-5));     // Eq. 27's 7 in the limit
}

TEST_CASE("stable block layout: tau of Eq. 26, m of A7, and the Gaussian release sd by hand", "[kumar2025]") {
  // default c_tau = 8 + 4 sqrt(log 800 / log d): 12 at d = 800, 14.81538 at d = 10.
  CHECK(default_c_tau(800) == Approx(12.0).epsilon(1e-15));
  CHECK(default_c_tau(10) == Approx(14.81538258).epsilon(1e-9));
  CHECK(block_threshold(0.3, 2, 3, 100, 25) == 0.3);
  CHECK(block_threshold(0, 2, 3, 100, 25) == Approx(2.57515923).epsilon(1e-8));  // 6 sqrt(log 100 / 25)
  CHECK(block_threshold(0, 0, 1, 800, 100) == Approx(12 * std::sqrt(std::log(800.0) / 100)).epsilon(1e-14));

  const SparseConstants priv;
  const Privacy privacy{1.0, 0.1};
  // A7: max{31, ceil(420 log 120) = 2011, ceil(62 log 80) = 272}; scaled x 0.001: max{31, 3, 272}.
  CHECK(block_count(0, 5000, privacy, 0.1, priv, "own") == 2011);
  CHECK(block_count(0, 5000, privacy, 0.1, SparseConstants{true, 0.001}, "own") == 272);
  CHECK(block_count(31, 31, privacy, 0.1, priv, "own") == 31);  // m = n: blocks of one sample
  CHECK_THROWS_WITH(block_count(30, 100, privacy, 0.1, priv, "own"),
                    "own: m = 30 blocks; the privacy proof needs m > 30 (Lemma 10)");
  CHECK(block_count(5, 100, privacy, 0.1, kScaled, "own") == 5);
  CHECK_THROWS_WITH(block_count(32, 31, privacy, 0.1, priv, "own"), Catch::Contains("m = 32 blocks but only n = 31"));
  CHECK_THROWS_WITH(block_count(0, 5000, privacy, 1.0, priv, "own"), "own: beta must lie in (0, 1), got 1");
  CHECK_THROWS_WITH(block_count(40, 5000, privacy, 0.0, priv, "own"), "own: beta must lie in (0, 1), got 0");

  // n = 100, m = 31: b = floor(100/31) = 3, tau at b = 3.
  const BlockLayout layout = block_layout(100, 50, 31, 0, 2, 4, privacy, 0.1, priv, "own");
  CHECK(layout.m == 31);
  CHECK(layout.block_size == 3);
  CHECK(layout.tau == Approx(8 * std::sqrt(std::log(50.0) / 3)).epsilon(1e-14));
  CHECK_THROWS_WITH(block_layout(100, 50, 31, -1, 0, 4, privacy, 0.1, priv, "own"),
                    Catch::Contains("tau and c_tau must be >= 0"));

  // (6 * 2 / 0.5) sqrt(log(6 / 0.01)) = 60.70116540; scaled by the factor in scaled mode.
  const Privacy p{0.5, 0.01};
  CHECK(release_noise_sd(2, p, 6, 6, priv, "own") == Approx(60.70116540).epsilon(1e-9));
  CHECK(release_noise_sd(2, p, 6, 6, kScaled, "own") == Approx(30.35058270).epsilon(1e-9));
  CHECK_THROWS_WITH(release_noise_sd(2, p, 5.99, 6, priv, "own"),
                    Catch::StartsWith("own: gauss_multiplier = 5.99 is below 6"));
  CHECK_THROWS_WITH(release_noise_sd(2, p, 6, 5.99, priv, "own"),
                    Catch::StartsWith("own: gauss_log_constant = 5.99 is below 6"));
  CHECK(release_noise_sd(2, p, 1, 2, kScaled, "own") == Approx(0.5 * 4 * std::sqrt(std::log(200.0))));
  CHECK_THROWS_WITH(release_noise_sd(2, p, 6, 1, kScaled, "own"), Catch::Contains("gauss_log_constant must lie in"));
}

TEST_CASE("stable block average: friends, ramp weights and SigmaBar against a direct computation",
          "[kumar2025]") {
  const MatrixXd X = chain_blocks();
  const StableBlockResult r = average(X, {2, 0.5, std::nullopt}, 1);
  REQUIRE(r.passed());
  CHECK(r.m == 40);
  CHECK(r.block_size == static_cast<Index>(kD));
  CHECK(r.certified_count == 40);
  CHECK(r.nonpositive_blocks == 0);
  Eigen::VectorXd f(40), p(40);
  f << Eigen::VectorXd::Constant(16, 36), Eigen::VectorXd::Constant(20, 40), Eigen::VectorXd::Constant(4, 24);
  p << Eigen::VectorXd::Ones(36), Eigen::VectorXd::Constant(4, 0.6);
  CHECK(r.f == f);
  CHECK((r.p - p).cwiseAbs().maxCoeff() < 1e-14);
  CHECK(r.Z == Approx(38.4).epsilon(1e-14));

  // SigmaBar = (1/Z) sum_i p_i (1/b) X_i X_i^T, formed block by block.
  MatrixXd direct = MatrixXd::Zero(kD, kD);
  for (Index i = 0; i < 40; ++i) {
    const MatrixXd block = X.middleCols(i * kD, kD);
    direct += p[i] * block * block.transpose() / static_cast<double>(kD);
  }
  direct /= 38.4;
  CHECK((r.SigmaBar - direct).cwiseAbs().maxCoeff() < 1e-13);
  CHECK(r.SigmaBar(0, 0) == Approx(173.44 / 38.4).epsilon(1e-13));  // (16 * 4 + 20 * 4.8 + 2.4 * 5.6) / 38.4

  // Both noises come from the stream in order, at scales 3/eps and 21/eps with bounds x log(12/delta).
  const double log_tail = std::log(12 / kTight.delta);
  CHECK(r.count_bound == Approx(3 / kTight.epsilon * log_tail).epsilon(1e-15));
  CHECK(r.mass_bound == Approx(21 / kTight.epsilon * log_tail).epsilon(1e-15));
  // The releases are |C| + L and Z + xi, exactly; L and xi are read back from them.
  Rng replay(1, 7);
  const double L = bounded_laplace(replay, 3 / kTight.epsilon, r.count_bound);
  CHECK(r.noisy_count == 40 + L);
  CHECK(r.L == Approx(L).margin(1e-12));
  REQUIRE(r.xi);
  REQUIRE(r.noisy_mass);
  const double xi = bounded_laplace(replay, 21 / kTight.epsilon, r.mass_bound);
  CHECK(*r.noisy_mass == r.Z + xi);
  CHECK(*r.xi == Approx(xi).margin(1e-12));

  // The trailing n - m b samples are dropped: junk after the last block changes nothing.
  MatrixXd padded(kD, X.cols() + 5);
  padded << X, MatrixXd::Constant(kD, 5, 100.0);
  const StableBlockResult same = average(padded, {2, 0.5, std::nullopt}, 1);
  CHECK(same.block_size == static_cast<Index>(kD));
  CHECK(same.SigmaBar == r.SigmaBar);
}

TEST_CASE("stable block average: the friend radius and scaled noise are the constants'", "[kumar2025]") {
  // Radius 2 tau = 0.5 < 0.8: every block is its group's only friend set, f = 16, 20, 4, all below m/2.
  StableBlockConstants K;
  K.friend_radius = 2;
  const StableBlockResult lonely = average(chain_blocks(), {2, 0.5, std::nullopt}, 2, K);
  CHECK(lonely.Z == 0);
  CHECK(lonely.f.head(16).isConstant(16));
  CHECK(lonely.f.segment(16, 20).isConstant(20));
  CHECK(lonely.bottom.rfind("line 13", 0) == 0);
  CHECK(lonely.SigmaBar.size() == 0);
  // Scaled constants multiply both scales and bounds by the factor.
  K = StableBlockConstants{};
  K.constants = kScaled;
  const StableBlockResult scaled = average(chain_blocks(), {2, 0.5, std::nullopt}, 2, K);
  CHECK(scaled.count_bound == Approx(0.5 * 3 / kTight.epsilon * std::log(24.0)).epsilon(1e-15));
  CHECK(scaled.mass_bound == Approx(0.5 * 21 / kTight.epsilon * std::log(24.0)).epsilon(1e-15));
}

TEST_CASE("stable block average: certification by lambda_hat, and blocks with lambda_1 <= 0", "[kumar2025]") {
  // lambda_hat = 6, gamma = 1/2: certified needs lambda_1 >= 4.5, so the 16 blocks at 4 fail; |C| = 24 < 0.8 m
  // stops at line 4 before any friend count or second draw.
  const StableBlockResult r = average(chain_blocks(), {2, 0.5, 6.0}, 3);
  CHECK(r.certified_count == 24);
  for (Index i = 0; i < 40; ++i) CHECK(r.certified[static_cast<std::size_t>(i)] == (i >= 16));
  CHECK(r.bottom.rfind("line 4", 0) == 0);
  CHECK(r.f.size() == 0);
  CHECK_FALSE(r.xi);
  // The bar moves with lambda_hat: just under 5.6 / 0.75 only the blocks at 5.6 clear it.
  CHECK(average(chain_blocks(), {2, 0.5, 5.6 / 0.75 * (1 - 1e-12)}, 3).certified_count == 4);
  // Without lambda_hat the gap rule alone decides (gamma is not range-checked here): gamma = 1.6 needs
  // gap >= 0.8, which only 1 - 1/5.6 = 0.82 meets (1 - 1/4.8 = 0.79).
  CHECK(average(chain_blocks(), {2, 1.6, std::nullopt}, 3).certified_count == 4);

  // Two all-zero blocks: lambda_1 = 0 leaves the gap undefined (A24), so they are counted, not certified.
  const MatrixXd X = dpb::test::repeated_blocks(spike_block(4), 38, MatrixXd::Zero(kD, kD), 2);
  const StableBlockResult z = average(X, {2, 0.5, std::nullopt}, 4);
  CHECK(z.nonpositive_blocks == 2);
  CHECK(z.certified_count == 38);
  REQUIRE(z.passed());
  CHECK(z.Z == Approx(38).epsilon(1e-15));  // the zero blocks are only each other's friends: p = 0
  CHECK((z.SigmaBar - dpb::test::spike_diagonal(kD, 4).asDiagonal().toDenseMatrix()).cwiseAbs().maxCoeff() <
        1e-14);
}

TEST_CASE("stable block average: both tests are bounded Laplace entries at (eps/3, delta/3)", "[kumar2025]") {
  // spec: kumar2025 Lemma 8: |C| has sensitivity 1 (one record sits in one block), Z has mass_sensitivity(m);
  // by Fact 2 each test costs at most (eps/3, delta/3), which the accountant confirms from the noise.
  const StableBlockConstants K;
  Ledger ledger;
  Rng rng(1, 7);
  const StableBlockResult r =
      stable_block_average(chain_blocks(), 40, kTau, {2, 0.5, std::nullopt}, kTight, K, ledger, rng);
  REQUIRE(r.passed());
  REQUIRE(ledger.entries().size() == 2);
  const LedgerEntry& count = ledger.entries()[0];
  const LedgerEntry& mass = ledger.entries()[1];
  CHECK(count.mechanism == Mechanism::bounded_laplace);
  CHECK(count.sensitivity == 1);
  CHECK(count.noise_scale == 3 / kTight.epsilon);
  CHECK(count.truncation == r.count_bound);
  CHECK(mass.mechanism == Mechanism::bounded_laplace);
  CHECK(mass.sensitivity == K.mass_sensitivity(40));
  CHECK(mass.noise_scale == 21 / kTight.epsilon);
  CHECK(mass.truncation == r.mass_bound);
  for (const LedgerEntry& e : ledger.entries()) {
    CHECK(e.calibrated_for.epsilon == kTight.epsilon / 3);
    CHECK(e.calibrated_for.delta == kTight.delta / 3);
    const EntryCost cost = entry_cost(e, Neighbours::replace);
    CHECK(cost.epsilon <= kTight.epsilon / 3 * (1 + 1e-12));
    CHECK(cost.delta <= kTight.delta / 3 * (1 + 1e-9));
  }
  // Entries built without running are the ones recorded.
  CHECK(count_test_entry(kTight, K).truncation == count.truncation);
  CHECK(mass_test_entry(40, kTight, K).sensitivity == mass.sensitivity);
  // BOTTOM at line 4: only the first test ran.
  Ledger stopped;
  Rng rng2(3, 7);
  const StableBlockResult s =
      stable_block_average(chain_blocks(), 40, kTau, {2, 0.5, 6.0}, kTight, K, stopped, rng2);
  CHECK(s.bottom.rfind("line 4", 0) == 0);
  REQUIRE(stopped.entries().size() == 1);
  CHECK(stopped.entries()[0].step == count.step);
  CHECK_FALSE(s.noisy_mass);
}
