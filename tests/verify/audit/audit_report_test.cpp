#include "verify/audit/audit_report.hpp"

#include <catch2/catch.hpp>
#include <limits>
#include <string>

using namespace dpb::verify;

namespace {

AuditResult violation() {
  AuditResult r;
  r.spec.algorithm = "mutant.example";
  r.spec.trials = 100;
  r.claim = {1.0, 1e-5, dpb::alg::Neighbours::replace, dpb::alg::ClaimScope::worst_case, {}};
  r.construction = NeighbourKind::huge_norm;
  r.neighbours = "record 0 replaced by a canary";
  r.score = "subspace_energy";
  r.runs_per_side = 100;
  r.runs = 201;
  r.runs_per_second = 1234.5;
  r.audited_epsilon = 1.0;
  r.loss.confidence = 0.95;
  r.loss.delta = 1e-5;
  r.loss.epsilon_lower = 2.5;
  r.loss.forward.direction = "D' vs D";
  r.loss.forward.epsilon = 2.5;
  r.loss.backward.direction = "D vs D'";
  r.loss.gdp_mu_lower = std::numeric_limits<double>::infinity();
  r.loss.max_detectable_epsilon = 3.1;
  r.verdict = AuditVerdict::violation;
  r.interpretation = "leaks";
  return r;
}

}  // namespace

TEST_CASE("the text report leads with the verdict and says what the numbers are", "[audit]") {
  const std::string text = to_text(violation());
  CHECK(text.rfind("VIOLATION  mutant.example", 0) == 0);
  for (const char* part : {"(1, 1e-05)-DP", "scope        worst_case", "huge_norm: record 0",
                           "subspace_energy", "eps_lb       2.5 (Clopper-Pearson), 250% of the audited eps 1",
                           "clopper-p.   2.5 at confidence 0.95", "D' vs D", "D vs D'", "100 on each of D and D'",
                           "1234.5 runs/s", "at most eps 3.1", "not used for the verdict"})
    CHECK_THAT(text, Catch::Contains(part));
}

TEST_CASE("the JSON report holds the verdict, the claim and the bounds, infinity becomes null", "[audit]") {
  const auto j = to_json(violation());
  CHECK(j["verdict"] == "VIOLATION");
  CHECK(j["claim"]["epsilon"] == 1.0);
  CHECK(j["claim"]["scope"] == "worst_case");
  CHECK(j["epsilon_lower"] == 2.5);
  CHECK(j["tightness"] == 2.5);
  CHECK(j["bound"] == "Clopper-Pearson");
  CHECK(j["trials"] == 100);
  CHECK(j["confidence"] == 0.95);
  CHECK(j["max_detectable_epsilon"] == 3.1);
  CHECK(j["gdp_mu_lower"].is_null());
  CHECK(j["directions"].size() == 2);
  CHECK(j["neighbours"]["construction"] == "huge_norm");
  CHECK(j["runs_per_second"] == 1234.5);
}

namespace {

AuditResult with(const std::string& algorithm, AuditVerdict verdict) {
  AuditResult r = violation();
  r.spec.algorithm = algorithm;
  r.verdict = verdict;
  return r;
}

}  // namespace

