#pragma once
// What a check is asked to do and what it answers (DESIGN.md §5 "Checks"). The experiment YAML fills
// CheckSpec; run_checks turns each into a Verdict. docs/checks.md explains how to read one.
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

namespace dpb::verify {

struct CheckSpec {
  std::string kind = "rate";  // rate | slope | falsification | consistency | dominates | exponent
  std::string theorem;        // theorem id (bounds::upper_bound_theorems / lower::lower_bound_theorems); empty for dominates, exponent
  std::string algorithm;      // as in TrialRow::algorithm (empty for consistency)
  std::string metric;         // TrialRow::metrics key (empty for consistency)
  std::string vary;           // the swept cell parameter (rate, slope)
  std::string against;        // consistency: the other theorem id; dominates: the other algorithm label
  double tolerance = 0.1;     // slope tolerance of rate/slope checks; dominates: A <= (1 + tolerance) B
  bool optimal = false;       // rate: also FAIL when the slope is significantly below -tolerance
  // Theorem constants the experiment fixes and no cell carries (an algorithm's learning-rate multiplier,
  // a model's Assumption A constant M): added to every cell's parameters before the theorem is read.
  std::map<std::string, double> params;
  double exponent = 0;        // exponent: the claimed log-log slope s of the mean error against vary
  std::string side = "both";  // exponent: both (slope = s), at_least (slope >= s), at_most (slope <= s)
  // dominates: only the cells whose parameter lies in [min, max] for every entry (a claim about part of
  // the grid, e.g. cai2024 Fig 2 "DP-Gauss* is best at small lambda"); empty: every cell.
  std::map<std::string, std::pair<double, double>> where;
  // Why this check compares a metric or an algorithm its theorem does not speak about
  // (verify/checks/check_applicability.hpp); "" for a check that matches. Printed with its verdict.
  std::string override_reason;
  // `note:` the documented reason this claim may not reproduce here (docs/papers/<key>.md), printed
  // beside its verdict and in the figure captions when the verdict is FAIL or INCONCLUSIVE.
  std::string note;
};

enum class VerdictStatus { pass, fail, inconclusive };
// "PASS", "FAIL", "INCONCLUSIVE".
std::string to_string(VerdictStatus status);

struct Verdict {
  CheckSpec check;
  VerdictStatus status = VerdictStatus::inconclusive;
  std::string statistic;   // "mean" or "quantile 0.99" — which statistic the verdict used, and why
  std::string summary;     // one line a person reads: the figures behind the verdict
  nlohmann::json figures;  // every number behind it (slope, CI, implied constant, per-cell values, ...)
};

// What the check compared, in one line (the terminal, summary.md, the suite's summary):
// "rate liu2022.thm5.1 liu2022.dp_pca sin vs n", "consistency U vs L", "dominates a <= b on sin".
std::string describe_check(const CheckSpec& check);
// " where lambda in [2, 5]" for a check with `where` ranges, "" for one over every cell.
std::string where_text(const CheckSpec& check);

// The CheckSpec as JSON (for verdicts.json) — every field, by name.
nlohmann::json to_json(const CheckSpec& check);
// The whole verdict as JSON: check, status, statistic, summary, figures.
nlohmann::json to_json(const Verdict& verdict);

}  // namespace dpb::verify
