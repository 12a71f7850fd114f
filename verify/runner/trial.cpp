#include "verify/runner/trial.hpp"


#include <algorithm>
#include <chrono>

#include "core/errors.hpp"
#include "verify/runner/metrics.hpp"
#include "verify/runner/trial_input.hpp"

namespace dpb::verify {

alg::Estimate trial_estimate(const ExperimentSpec& spec, std::size_t cell_index, const CellContext& cell,
                             const AlgorithmSpec& algorithm, const alg::Estimator& estimator, std::size_t trial,
                             double* seconds, Eigen::VectorXd* sample_mean) {
  const auto& entry = alg::algorithm_registry().find(algorithm.id);
  const core::ModelInfo& truth = cell.model->info();
  core::Rng data_rng(spec.seed, core::stream_id(spec.name, cell_index, "data", trial, "data"));
  const TrialData data = draw_trial_data(*cell.model, entry, cell.n, data_rng, spec.stream_batch);
  if (sample_mean && data.X) *sample_mean = data.X->rowwise().mean();
  // The cell's k is the sparse model's sparsity (or the target's rank when the model has none).
  const int k = static_cast<int>(entry.k_is_sparsity ? cell.params.at("k") : double(truth.r()));
  const alg::Input input = make_input(entry, data, k, cell.privacy, &truth);
  core::Rng noise_rng(spec.seed, core::stream_id(spec.name, cell_index, algorithm.label, trial, "noise"));
  const auto start = std::chrono::steady_clock::now();
  alg::Estimate estimate = estimator.run(input, noise_rng);
  if (seconds) *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return estimate;
}

namespace {

// "Lhat_12": a counter of one step, ending in '_' and digits.
bool per_step(const std::string& name) {
  const auto underscore = name.find_last_of('_');
  return underscore != std::string::npos && underscore + 1 < name.size() &&
         name.find_first_not_of("0123456789", underscore + 1) == std::string::npos;
}

}  // namespace

std::map<std::string, double> summary_counters(const alg::Diagnostics& diagnostics) {
  std::map<std::string, double> kept;
  for (const auto& [name, value] : diagnostics.counters)
    if (!per_step(name)) kept.emplace(name, value);
  return kept;
}

TrialRow run_trial(const ExperimentSpec& spec, std::size_t cell_index, const CellContext& cell,
                   const AlgorithmSpec& algorithm, const alg::Estimator& estimator, std::size_t trial) {
  TrialRow row;
  row.cell = cell_index;
  row.cell_params = cell.params;
  row.algorithm = algorithm.label;
  row.trial = trial;
  try {
    // The sample mean only when a metric reads it (an O(n d) pass over the data otherwise wasted).
    const bool needs_mean =
        std::find(spec.metrics.begin(), spec.metrics.end(), "sample_mean_error") != spec.metrics.end();
    Eigen::VectorXd sample_mean;
    const alg::Estimate estimate = trial_estimate(spec, cell_index, cell, algorithm, estimator, trial, &row.seconds,
                                                  needs_mean ? &sample_mean : nullptr);
    row.diagnostics = summary_counters(estimate.diagnostics);
    row.metrics = compute_metrics(spec.metrics, estimate, cell.model->info(),
                                  sample_mean.size() > 0 ? &sample_mean : nullptr);
  } catch (const InvalidArgument& e) {
    row.metrics.clear();
    row.error = e.what();
  } catch (const std::exception& e) {
    // Not a documented failure mode of the algorithm: kept, marked, so one bad trial never ends a run.
    row.metrics.clear();
    row.error = std::string("internal error: ") + e.what();
  }
  return row;
}

}  // namespace dpb::verify
