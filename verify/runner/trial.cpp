#include "verify/runner/trial.hpp"

#include <chrono>

#include "core/errors.hpp"
#include "verify/runner/metrics.hpp"
#include "verify/trial_input.hpp"

namespace dpb::verify {

TrialRow run_trial(const ExperimentSpec& spec, std::size_t cell_index, const CellContext& cell,
                   const AlgorithmSpec& algorithm, const alg::Estimator& estimator, std::size_t trial) {
  TrialRow row;
  row.cell = cell_index;
  row.cell_params = cell.params;
  row.algorithm = algorithm.label;
  row.trial = trial;
  try {
    const auto& entry = alg::algorithm_registry().find(algorithm.id);
    const core::ModelInfo& truth = cell.model->info();
    core::Rng data_rng(spec.seed, core::stream_id(spec.name, cell_index, "data", trial, "data"));
    const TrialData data = draw_trial_data(*cell.model, entry, cell.n, data_rng);
    const alg::Input input = make_input(entry, data, static_cast<int>(truth.r()), cell.privacy, &truth);
    core::Rng noise_rng(spec.seed, core::stream_id(spec.name, cell_index, algorithm.label, trial, "noise"));
    const auto start = std::chrono::steady_clock::now();
    const alg::Estimate estimate = estimator.run(input, noise_rng);
    row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    row.metrics = compute_metrics(spec.metrics, estimate, truth);
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
