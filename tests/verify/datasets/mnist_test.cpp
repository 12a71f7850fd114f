#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "core/errors.hpp"
#include "tests/verify/datasets/tiny_mnist.hpp"
#include "verify/datasets/mnist.hpp"

namespace fs = std::filesystem;

namespace {

// A tiny MNIST: 5 images of side 4 whose pixels are all equal to (10 * image + pixel row), labels
// 1, 7, 4, 1, 4.
fs::path tiny_mnist() {
  const auto dir = fs::temp_directory_path() / ("dpb_mnist_" + std::to_string(::getpid()));
  dpb::test::write_tiny_mnist(dir, {1, 7, 4, 1, 4}, 4, [](int i, int r, int) { return 10 * i + r; });
  return dir;
}

}  // namespace

TEST_CASE("the MNIST subset takes the first images of each digit, pools and scales them", "[verify][mnist]") {
  const auto dir = tiny_mnist();
  dpb::verify::MnistSubsetSpec spec;
  spec.digits = {1, 4};
  spec.per_digit = 2;
  spec.center = false;
  const auto data = dpb::verify::load_mnist_subset(dir, spec);
  CHECK(data.labels == std::vector<int>{1, 4, 1, 4});  // images 0, 2, 3, 4 in file order
  REQUIRE(data.X.rows() == 4);                          // 4 x 4 pooled 2 x 2 -> 2 x 2
  REQUIRE(data.X.cols() == 4);
  // Image 2, top pooled row: rows 0 and 1 -> (20 + 21) / 2 = 20.5, scaled by 1/255.
  CHECK(data.X(0, 1) == Approx(20.5 / 255));
  CHECK(data.X(2, 1) == Approx(22.5 / 255));
  spec.center = true;
  const auto centred = dpb::verify::load_mnist_subset(dir, spec);
  CHECK(centred.X.rowwise().mean().norm() < 1e-15);

  spec.per_digit = 3;
  CHECK_THROWS_WITH(dpb::verify::load_mnist_subset(dir, spec), Catch::Contains("only 2 images of digit 1"));
  fs::remove_all(dir);
  CHECK_THROWS_WITH(dpb::verify::load_mnist_subset(dir, spec), Catch::Contains("dpbounds does not download data"));
}

TEST_CASE("average pooling averages each block", "[verify][mnist]") {
  const double image[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  const Eigen::VectorXd pooled = dpb::verify::average_pool(image, 4, 2);
  CHECK(pooled == Eigen::Vector4d(3.5, 5.5, 11.5, 13.5));
  CHECK_THROWS_AS(dpb::verify::average_pool(image, 4, 3), dpb::InvalidArgument);
}
