#pragma once
// The MNIST subset of cai2024 §6.2 (spec: cai2024 §6 "MNIST", A17): digits 1, 4 and 9, the first 500
// training images of each in file order, pixels scaled to [0, 1], 28 x 28 -> 14 x 14 by 2 x 2 average
// pooling (p = 196), centred by the (non-private) sample mean as the paper's experiment does.
// MNIST cannot be downloaded by dpbounds: the user supplies the uncompressed IDX files.
#include <Eigen/Dense>
#include <filesystem>
#include <string>
#include <vector>

namespace dpb::verify {

struct MnistSubsetSpec {
  std::vector<int> digits{1, 4, 9};
  int per_digit = 500;
  int pool = 2;        // average-pooling factor per side
  bool center = true;  // subtract the sample mean (non-private, as in the paper) [inferred, A17]
};

struct LabelledData {
  Eigen::MatrixXd X;        // p x n, records are columns
  std::vector<int> labels;  // n digit labels, in the order of the columns
};

// Reads `dir`/train-images-idx3-ubyte and `dir`/train-labels-idx1-ubyte. A missing file is a
// dpb::InvalidArgument that says where to get the data; too few images of a digit is one too.
LabelledData load_mnist_subset(const std::filesystem::path& dir, const MnistSubsetSpec& spec = {});

// The two files load_mnist_subset reads from `dir`: the training images, then their labels.
std::vector<std::filesystem::path> mnist_files(const std::filesystem::path& dir);
// One line for a missing MNIST `file`: where to get the files and how to give their directory.
std::string mnist_missing_message(const std::filesystem::path& file);

// Average pooling of one row-major side x side image by `factor` per side (side divisible by factor).
Eigen::VectorXd average_pool(const double* image, int side, int factor);

}  // namespace dpb::verify
