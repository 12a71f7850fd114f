#pragma once
// What every trial of one grid cell shares: the model instance (its random structure drawn from the
// cell's own stream), the sample size, the privacy budget, and the cell's parameters as TrialRow
// records them.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/privacy.hpp"
#include "core/models/model.hpp"
#include "verify/experiment/grid.hpp"
#include "verify/experiment/spec.hpp"

namespace dpb::verify {

struct CellContext {
  Cell swept;                                 // the grid axes' values
  std::unique_ptr<core::Model> model;
  long n = 0;
  alg::Privacy privacy;
  // ModelInfo::params, the fixed and swept model parameters, n, eps, delta and k (the target's rank,
  // unless the model has its own k, e.g. a sparsity): what a theorem's rate reads.
  std::map<std::string, double> params;
  std::string label;                          // "n=1000, epsilon=0.5", for progress lines
};

// One context per grid cell, in grid expansion order. The model of cell c is drawn from the stream
// core::stream_id(spec.name, c, "model", 0, "model").
std::vector<CellContext> make_cells(const ExperimentSpec& spec);

}  // namespace dpb::verify
