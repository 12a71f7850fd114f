#pragma once
// What a run produces and every later step (store, checks, tables, figures) reads: one row per
// finished (grid cell, algorithm, trial).
#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace dpb::verify {

struct TrialRow {
  std::size_t cell = 0;                       // index of the grid cell, in grid expansion order
  std::map<std::string, double> cell_params;  // every numeric parameter of the cell: swept axes, fixed
                                              // model parameters and derived ones (n, d, k, eps, delta,
                                              // lambda1, V, gamma2, ...); what a theorem's rate reads
  std::string algorithm;                      // registry id, with overrides as "id[k=v,...]"
  std::size_t trial = 0;
  std::map<std::string, double> metrics;      // metric name -> value (projector_fro, sin, ...)
  std::string error;                          // non-empty when the trial failed; metrics then empty
  double seconds = 0;                         // wall time of the algorithm run (never used by checks)
  // The estimate's diagnostic counters (BOTTOM releases, skipped steps, clipped records), without the
  // per-step ones ("<name>_<step>"): what a verdict reads to name why an algorithm is at chance.
  std::map<std::string, double> diagnostics;
};

struct ResultSet {
  std::string experiment;  // the experiment's name
  std::string hash;        // hash of the experiment's content (rows of different hashes never mix)
  std::vector<TrialRow> rows;
};

}  // namespace dpb::verify
