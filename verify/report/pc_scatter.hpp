#pragma once
// cai2024 §6.2's PC1/PC2 scatter of a dataset experiment: every record projected onto each algorithm's
// estimated principal components, coloured by its label. The estimate is trial 0 of the first cell,
// the same one the store's row measures (same streams).
//   <dir>/figures/pc-scatter.csv   algorithm, label, pc1, pc2 (one row per record and algorithm)
//   <dir>/figures/pc-explained.csv algorithm, component, explained (u_k^T S u_k / tr S per component)
//   <dir>/figures/pc-scatter.gp    gnuplot (scores inline), one panel per algorithm; drawn to pc-scatter.png
//                                  when gnuplot is on PATH
#include <filesystem>

#include "verify/experiment/spec.hpp"

namespace dpb::verify {

// Requires spec.data. An algorithm that fails on the trial gets no rows (its error is in the store).
void write_pc_scatter(const ExperimentSpec& spec, const std::filesystem::path& dir);

}  // namespace dpb::verify
