#pragma once
// One trial: (cell, algorithm, trial index) -> TrialRow (DESIGN.md §3 "Randomness"). The data depend
// on (cell, trial) only, so every algorithm of a trial sees the same samples; the algorithm's own
// randomness depends on (cell, algorithm, trial):
//   data   core::stream_id(experiment, cell, "data", trial, "data")
//   noise  core::stream_id(experiment, cell, algorithm label, trial, "noise")
#include "algorithms/registry.hpp"
#include "verify/experiment/spec.hpp"
#include "verify/store/results.hpp"
#include "verify/runner/cells.hpp"

namespace dpb::verify {

// The algorithm's estimate on the trial's data (the one run_trial measures), its run time in `seconds`
// and the mean of the trial's vectors in `sample_mean` when given (left empty when the algorithm read
// sample matrices). Throws what the algorithm throws.
alg::Estimate trial_estimate(const ExperimentSpec& spec, std::size_t cell_index, const CellContext& cell,
                             const AlgorithmSpec& algorithm, const alg::Estimator& estimator, std::size_t trial,
                             double* seconds = nullptr, Eigen::VectorXd* sample_mean = nullptr);

// Never throws on a failing algorithm or metric: the row then carries the error and no metrics.
// The counters a row keeps: every one except the per-step ones ("<name>_<digits>", e.g. Lhat_12).
std::map<std::string, double> summary_counters(const alg::Diagnostics& diagnostics);

TrialRow run_trial(const ExperimentSpec& spec, std::size_t cell_index, const CellContext& cell,
                   const AlgorithmSpec& algorithm, const alg::Estimator& estimator, std::size_t trial);

}  // namespace dpb::verify
