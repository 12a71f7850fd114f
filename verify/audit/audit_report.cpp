#include "verify/audit/audit_report.hpp"

#include <nlohmann/json.hpp>
#include <fmt/format.h>
#include <cmath>

#include "verify/experiment/canonical.hpp"

namespace dpb::verify {
namespace {

std::string tail(const HeldOutTest& t) {
  return fmt::format("score {} {:.6g}", t.upper_tail ? ">=" : "<=", t.threshold);
}

std::string direction_line(const DirectionBound& b, double delta) {
  const HeldOutTest& t = b.clopper_pearson;
  return fmt::format(
      "  {:<8} eps >= {:<8.4g} event {}: {}/{} vs {}/{} held-out runs, TPR >= {:.4g}, FPR <= {:.4g}, "
      "delta {:g}\n",
      b.direction, b.epsilon, tail(t), t.positives_in, t.positives, t.negatives_in, t.negatives, t.tpr_lower,
      t.fpr_upper, delta);
}

std::string gdp_line(const DirectionBound& b) {
  return fmt::format("  {:<8} mu >= {:<8.4g} (point estimate {:.4g}), event {}\n", b.direction, b.mu_lower,
                     b.mu_point, tail(b.gaussian_dp));
}

nlohmann::json test_json(const HeldOutTest& t) {
  return {{"event", t.upper_tail ? "score >= threshold" : "score <= threshold"},
          {"threshold", t.threshold},
          {"positives_in", t.positives_in},
          {"positives", t.positives},
          {"negatives_in", t.negatives_in},
          {"negatives", t.negatives},
          {"tpr_lower", t.tpr_lower},
          {"fpr_upper", t.fpr_upper}};
}

// JSON has no infinity: an unbounded value (perfect separation with delta = 0) is written as null.
nlohmann::json number(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

nlohmann::json direction_json(const DirectionBound& b) {
  return {{"direction", b.direction},
          {"epsilon_lower", number(b.epsilon)},
          {"clopper_pearson_test", test_json(b.clopper_pearson)},
          {"gdp_mu_lower", number(b.mu_lower)},
          {"gdp_mu_point", number(b.mu_point)},
          {"gdp_epsilon_lower", number(b.gdp_epsilon)},
          {"gdp_test", test_json(b.gaussian_dp)}};
}

const char* outcome_name(AuditOutcome outcome) {
  switch (outcome) {
    case AuditOutcome::as_expected: return "as expected";
    case AuditOutcome::unexpected: return "UNEXPECTED";
    case AuditOutcome::not_audited: return "not audited";
  }
  return "unknown";
}

// The noise probe's lines: one per checked step, the problem first where there is one.
std::string noise_lines(const AuditResult& r) {
  std::string text;
  const auto lead = [&] { return text.empty() ? "noise        " : "             "; };
  for (const NoiseCheck& c : r.noise_checks) {
    if (!c.problem.empty())
      text += fmt::format("{}'{}' ({}): NOT WHAT ITS LEDGER DECLARES: {}\n", lead(), c.step, c.mechanism, c.problem);
    else if (c.tested)
      text += fmt::format("{}'{}' ({}): fits its declared law ({} draws, {:+.1f} standard errors)\n", lead(), c.step,
                          c.mechanism, c.draws, c.z_score);
    else
      text += fmt::format("{}'{}' ({}): {} draws, too few to test\n", lead(), c.step, c.mechanism, c.draws);
  }
  for (const std::string& line : r.noise_unchecked) text += fmt::format("{}{}\n", lead(), line);
  if (text.empty()) return text;
  text.pop_back();
  return text + fmt::format(" ({} probe runs)\n", r.noise_runs);
}

// The entry audit's lines (entry_audit.hpp): one per audited entry, then what it could not audit.
std::string entry_lines(const AuditResult& r) {
  if (!r.entry_audit) return "";
  std::string text;
  const auto lead = [&] { return text.empty() ? "entries      " : "             "; };
  for (const EntryAudit& e : r.entry_audit->entries) {
    const std::string mu =
        std::isnan(e.claimed_mu) ? "" : fmt::format(", mu >= {:.3g} of its {:.4g}", e.mu_lower, e.claimed_mu);
    text += fmt::format("{}'{}' ({}): {} its cost: eps_lb {:.3g} ({}) of ({:.4g}, {:.3g}){}, over {} runs, the record "
                        "moving it by {:.3g} of its sensitivity\n",
                        lead(), e.step, e.mechanism, e.exceeds() ? "EXCEEDS" : "within", e.epsilon_lower, e.bound,
                        e.claimed_epsilon, e.claimed_delta, mu, e.runs, e.shift);
  }
  for (const std::string& line : r.entry_audit->unaudited) text += fmt::format("{}{}\n", lead(), line);
  return text;
}

nlohmann::json entries_json(const EntryAuditReport& report) {
  nlohmann::json entries = nlohmann::json::array();
  for (const EntryAudit& e : report.entries)
    entries.push_back({{"step", e.step},
                       {"mechanism", e.mechanism},
                       {"runs", e.runs},
                       {"shift", number(e.shift)},
                       {"claimed_epsilon", number(e.claimed_epsilon)},
                       {"claimed_delta", e.claimed_delta},
                       {"epsilon_lower", number(e.epsilon_lower)},
                       {"bound", e.bound},
                       {"claimed_mu", number(e.claimed_mu)},
                       {"mu_lower", number(e.mu_lower)},
                       {"confidence", e.confidence},
                       {"exceeds", e.exceeds()}});
  return {{"fits", report.fits()}, {"runs", report.runs}, {"entries", entries}, {"unaudited", report.unaudited}};
}

// The search's pilots (neighbour_search.hpp): what it tried, and the best few.
constexpr std::size_t kSearchLinesShown = 5;
std::string search_lines(const AuditResult& r) {
  if (r.search.empty()) return "";
  std::string text = fmt::format(
      "search       {} pilots ({} candidate pairs x the scores that read the output) of {} runs per side, the best {} "
      "and the worst case's again on {} fresh runs, all on streams of their own; the best:\n",
      r.search.size(), r.search_candidates, r.spec.search_trials, kSearchFinalists,
      kSearchConfirmRatio * r.spec.search_trials);
  for (std::size_t i = 0; i < std::min(kSearchLinesShown, r.search.size()); ++i)
    text += fmt::format("             pilot eps {:.3g}{}{}  {}  {}\n", r.search[i].pilot_epsilon,
                        r.search[i].pilot_mu >= 0 ? fmt::format(", mu {:.3g}", r.search[i].pilot_mu) : "",
                        r.search[i].confirmed ? " (again)" : "", r.search[i].score, r.search[i].neighbours);
  return text;
}

nlohmann::json search_json(const AuditResult& r) {
  nlohmann::json pilots = nlohmann::json::array();
  for (const SearchTrial& t : r.search)
    pilots.push_back({{"neighbours", t.neighbours},
                      {"score", t.score},
                      {"pilot_epsilon", number(t.pilot_epsilon)},
                      {"pilot_mu", t.pilot_mu >= 0 ? nlohmann::json(t.pilot_mu) : nlohmann::json()},
                      {"confirmed", t.confirmed}});
  return {{"candidates", r.search_candidates}, {"trials", r.spec.search_trials}, {"runs", r.search_runs},
          {"pilots", pilots}};
}

nlohmann::json noise_json(const AuditResult& r) {
  nlohmann::json checks = nlohmann::json::array();
  for (const NoiseCheck& c : r.noise_checks)
    checks.push_back({{"step", c.step},
                      {"mechanism", c.mechanism},
                      {"draws", c.draws},
                      {"measured", c.measured},
                      {"expected", c.expected},
                      {"z_score", c.z_score},
                      {"problem", c.problem}});
  return {{"fits", r.noise_fits()}, {"runs", r.noise_runs}, {"checks", checks}, {"unchecked", r.noise_unchecked}};
}

}  // namespace

AuditOutcome audit_outcome(const AuditResult& r) {
  if (r.verdict == AuditVerdict::not_private) return AuditOutcome::not_audited;
  if (!r.noise_fits()) return AuditOutcome::unexpected;  // the code draws other noise than its ledger declares
  if (expected_verdict(r.spec) == AuditExpectation::ledger)
    return alg::within_claim(r.spent, r.claim) ? AuditOutcome::unexpected : AuditOutcome::as_expected;
  // An entry whose releases show more than its cost flags the algorithm as a violation does.
  const bool flagged = r.verdict == AuditVerdict::violation || !r.entries_fit();
  const bool expect_flag = expected_verdict(r.spec) == AuditExpectation::violation;
  return flagged == expect_flag ? AuditOutcome::as_expected : AuditOutcome::unexpected;
}

std::string expectation_note(const AuditResult& r) {
  switch (audit_outcome(r)) {
    case AuditOutcome::not_audited: return "(not audited: no claim)";
    case AuditOutcome::unexpected:
      if (!r.noise_fits()) return "(UNEXPECTED: its noise is not what its ledger declares)";
      if (expected_verdict(r.spec) == AuditExpectation::ledger) return "(UNEXPECTED: its ledger stays within the claim)";
      if (!r.entries_fit()) return "(UNEXPECTED: an entry's releases show more than its cost)";
      return fmt::format("(UNEXPECTED: expected {})", to_string(expected_verdict(r.spec)));
    case AuditOutcome::as_expected: break;
  }
  if (expected_verdict(r.spec) == AuditExpectation::ledger) return "(expected: its ledger spends more than the claim)";
  return expected_as_mutant(r.spec) ? "(expected: mutant)" : "(expected)";
}

std::string audit_line(const AuditResult& r) {
  const std::string noise = r.noise_checks.empty() ? ""
                            : r.noise_fits()       ? "; noise as declared"
                                                   : "; NOISE NOT AS DECLARED";
  const std::string entries = !r.entry_audit   ? ""
                              : r.entries_fit() ? "; entries within their costs"
                                                : "; AN ENTRY EXCEEDS ITS COST";
  return fmt::format(
      "{:<9} {:<32} {}  eps_lb {:.3g} vs audited eps {:g} ({:.0f}%), {} neighbours, {}, {} runs per side{}{}",
      to_string(r.verdict), expectation_note(r), r.spec.algorithm, r.epsilon_lower(), r.audited_epsilon,
      100 * r.tightness(), to_string(r.construction), r.score, r.runs_per_side, noise, entries);
}

std::string to_text(const AuditResult& r) {
  const AuditSpec& s = r.spec;
  const PrivacyLossEstimate& l = r.loss;
  std::string text = fmt::format("{}  {}  {}\n", to_string(r.verdict), s.algorithm, expectation_note(r));
  text += fmt::format("  {}\n\n", r.interpretation);
  text += fmt::format("claim        {}\n", alg::describe(r.claim));
  text += fmt::format("scope        {}\n", alg::to_string(r.claim.scope));
  for (std::size_t i = 0; i < r.ledger.size(); ++i)
    text += fmt::format("{}{}\n", i == 0 ? "ledger       " : "             ", r.ledger[i]);
  if (r.claim.scope != alg::ClaimScope::not_private && !alg::within_claim(r.spent, r.claim))
    text += fmt::format("             the ledger spends MORE than the claim: eps {:.4g} > {:.4g}\n", r.spent.epsilon,
                        r.claim.epsilon);
  text += noise_lines(r);
  text += entry_lines(r);
  if (r.claim.neighbours == alg::Neighbours::add_remove)
    text += fmt::format(
        "audited      ({:g}, {:g}) for replace-one neighbours (group privacy over add + remove)\n",
        r.audited_epsilon, r.audited_delta);
  text += fmt::format("data         {} (seed {}), n = {}, d = {}, k = {}\n", s.model, s.seed, s.n, s.d, s.k.value_or(1));
  text += fmt::format("neighbours   {}: {}\n", to_string(r.construction), r.neighbours);
  text += search_lines(r);
  text += fmt::format("score        {}\n", r.score);
  text += fmt::format("runs         {} on each of D and D' ({} in all), {:.1f} runs/s\n", r.runs_per_side, r.runs,
                      r.runs_per_second);
  if (s.seconds > 0)
    text += fmt::format(
        "             adaptive: the verdict holds at confidence {:.6g}, its look's share of {:g} (docs/auditing.md); "
        "--trials {} --confidence {:.6g} reproduces it\n",
        r.confidence, s.confidence, r.runs_per_side, r.confidence);
  text += "\n";
  text += fmt::format("eps_lb       {:.4g} ({}), {:.0f}% of the audited eps {:g}\n", r.epsilon_lower(), r.bound(),
                      100 * r.tightness(), r.audited_epsilon);
  text += fmt::format("clopper-p.   {:.4g} at confidence {:g} (held-out half, both directions{})\n", l.epsilon_lower,
                      l.confidence, r.gaussian_ledger ? "; the Gaussian-DP fit at the same: the verdict, the larger, "
                                                        "at their Bonferroni sum"
                                                      : "");
  text += direction_line(l.forward, l.delta) + direction_line(l.backward, l.delta);
  text += fmt::format(
      "gdp fit      mu >= {:.4g}, i.e. eps(delta = {:g}) >= {:.4g} if the trade-off is Gaussian ({})\n",
      l.gdp_mu_lower, l.delta, l.gdp_epsilon_lower,
      r.gaussian_ledger ? "every ledger entry is Gaussian: joins the verdict"
                        : "not every ledger entry is Gaussian: an estimate, not used for the verdict");
  text += gdp_line(l.forward) + gdp_line(l.backward);
  text +=
      fmt::format("detectable   at most eps {:.4g} (mu {:.4g}): the bound perfect separation would give\n",
                  l.max_detectable_epsilon, l.max_detectable_mu);
  return text;
}

nlohmann::json to_json(const AuditResult& r) {
  const AuditSpec& s = r.spec;
  const PrivacyLossEstimate& l = r.loss;
  return {
      {"algorithm", s.algorithm},
      {"verdict", to_string(r.verdict)},
      {"expected", to_string(expected_verdict(s))},
      {"expected_as_mutant", expected_as_mutant(s)},
      {"outcome", outcome_name(audit_outcome(r))},
      {"interpretation", r.interpretation},
      {"claim",
       {{"epsilon", r.claim.epsilon},
        {"delta", r.claim.delta},
        {"neighbours", alg::to_string(r.claim.neighbours)},
        {"scope", alg::to_string(r.claim.scope)},
        {"conditions", r.claim.conditions},
        {"text", alg::describe(r.claim)}}},
      {"audited", {{"epsilon", r.audited_epsilon}, {"delta", r.audited_delta}}},
      {"ledger",
       {{"entries", r.ledger},
        {"spent", {{"epsilon", r.spent.epsilon}, {"delta", r.spent.delta}, {"rule", r.spent.rule}}}}},
      {"data", {{"model", s.model}, {"n", s.n}, {"d", s.d}, {"k", s.k.value_or(1)}, {"seed", s.seed}}},
      // What was asked beside the data: with the algorithm, data, neighbours and score it says which audit this is
      // (dpbounds compare matches audits by it).
      {"asked",
       {{"params", to_json(s.params)},
        {"model_params", to_json(s.model_params)},
        {"epsilon", s.privacy.epsilon},
        {"delta", s.privacy.delta}}},
      {"neighbours",
       {{"construction", to_string(r.construction)},
        {"requested", to_string(s.neighbours)},
        {"index", s.index},
        {"canary_norm", r.canary_norm},
        {"description", r.neighbours}}},
      {"score", r.score},
      {"trials", r.runs_per_side},
      {"runs", r.runs},
      {"runs_per_second", r.runs_per_second},
      {"confidence", l.confidence},  // of each bound (what dpbounds compare recomputes them at)
      {"verdict_confidence", r.confidence},
      {"epsilon_lower", number(r.epsilon_lower())},
      {"bound", r.bound()},
      {"tightness", number(r.tightness())},
      {"gaussian_ledger", r.gaussian_ledger},
      {"clopper_pearson_epsilon_lower", number(l.epsilon_lower)},
      {"gdp_mu_lower", number(l.gdp_mu_lower)},
      {"gdp_epsilon_lower", number(l.gdp_epsilon_lower)},
      {"max_detectable_epsilon", number(l.max_detectable_epsilon)},
      {"max_detectable_mu", number(l.max_detectable_mu)},
      {"directions", {direction_json(l.forward), direction_json(l.backward)}},
      {"noise", noise_json(r)},
      {"search", r.search.empty() ? nlohmann::json() : search_json(r)},
      {"entries", r.entry_audit ? entries_json(*r.entry_audit) : nlohmann::json()},
  };
}

namespace {
StoredAuditTest stored_test(const nlohmann::json& test) {
  return {test.at("positives_in").get<long>(), test.at("positives").get<long>(), test.at("negatives_in").get<long>(),
          test.at("negatives").get<long>()};
}
}  // namespace

StoredAudit stored_audit(const nlohmann::json& entry) {
  StoredAudit a;
  a.algorithm = entry.at("algorithm").get<std::string>();
  a.verdict = entry.at("verdict").get<std::string>();
  a.claim_scope = entry.at("claim").at("scope").get<std::string>();
  a.construction = entry.at("neighbours").at("construction").get<std::string>();
  a.score = entry.value("score", "");
  a.asked = entry.value("asked", nlohmann::json::object());
  const nlohmann::json data = entry.value("data", nlohmann::json::object());
  a.model = data.value("model", "");
  a.n = data.value("n", 0L);
  a.d = data.value("d", 0);
  a.k = data.value("k", 0);
  a.audited_epsilon = entry.at("audited").at("epsilon").get<double>();
  a.audited_delta = entry.at("audited").at("delta").get<double>();
  a.confidence = entry.at("confidence").get<double>();
  const auto& lower = entry.at("epsilon_lower");  // number() wrote +infinity as null
  a.epsilon_lower = lower.is_null() ? std::numeric_limits<double>::infinity() : lower.get<double>();
  for (const auto& direction : entry.at("directions"))
    a.directions.push_back(
        {stored_test(direction.at("clopper_pearson_test")), stored_test(direction.at("gdp_test"))});
  return a;
}

}  // namespace dpb::verify
