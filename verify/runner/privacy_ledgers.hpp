#pragma once
// The privacy each algorithm of an experiment actually spent (docs/privacy.md): the ledger of trial 0 at
// every grid cell, composed by the accountant and set against the algorithm's claim. `dpbounds run` prints
// one line per algorithm and writes the ledgers to <dir>/privacy.md.
#include <string>
#include <vector>

#include "algorithms/mechanisms/accountant.hpp"
#include "verify/experiment/spec.hpp"

namespace dpb::verify {

struct CellLedger {
  std::string algorithm;  // the label (id with the experiment's parameters)
  std::string cell;       // "n=1000, epsilon=0.5"
  alg::PrivacyClaim claim;
  alg::Spend spend;                // the accountant's total at the claim's delta
  std::vector<std::string> lines;  // alg::describe_ledger
  std::string error;               // trial 0 failed (then nothing else is set)
};

// Reruns trial 0 of every (cell, algorithm), exactly as the runner ran it (same data and noise streams).
std::vector<CellLedger> trial_ledgers(const ExperimentSpec& spec);

// One line per algorithm: the largest spend over the cells, against the claim there.
std::vector<std::string> ledger_summary_lines(const std::vector<CellLedger>& ledgers);
// privacy.md: per algorithm and cell, the claim, every ledger entry and the total.
std::string ledgers_markdown(const std::string& experiment, const std::vector<CellLedger>& ledgers);

}  // namespace dpb::verify
