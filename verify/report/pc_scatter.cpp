#include "verify/report/pc_scatter.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/errors.hpp"
#include "verify/datasets/dataset_model.hpp"
#include "verify/report/atomic_file.hpp"
#include "verify/report/gnuplot.hpp"
#include "verify/runner/cells.hpp"
#include "verify/runner/metrics.hpp"
#include "verify/runner/trial.hpp"

namespace dpb::verify {
namespace {

constexpr const char* kScatter = "pc-scatter";

// One panel per algorithm that gave scores; `blocks[i]` holds "pc1 pc2 label" lines of `labels[i]`.
std::string gnuplot_scatter(const std::vector<std::string>& labels, const std::vector<std::string>& blocks) {
  std::string s = "# dpbounds PC1/PC2 scatter (cai2024 §6.2), data inline. Run: gnuplot <this file>\n";
  s += "set key off\nset xlabel \"PC1\"\nset ylabel \"PC2\"\nset cblabel \"label\"\n";
  for (std::size_t i = 0; i < blocks.size(); ++i) s += fmt::format("$scores{} << EOD\n{}EOD\n", i, blocks[i]);
  s += fmt::format("set terminal pngcairo size {},450 noenhanced\nset output \"{}.png\"\n",
                   450 * std::max<std::size_t>(1, blocks.size()), kScatter);
  s += fmt::format("set multiplot layout 1,{}\n", std::max<std::size_t>(1, blocks.size()));
  for (std::size_t i = 0; i < blocks.size(); ++i)
    s += fmt::format("set title \"{}\"\nplot $scores{} using 1:2:3 with points pt 7 ps 0.4 lc palette\n", labels[i], i);
  return s + "unset multiplot\nunset output\n";
}

}  // namespace

void write_pc_scatter(const ExperimentSpec& spec, const std::filesystem::path& dir) {
  if (!spec.data) throw InvalidArgument(fmt::format("{} has no data: section to scatter", spec.name));
  const auto cells = make_cells(spec);
  const auto& model = dynamic_cast<const DatasetModel&>(*cells.front().model);
  const LabelledData& records = model.data();
  const Eigen::MatrixXd& S = model.info().Sigma;
  std::string scatter = "algorithm,label,pc1,pc2\n", explained = "algorithm,component,explained\n";
  std::vector<std::string> plotted, blocks;
  for (const auto& algorithm : spec.algorithms) {
    Eigen::MatrixXd Q;
    try {
      const auto estimator = alg::algorithm_registry().make(algorithm.id, algorithm.given);
      Q = estimated_subspace(trial_estimate(spec, 0, cells.front(), algorithm, *estimator, 0), model.info().r());
    } catch (const InvalidArgument&) {
      continue;  // the stored row carries the error
    }
    for (Eigen::Index k = 0; k < Q.cols(); ++k)
      explained += fmt::format("\"{}\",{},{:.6g}\n", algorithm.label, k + 1, explained_variance(Q.col(k), S));
    if (Q.cols() < 2) continue;
    const Eigen::MatrixXd scores = Q.leftCols(2).transpose() * records.X;
    plotted.push_back(algorithm.label);
    blocks.emplace_back();
    for (Eigen::Index i = 0; i < scores.cols(); ++i) {
      const int label = records.labels[std::size_t(i)];
      scatter += fmt::format("\"{}\",{},{:.6g},{:.6g}\n", algorithm.label, label, scores(0, i), scores(1, i));
      blocks.back() += fmt::format("{:.6g} {:.6g} {}\n", scores(0, i), scores(1, i), label);
    }
  }
  const auto figures = dir / "figures";
  std::filesystem::create_directories(figures);
  write_file_atomically(figures / fmt::format("{}.csv", kScatter), scatter);
  write_file_atomically(figures / "pc-explained.csv", explained);
  const auto script = figures / fmt::format("{}.gp", kScatter);
  write_file_atomically(script, gnuplot_scatter(plotted, blocks));
  if (const auto gnuplot = find_program("gnuplot"); !gnuplot.empty()) run_script(gnuplot, script, figures);
}

}  // namespace dpb::verify
