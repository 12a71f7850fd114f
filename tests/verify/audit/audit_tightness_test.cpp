#include "verify/audit/audit_tightness.hpp"

#include <catch2/catch.hpp>

using namespace dpb::verify;

namespace {

AuditResult audit(const std::string& algorithm, double eps_lb, bool gaussian,
                  AuditVerdict verdict = AuditVerdict::pass,
                  dpb::alg::ClaimScope scope = dpb::alg::ClaimScope::worst_case) {
  AuditResult r;
  r.spec.algorithm = algorithm;
  r.audited_epsilon = 2;
  r.loss.epsilon_lower = 2 * eps_lb;  // tightness eps_lb / 2
  r.gaussian_ledger = gaussian;
  r.verdict = verdict;
  r.claim.scope = scope;
  return r;
}

}  // namespace

TEST_CASE("tightness: the best audit of each real algorithm, the median over the Gaussian-based worst-case ones",
          "[audit]") {
  const std::vector<AuditResult> audits = {
      audit("baseline.dp_gauss_1", 0.2, true),
      audit("baseline.dp_gauss_1", 0.7, true),  // its sharper audit counts
      audit("baseline.dp_gauss_2", 0.3, true),
      audit("baseline.noisy_power_method", 0.9, true),
      audit("liu2022.private_top_eigenvalue", 0.1, false),  // a histogram: not Gaussian-based
      audit("cai2024.gaussian_mechanism", 0.01, true, AuditVerdict::pass,
            dpb::alg::ClaimScope::under_model_assumptions),  // reported, kept out of the median
      // An algorithm audited under both scopes counts with its worst-case audits only.
      audit("baseline.dp_gauss", 0.95, true, AuditVerdict::pass, dpb::alg::ClaimScope::under_model_assumptions),
      audit("baseline.dp_gauss", 0.6, true),
      audit("mutant.dp_gauss_1_noise_x07", 1.5, true, AuditVerdict::violation),  // mutants do not count
      audit("baseline.nonprivate_pca", 3, false, AuditVerdict::not_private),
      // The textbook mechanisms measure the auditor: reported apart, out of the median.
      audit("baseline.gaussian_mean", 0.93, true),
      audit("baseline.laplace_mean", 0.991, false),
  };
  std::vector<const AuditResult*> pointers;
  for (const auto& a : audits) pointers.push_back(&a);
  const TightnessSummary summary = summarize_tightness(pointers);
  REQUIRE(summary.algorithms.size() == 6);
  CHECK(summary.algorithms[0].algorithm == "baseline.dp_gauss_1");
  CHECK(summary.algorithms[0].tightness == Approx(0.7));
  CHECK(summary.algorithms[5].algorithm == "baseline.dp_gauss");
  CHECK(summary.algorithms[5].tightness == Approx(0.95));
  CHECK(summary.algorithms[5].gaussian_tightness == Approx(0.6));
  CHECK(summary.gaussian == 4);
  CHECK(summary.model_scope == 1);
  CHECK(summary.gaussian_median == Approx(0.65));  // of 0.3, 0.6, 0.7, 0.9: the middle pair's mean
  REQUIRE(summary.calibration.size() == 2);
  CHECK(summary.calibration[0].algorithm == "baseline.gaussian_mean");
  CHECK(summary.calibration[1].tightness == Approx(0.991));
  CHECK(describe(summary) ==
        "median eps_lb / eps over the 4 Gaussian-based algorithms with worst-case claims: 0.65 (the best audit "
        "of each; 1 claim made only under the model left out); the auditor on the textbook mechanisms: 0.93 "
        "(baseline.gaussian_mean), 0.99 (baseline.laplace_mean)");

  // An odd count takes the middle one; a mutant alone gives no line.
  pointers.erase(pointers.begin() + 3);  // drops noisy_power_method (0.9)
  CHECK(summarize_tightness(pointers).gaussian_median == Approx(0.6));
  CHECK(describe(summarize_tightness({pointers[7]})).empty());
  CHECK(describe(summarize_tightness({pointers.back()})) ==
        "the auditor on the textbook mechanisms: 0.99 (baseline.laplace_mean)");
}
