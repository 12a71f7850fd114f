#include "verify/audit/audit_report.hpp"

#include <catch2/catch.hpp>
#include <limits>

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
  r.runs = 200;
  r.runs_per_second = 1234.5;
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
                           "subspace_energy", "eps_lb       2.5 at confidence 0.95", "D' vs D", "D vs D'",
                           "1234.5 runs/s", "at most eps 3.1", "not used for the verdict"})
    CHECK_THAT(text, Catch::Contains(part));
}

TEST_CASE("the JSON report holds the verdict, the claim and the bounds; infinity becomes null", "[audit]") {
  const auto j = to_json(violation());
  CHECK(j["verdict"] == "VIOLATION");
  CHECK(j["claim"]["epsilon"] == 1.0);
  CHECK(j["claim"]["scope"] == "worst_case");
  CHECK(j["epsilon_lower"] == 2.5);
  CHECK(j["confidence"] == 0.95);
  CHECK(j["max_detectable_epsilon"] == 3.1);
  CHECK(j["gdp_mu_lower"].is_null());
  CHECK(j["directions"].size() == 2);
  CHECK(j["neighbours"]["construction"] == "huge_norm");
  CHECK(j["runs_per_second"] == 1234.5);
}