TEST_CASE("a verdict is judged against the audit's expectation", "[audit]") {
  // mutant.wishart is a registered mutant: expected to be flagged.
  CHECK(audit_outcome(with("mutant.wishart", AuditVerdict::violation)) == AuditOutcome::as_expected);
  CHECK(audit_outcome(with("mutant.wishart", AuditVerdict::pass)) == AuditOutcome::unexpected);
  CHECK(audit_outcome(with("baseline.dp_gauss_1", AuditVerdict::pass)) == AuditOutcome::as_expected);
  CHECK(audit_outcome(with("baseline.dp_gauss_1", AuditVerdict::violation)) == AuditOutcome::unexpected);
  CHECK(audit_outcome(with("baseline.nonprivate_pca", AuditVerdict::not_private)) == AuditOutcome::not_audited);
  AuditResult told = with("baseline.dp_gauss_1", AuditVerdict::violation);
  told.spec.expect = AuditExpectation::violation;
  CHECK(audit_outcome(told) == AuditOutcome::as_expected);

  CHECK(expectation_note(with("mutant.wishart", AuditVerdict::violation)) == "(expected: mutant)");
  CHECK(expectation_note(told) == "(expected)");
  CHECK(expectation_note(with("mutant.wishart", AuditVerdict::pass)) == "(UNEXPECTED: expected VIOLATION)");
  CHECK(expectation_note(with("baseline.dp_gauss_1", AuditVerdict::violation)) == "(UNEXPECTED: expected PASS)");

  // expect: ledger is met by the ledger spending more than the claim, whatever the audit's verdict.
  AuditResult subtle = with("mutant.wishart", AuditVerdict::pass);
  subtle.spec.expect = AuditExpectation::ledger;
  subtle.spent = {1.4, 1e-5, "GDP"};
  CHECK(audit_outcome(subtle) == AuditOutcome::as_expected);
  CHECK(expectation_note(subtle) == "(expected: its ledger spends more than the claim)");
  subtle.verdict = AuditVerdict::violation;
  CHECK(audit_outcome(subtle) == AuditOutcome::as_expected);
  subtle.spent = {0.9, 1e-5, "GDP"};
  CHECK(audit_outcome(subtle) == AuditOutcome::unexpected);
  CHECK(expectation_note(subtle) == "(UNEXPECTED: its ledger stays within the claim)");
}

TEST_CASE("text, one-line and JSON reports say what was expected", "[audit]") {
  const AuditResult flagged = with("mutant.wishart", AuditVerdict::violation);
  CHECK(to_text(flagged).rfind("VIOLATION  mutant.wishart  (expected: mutant)\n", 0) == 0);
  CHECK_THAT(audit_line(flagged), Catch::StartsWith("VIOLATION") && Catch::Contains("(expected: mutant)") &&
                                      Catch::Contains("mutant.wishart") && Catch::Contains("eps_lb 2.5"));
  const auto j = to_json(with("baseline.dp_gauss_1", AuditVerdict::violation));
  CHECK(j["expected"] == "PASS");
  CHECK(j["expected_as_mutant"] == false);
  CHECK(j["outcome"] == "UNEXPECTED");
  CHECK(to_json(flagged)["outcome"] == "as expected");
}

TEST_CASE("stored_audit reads back what to_json wrote, with infinity from null", "[audit]") {
  // dpbounds compare read audits.json by string keys the writer spelled in another file; the reader now sits
  // beside the writer, and this round trip holds them together.
  AuditResult r = violation();
  r.spec.model = "spiked_gaussian";
  r.spec.n = 200;
  r.spec.d = 5;
  r.spec.k = 2;
  r.audited_delta = 1e-5;
  r.loss.forward.clopper_pearson = {true, 0.5, 40, 100, 3, 100, 0.3, 0.06};
  const StoredAudit a = stored_audit(to_json(r));
  CHECK(a.algorithm == "mutant.example");
  CHECK(a.verdict == "VIOLATION");
  CHECK(a.claim_scope == "worst_case");
  CHECK(a.construction == "huge_norm");
  CHECK(a.score == "subspace_energy");
  CHECK(a.model == "spiked_gaussian");
  CHECK((a.n == 200 && a.d == 5 && a.k == 2));
  CHECK(a.audited_epsilon == 1.0);
  CHECK(a.audited_delta == 1e-5);
  CHECK(a.confidence == 0.95);
  CHECK(a.epsilon_lower == 2.5);
  REQUIRE(a.directions.size() == 2);
  CHECK(a.directions[0].clopper_pearson.positives_in == 40);
  CHECK(a.directions[0].clopper_pearson.negatives_in == 3);
  r.loss.epsilon_lower = std::numeric_limits<double>::infinity();
  r.loss.forward.epsilon = std::numeric_limits<double>::infinity();
  CHECK(stored_audit(to_json(r)).epsilon_lower == std::numeric_limits<double>::infinity());
  auto broken = to_json(r);
  broken.erase("directions");
  CHECK_THROWS_AS(stored_audit(broken), nlohmann::json::exception);
}
