#include "verify/datasets/mnist.hpp"

#include <algorithm>
#include <fmt/core.h>
#include <map>

#include "core/errors.hpp"
#include "verify/datasets/idx.hpp"

namespace dpb::verify {
namespace {

constexpr const char* kImages = "train-images-idx3-ubyte";
constexpr const char* kLabels = "train-labels-idx1-ubyte";

std::filesystem::path require_file(const std::filesystem::path& dir, const char* name) {
  const auto path = dir / name;
  if (!std::filesystem::exists(path)) throw InvalidArgument(mnist_missing_message(path));
  return path;
}

}  // namespace

std::vector<std::filesystem::path> mnist_files(const std::filesystem::path& dir) {
  return {dir / kImages, dir / kLabels};
}

std::string mnist_missing_message(const std::filesystem::path& file) {
  return fmt::format(
      "MNIST file {} not found. dpbounds does not download data: get {}.gz and {}.gz from the MNIST page "
      "(yann.lecun.com/exdb/mnist, or a mirror), gunzip them into one directory and give it as the experiment's "
      "data.path or with `dpbounds reproduce --data DIR`",
      file.string(), kImages, kLabels);
}

Eigen::VectorXd average_pool(const double* image, int side, int factor) {
  if (factor < 1 || side % factor != 0)
    throw InvalidArgument(fmt::format("average pooling by {} needs a side divisible by it, got {}", factor, side));
  const int out_side = side / factor;
  Eigen::VectorXd pooled = Eigen::VectorXd::Zero(out_side * out_side);
  for (int r = 0; r < side; ++r)
    for (int c = 0; c < side; ++c) pooled((r / factor) * out_side + c / factor) += image[r * side + c];
  return pooled / double(factor * factor);
}

LabelledData load_mnist_subset(const std::filesystem::path& dir, const MnistSubsetSpec& spec) {
  const IdxArray images = read_idx(require_file(dir, kImages));
  const IdxArray labels = read_idx(require_file(dir, kLabels));
  if (images.dims.size() != 3 || images.dims[1] != images.dims[2])
    throw InvalidArgument(fmt::format("{}: expected n x side x side images", (dir / kImages).string()));
  if (labels.dims.size() != 1 || labels.dims[0] != images.dims[0])
    throw InvalidArgument(fmt::format("{}: expected one label per image ({})", (dir / kLabels).string(), images.dims[0]));
  const int side = static_cast<int>(images.dims[1]);
  const std::size_t pixels = std::size_t(side) * side;

  std::map<int, int> taken;
  for (const int digit : spec.digits) taken[digit] = 0;
  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < labels.values.size(); ++i) {  // the first per_digit of each, in file order
    const auto it = taken.find(static_cast<int>(labels.values[i]));
    if (it != taken.end() && it->second < spec.per_digit) {
      ++it->second;
      chosen.push_back(i);
    }
  }
  for (const auto& [digit, count] : taken)
    if (count < spec.per_digit)
      throw InvalidArgument(fmt::format("MNIST: only {} images of digit {} in {}, {} asked for", count, digit,
                                        (dir / kImages).string(), spec.per_digit));

  const int out_side = side / spec.pool;
  LabelledData data;
  data.X.resize(out_side * out_side, static_cast<Eigen::Index>(chosen.size()));
  for (std::size_t j = 0; j < chosen.size(); ++j) {
    data.X.col(static_cast<Eigen::Index>(j)) =
        average_pool(images.values.data() + chosen[j] * pixels, side, spec.pool) / 255.0;
    data.labels.push_back(static_cast<int>(labels.values[chosen[j]]));
  }
  if (spec.center) data.X.colwise() -= data.X.rowwise().mean();
  return data;
}

}  // namespace dpb::verify
