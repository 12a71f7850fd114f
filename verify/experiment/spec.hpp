#pragma once
// An experiment as the YAML file describes it (DESIGN.md §5, docs/experiments.md), after validation:
// every id exists, every algorithm parameter lies in its documented range.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/privacy.hpp"
#include "core/params.hpp"
#include "verify/audit/audit_spec.hpp"
#include "verify/checks/check_spec.hpp"
#include "verify/datasets/mnist.hpp"
#include "verify/report/report_spec.hpp"

namespace dpb::verify {

// Axes swept together: every axis of one group has the same number of values and they advance in
// step (a "zipped" group); distinct groups form a cartesian product. A plain `n: [..]` is a group of one.
struct GridGroup {
  std::vector<std::string> axes;
  std::vector<std::vector<double>> values;  // values[axis][i]
};

struct AlgorithmSpec {
  std::string id;          // registry id
  core::ParamMap given;    // the parameters the experiment sets (checked against the schema)
  core::ParamMap resolved; // `given` with every default filled in
  // TrialRow::algorithm: the id, with the given parameters as "id[k=v,...]" when there are any.
  std::string label;
  // `label:` beside the parameters: the name tables and legends show (empty: the registry's name and the
  // given parameters, verify/report/display_names.hpp). Not part of the experiment's key.
  std::string name;
};

// `data:` in place of `model:` (docs/experiments.md "Datasets"): the records of a file instead of draws
// from a model. The file is read when the run starts, not when the experiment is loaded.
struct DataSpec {
  std::string name;     // the dataset's format: "mnist" (verify/datasets/mnist.hpp)
  std::string path;     // its directory (relative paths: to the working directory)
  MnistSubsetSpec mnist;
  int rank = 3;         // r: the target's rank and the algorithms' k
  // sigma^2 is the mean of the sample eigenvalues first..last (1-based, cai2024 §6.2: 50th to 140th).
  std::pair<int, int> noise_eigenvalues{50, 140};
};

struct ExperimentSpec {
  std::string name;
  std::string source;  // paper and figure reproduced, free text
  std::uint64_t seed = 1;
  int trials = 1;
  std::string model;                    // model catalogue id (empty with `data`)
  std::optional<DataSpec> data;         // a dataset instead of a model
  core::ParamMap model_params;          // fixed model parameters
  std::vector<GridGroup> grid;          // swept: n, epsilon, delta, or model parameters
  alg::Privacy privacy;                 // fixed privacy (epsilon / delta may also be grid axes)
  long n = 0;                           // fixed sample size when n is not a grid axis (0: must be swept)
  // `stream_batch: B`: each trial's samples drawn B at a time as the algorithm reads them, memory O(d B)
  // (core/streamed_samples.hpp); 0: drawn whole before the algorithm runs.
  long stream_batch = 0;
  std::vector<AlgorithmSpec> algorithms;
  std::vector<std::string> metrics;
  std::vector<CheckSpec> checks;
  ReportSpec report;
  // `tuned_by: NAME`: in a suite or reproduction, the algorithm with the id of the candidate that experiment NAME's
  // `report: select:` ranks first is replaced by that candidate (verify/experiment/tuned_by.hpp); run alone, the
  // experiment runs its algorithms as written. Not part of the key: the algorithms that run are.
  std::string tuned_by;
  // The `audit:` section (one mapping or a list of them), read by the auditor's parser with the
  // experiment's privacy and seed as defaults (verify/audit/audit_spec.hpp, docs/auditing.md).
  std::vector<AuditSpec> audits;
};

}  // namespace dpb::verify
