// Issue 18: "a noise multiplier of 0.7 on any Gaussian-based algorithm is flagged by the default audit". Every
// real algorithm whose claim is worst case and whose releases are all Gaussian is run with all of its Gaussian
// noise x0.7 (alg::ScopedGaussianNoiseFactor: the defect, recorded in the ledger as drawn); where that breaks
// its claim (the accountant says so), its default audit (the canary worst case) must flag it, and must not flag
// the real algorithm at the same runs.
#include <catch2/catch.hpp>

#include "algorithms/mechanisms/accountant.hpp"
#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/registry.hpp"
#include "verify/audit/audit_report.hpp"
#include "verify/audit/auditor.hpp"
#include "tests/verify/audit/noise_scaled.hpp"

namespace alg = dpb::alg;
using dpb::verify::AuditSpec;
using dpb::verify::AuditVerdict;

namespace {

constexpr double kFactor = 0.7;

std::string defective_id(const std::string& id) { return "mutant.noise_x07." + id; }

// The real algorithms and their defective twins (mutants of them, so the auditor builds the real one's worst case).
alg::Registry with_defects(const std::vector<std::string>& ids) {
  alg::Registry registry;
  for (const std::string& id : ids) {
    const alg::AlgorithmEntry& real = alg::algorithm_registry().find(id);
    registry.add(real);
    alg::AlgorithmEntry defect = dpb::test::noise_scaled(real, defective_id(id), kFactor, alg::NoiseDefect::recorded);
    defect.mutant = true;
    defect.breaks = id;
    registry.add(std::move(defect));
  }
  return registry;
}

}  // namespace

TEST_CASE("the Gaussian noise factor seam scales what is drawn and what the ledger records", "[audit]") {
  alg::Ledger ledger;
  dpb::core::Rng rng(1, 1);
  Eigen::MatrixXd value = Eigen::MatrixXd::Zero(20000, 1);
  const alg::LedgerEntry entry = alg::gaussian_entry("test", 1, 2, {1.0, 1e-5});
  {
    const alg::ScopedGaussianNoiseFactor defect(kFactor);
    alg::gaussian_mechanism(value, entry, ledger, rng);
  }
  CHECK(ledger.entries().front().noise_scale == Approx(2 * kFactor));
  const double sd = std::sqrt(value.squaredNorm() / 20000.0);
  CHECK(sd == Approx(2 * kFactor).epsilon(0.03));  // 20000 draws: the sd's relative error ~0.5%
  alg::gaussian_mechanism(value, entry, ledger, rng);  // the guard is gone
  CHECK(ledger.entries().back().noise_scale == 2);
  CHECK_THROWS_AS(alg::ScopedGaussianNoiseFactor(0.0), dpb::InvalidArgument);
}

TEST_CASE("Gaussian noise x0.7 is flagged by the default audit of every Gaussian-based algorithm", "[audit][mutants][slow]") {
  // At eps = 1, delta = 0.05 (the loss on frequent events), n = 50, d = 3, 20000 runs per side: each algorithm's
  // canary worst case (flat data, its attaining neighbours and score), k unset. Configurations whose claims are
  // exact (analytic calibrations, records in order): where a calibration is loose, x0.7 may still keep the
  // claim, and the accountant says so. Measured (seed 1): x0.7 1.47-1.55 of 1 (Analyze Gauss 2.76 of 1.72),
  // the real ones 0.79-0.84 (1.53). Not here: algorithms with non-Gaussian releases too (DP-Gauss-2 spends half its
  // claim on a Laplace gap test that worst-case data always fails, so x0.7 on its Gaussian fallback shows 0.85 of
  // the claimed 1 at most: docs/auditing.md), and liu2022 Alg. 5 and TRUNCATEDMEAN, whose claims x0.7 keeps (their
  // ledgers spend 0.21 and 0.57 of the claimed 0.8 at n = 4000, d = 2: loose calibrations), and Minibatch Private
  // Oja, whose preconditions refuse these budgets (its classical calibration is as loose).
  const std::vector<std::pair<std::string, dpb::core::ParamMap>> cases = {
      {"baseline.gaussian_mean", {}},
      {"baseline.dp_gauss", {{"clip", std::string("on")}, {"mode", std::string("faithful")}}},
      {"baseline.dp_gauss_1", {}},
      {"baseline.noisy_power_method", {}},
      {"liu2022.private_oja", {{"shuffle", std::string("false")}}},
      {"baseline.k_dp_ojas", {{"shuffle", std::string("false")}, {"noise_calibration", std::string("proven")}}},
      {"dugler2026.private_oja", {{"calibration", std::string("analytic")}}},
  };
  std::vector<std::string> ids;
  for (const auto& c : cases) ids.push_back(c.first);
  const alg::Registry registry = with_defects(ids);
  for (const auto& [id, params] : cases) {
    INFO(id);
    AuditSpec s;
    s.params = params;
    s.privacy = {1.0, 0.05};
    s.n = 50;
    s.d = 3;
    s.trials = 20000;
    s.algorithm = defective_id(id);
    const auto defect = dpb::verify::run_audit(s, registry);
    INFO("x0.7: eps_lb " << defect.epsilon_lower() << " of " << defect.audited_epsilon << ", ledger spends "
                         << defect.spent.epsilon);
    CHECK(defect.spent.epsilon > defect.audited_epsilon);  // the defect breaks the claim...
    CHECK(defect.verdict == AuditVerdict::violation);       // ... and the audit shows it
    s.algorithm = id;
    const auto real = dpb::verify::run_audit(s, registry);
    INFO("real: eps_lb " << real.epsilon_lower());
    CHECK(real.verdict == AuditVerdict::pass);
  }
}

