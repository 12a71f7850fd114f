#include "verify/datasets/dataset_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/samplers.hpp"

namespace dpb::verify {

DatasetModel::DatasetModel(LabelledData data, const DataSpec& spec) : data_(std::move(data)) {
  const Eigen::Index d = data_.X.rows(), N = data_.X.cols();
  const auto [first, last] = spec.noise_eigenvalues;
  if (spec.rank < 1 || spec.rank > d)
    throw InvalidArgument(fmt::format("data rank {} must lie in 1..{} (the records' dimension)", spec.rank, d));
  if (first < 1 || first > last || last > d)
    throw InvalidArgument(fmt::format("data noise_eigenvalues [{}, {}] must satisfy 1 <= first <= last <= {}", first,
                                      last, d));
  info_.model = spec.name;
  info_.Sigma = core::second_moment(data_.X);
  const core::EigenPairs all = core::top_eigenpairs(info_.Sigma, d);
  info_.eigenvalues = all.values;
  info_.target = all.vectors.leftCols(spec.rank);
  const auto& ev = info_.eigenvalues;
  info_.params = {{"d", double(d)},
                  {"r", double(spec.rank)},
                  {"records", double(N)},
                  {"lambda", ev.head(spec.rank).mean()},
                  {"sigma2", ev.segment(first - 1, last - first + 1).mean()},
                  {"lambda1", ev(0)}};
}

Eigen::MatrixXd DatasetModel::sample(Eigen::Index n, core::Rng& rng) const {
  const Eigen::Index N = data_.X.cols();
  if (n > N) throw InvalidArgument(fmt::format("n = {} exceeds the dataset's {} records", n, N));
  if (n == N) return data_.X;
  std::vector<Eigen::Index> order(static_cast<std::size_t>(N));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  for (Eigen::Index i = 0; i < n; ++i) {  // partial Fisher-Yates: the first n are a uniform subset
    const auto j = i + std::min<Eigen::Index>(N - i - 1, static_cast<Eigen::Index>(core::uniform01(rng) * double(N - i)));
    std::swap(order[std::size_t(i)], order[std::size_t(j)]);
  }
  std::sort(order.begin(), order.begin() + n);
  Eigen::MatrixXd X(data_.X.rows(), n);
  for (Eigen::Index i = 0; i < n; ++i) X.col(i) = data_.X.col(order[std::size_t(i)]);
  return X;
}

std::string missing_data(const DataSpec& spec) {
  for (const auto& file : mnist_files(spec.path))
    if (!std::filesystem::exists(file)) return mnist_missing_message(file);
  return "";
}

LabelledData load_dataset(const DataSpec& spec) {
  if (const auto why = missing_data(spec); !why.empty()) throw InvalidArgument(why);
  return load_mnist_subset(spec.path, spec.mnist);
}

}  // namespace dpb::verify
