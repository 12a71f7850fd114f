#pragma once
// Hyper-parameter selection (`report: { select: { metric: M } }`): the candidates of a tuning
// experiment, e.g. dugler2026 App. F.2's eight ADADPO configurations, ranked by their error over the
// grid, so the report names the one a paper's protocol keeps instead of leaving it to the reader.
#include <string>
#include <vector>

#include "verify/store/results.hpp"

namespace dpb::verify {

struct SelectionSpec {
  std::string metric;  // lower is better
};

struct RankedCandidate {
  std::string algorithm;  // the label, as in TrialRow::algorithm
  double score = 0;       // the mean over cells of the cell's mean metric (every cell weighs the same)
  std::size_t cells = 0;       // cells with at least one finite value
  std::size_t grid_cells = 0;  // cells with a finite value of any candidate
};

// Every algorithm with a finite value of the metric, best (smallest score) first; ties keep the
// order the rows list the algorithms in. A candidate with no value in a cell another candidate ran
// (all its trials failed there, e.g. a batch rule infeasible at that n) has no mean over every setting
// (F.2's "averaging ... over all settings"), so it ranks after every candidate that covers the grid: it
// cannot win by skipping the hard cells. Among themselves such candidates are ranked on the cells they
// have, and their `cells` says how many.
std::vector<RankedCandidate> rank_candidates(const ResultSet& results, const SelectionSpec& spec);

// selection.md: the ranking as a table, and one line naming the selected candidate.
std::string selection_markdown(const std::vector<RankedCandidate>& ranking, const SelectionSpec& spec);

}  // namespace dpb::verify
