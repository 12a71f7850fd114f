#include "verify/runner/privacy_ledgers.hpp"

#include <fmt/format.h>
#include <memory>

#include "algorithms/registry.hpp"
#include "verify/runner/cells.hpp"
#include "verify/runner/trial.hpp"

namespace dpb::verify {
namespace {

std::string budget(double eps, double delta) { return fmt::format("({:.4g}, {:.3g})", eps, delta); }

std::string verdict(const CellLedger& l) {
  if (!l.error.empty()) return fmt::format("trial 0 failed: {}", l.error);
  if (l.claim.scope == alg::ClaimScope::not_private)
    return fmt::format("spent {} by the ledger; claims no privacy", budget(l.spend.epsilon, l.spend.delta));
  if (l.lines.size() <= 1 && l.spend.epsilon == 0)
    return fmt::format("no mechanism recorded: the claim {} is declared, not computed",
                       budget(l.claim.epsilon, l.claim.delta));
  return fmt::format("spent {} <= claimed {}", budget(l.spend.epsilon, l.spend.delta),
                     budget(l.claim.epsilon, l.claim.delta));
}

}  // namespace

std::vector<CellLedger> trial_ledgers(const ExperimentSpec& spec) {
  const std::vector<CellContext> cells = make_cells(spec);
  std::vector<std::unique_ptr<alg::Estimator>> estimators;
  for (const AlgorithmSpec& algorithm : spec.algorithms)
    estimators.push_back(alg::algorithm_registry().make(algorithm.id, algorithm.given));
  // Trial 0 of each (algorithm, cell) again, over the threads: each fills its own slot, in algorithm-major
  // order.
  std::vector<CellLedger> out(spec.algorithms.size() * cells.size());
  const auto count = static_cast<std::ptrdiff_t>(out.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (std::ptrdiff_t i = 0; i < count; ++i) {
    const std::size_t a = std::size_t(i) / cells.size(), c = std::size_t(i) % cells.size();
    CellLedger& l = out[std::size_t(i)];
    l.algorithm = spec.algorithms[a].label;
    l.cell = cells[c].label;
    try {  // an exception must not leave an OpenMP region: a failing trial is what the ledger reports
      const alg::Estimate e = trial_estimate(spec, c, cells[c], spec.algorithms[a], *estimators[a], 0);
      l.claim = e.claim;
      l.spend = alg::account(e.ledger, e.claim.delta, e.claim.neighbours);
      l.lines = alg::describe_ledger(e.ledger, e.claim);
    } catch (const std::exception& e) {
      l.error = e.what();
    } catch (...) {
      l.error = "an unknown exception";
    }
  }
  return out;
}

std::vector<std::string> ledger_summary_lines(const std::vector<CellLedger>& ledgers) {
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < ledgers.size();) {
    std::size_t end = i, worst = i;
    for (; end < ledgers.size() && ledgers[end].algorithm == ledgers[i].algorithm; ++end)
      if (!ledgers[end].error.empty() ||
          (ledgers[worst].error.empty() && ledgers[end].spend.epsilon > ledgers[worst].spend.epsilon))
        worst = end;
    const std::size_t cells = end - i;
    lines.push_back(
        fmt::format("privacy {}: {}{}", ledgers[i].algorithm, verdict(ledgers[worst]),
                    cells > 1 ? fmt::format(" (largest of {} cells: {})", cells, ledgers[worst].cell) : ""));
    i = end;
  }
  return lines;
}

std::string ledgers_markdown(const std::string& experiment, const std::vector<CellLedger>& ledgers) {
  std::string md = fmt::format(
      "# Privacy ledgers: {}\n\nWhat each algorithm's mechanisms spent on trial 0 of every cell, composed by "
      "the "
      "accountant (docs/privacy.md), against the algorithm's claim.\n",
      experiment);
  std::string current;
  for (const CellLedger& l : ledgers) {
    if (l.algorithm != current) {
      current = l.algorithm;
      md += fmt::format("\n## {}\n", current);
    }
    md += fmt::format("\n### {}\n\n", l.cell);
    if (!l.error.empty()) {
      md += fmt::format("trial 0 failed: {}\n", l.error);
      continue;
    }
    md += fmt::format("claim: {}\n\n", alg::describe(l.claim));
    for (const auto& line : l.lines) md += fmt::format("- {}\n", line);
    md += fmt::format("\n{}\n", verdict(l));
  }
  return md;
}

}  // namespace dpb::verify