TEST_CASE("a noise slip hidden behind an honest ledger makes the audit UNEXPECTED through its noise probe", "[audit]") {
  // The Gaussian mean drawing 0.8 of the sd its ledger declares: the accountant sees an honest ledger, 2000
  // runs per side show no violation, and only the noise probe beside the audit sees the slip.
  alg::Registry registry;
  registry.add(dpb::test::noise_scaled(alg::algorithm_registry().find("baseline.gaussian_mean"),
                                       "test.gaussian_mean_slipped", 0.8, alg::NoiseDefect::hidden));
  registry.add(alg::algorithm_registry().find("baseline.gaussian_mean"));
  AuditSpec s;
  s.privacy = {1.0, 1e-5};
  s.n = 200;
  s.d = 5;
  s.trials = 2000;
  s.algorithm = "test.gaussian_mean_slipped";
  const auto r = dpb::verify::run_audit(s, registry);
  CHECK(alg::within_claim(r.spent, r.claim));  // the ledger cannot see it
  CHECK_FALSE(r.noise_fits());
  CHECK(dpb::verify::audit_outcome(r) == dpb::verify::AuditOutcome::unexpected);
  CHECK_THAT(dpb::verify::to_text(r), Catch::Contains("NOT WHAT ITS LEDGER DECLARES"));
  CHECK(dpb::verify::to_json(r).at("noise").at("fits") == false);
  CHECK_THAT(dpb::verify::audit_line(r), Catch::EndsWith("NOISE NOT AS DECLARED"));
  s.algorithm = "baseline.gaussian_mean";
  const auto real = dpb::verify::run_audit(s, registry);
  CHECK(real.noise_fits());
  REQUIRE(real.noise_checks.size() == 1);
  CHECK(real.noise_checks.front().draws >= 1000);
  CHECK(dpb::verify::audit_outcome(real) == dpb::verify::AuditOutcome::as_expected);
  CHECK_THAT(dpb::verify::audit_line(real), Catch::EndsWith("noise as declared"));
}

TEST_CASE("DP-Gauss-2's noise x0.7 behind an honest ledger, which no audit of its output can show, is flagged by "
          "its entry audit",
          "[audit][mutants][slow]") {
  // Its gap test fails on worst-case data, so its output is the fallback's Gaussian release at half the claim: x0.7
  // there shows at most 0.85 of the claimed 1. Audited alone against the (0.5, 0.025) its honest entry is charged,
  // that release shows more (mu / 0.7); the real one's stays within. (Recorded in the ledger as drawn, the slip
  // is the ledger's to show: it spends 1.35.)
  alg::Registry registry;
  registry.add(alg::algorithm_registry().find("baseline.dp_gauss_2"));
  registry.add(dpb::test::noise_scaled(alg::algorithm_registry().find("baseline.dp_gauss_2"),
                                       defective_id("baseline.dp_gauss_2"), kFactor, alg::NoiseDefect::hidden));
  AuditSpec s;
  s.privacy = {1.0, 0.05};
  s.n = 50;
  s.d = 3;
  s.k = 1;
  s.trials = 20000;
  s.per_entry = true;
  s.neighbours = dpb::verify::NeighbourKind::orthogonal_axes;
  s.algorithm = defective_id("baseline.dp_gauss_2");
  const auto defect = dpb::verify::run_audit(s, registry);
  REQUIRE(defect.entry_audit);
  INFO(dpb::verify::to_text(defect));
  CHECK(defect.verdict == AuditVerdict::pass);  // the composed audit cannot show it
  CHECK_FALSE(defect.entries_fit());
  s.algorithm = "baseline.dp_gauss_2";
  const auto real = dpb::verify::run_audit(s, registry);
  REQUIRE(real.entry_audit);
  CHECK(real.entries_fit());
  CHECK_FALSE(real.entry_audit->entries.empty());
}
