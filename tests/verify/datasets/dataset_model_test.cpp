// A dataset in place of a model: the DatasetModel's truth and plug-ins, and an experiment with `data:`
// run end to end on a small IDX file the test writes (cai2024 §6.2's MNIST pipeline without MNIST).
#include "verify/datasets/dataset_model.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <set>
#include <unistd.h>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "tests/support/text.hpp"
#include "tests/verify/datasets/tiny_mnist.hpp"
#include "tests/verify/experiment/experiment_fixture.hpp"
#include "verify/runner/run_and_report.hpp"

namespace fs = std::filesystem;
using dpb::verify::DataSpec;

namespace {

struct TinyDigits {
  fs::path dir = fs::temp_directory_path() / ("dpb_dataset_model_" + std::to_string(::getpid()));
  explicit TinyDigits(int per_digit) { dpb::test::write_digit_mnist(dir, per_digit); }
  ~TinyDigits() { fs::remove_all(dir); }
};

DataSpec digits_spec(const fs::path& dir, int per_digit) {
  DataSpec spec;
  spec.name = "mnist";
  spec.path = dir.string();
  spec.mnist.per_digit = per_digit;
  spec.rank = 3;
  spec.noise_eigenvalues = {10, 20};
  return spec;
}

}  // namespace

TEST_CASE("a dataset model: the sample covariance is the truth, lambda and sigma2 the paper's plug-ins",
          "[verify][dataset]") {
  const TinyDigits tiny(8);
  const DataSpec spec = digits_spec(tiny.dir, 8);
  const auto records = dpb::verify::load_dataset(spec);
  REQUIRE(records.X.rows() == 196);
  REQUIRE(records.X.cols() == 24);
  const dpb::verify::DatasetModel model(records, spec);
  const auto& info = model.info();
  const Eigen::MatrixXd S = records.X * records.X.transpose() / 24.0;
  CHECK((info.Sigma - S).norm() < 1e-12 * S.norm());
  const dpb::core::EigenPairs eig = dpb::core::symmetric_eigenpairs(S);
  const Eigen::VectorXd ev = eig.values.reverse();  // descending
  CHECK(info.params.at("lambda") == Approx(ev.head(3).mean()).epsilon(1e-10));
  CHECK(info.params.at("sigma2") == Approx(ev.segment(9, 11).mean()).margin(1e-12));
  CHECK(info.params.at("records") == 24);
  // The target spans S's top 3 eigenvectors.
  const Eigen::MatrixXd top = eig.vectors.rightCols(3);
  CHECK((dpb::core::projector(info.target) - dpb::core::projector(top)).norm() < 1e-8);

  dpb::core::Rng rng(1, 2);
  CHECK(model.sample(24, rng) == records.X);
  const Eigen::MatrixXd half = model.sample(12, rng);
  std::set<Eigen::Index> columns;  // 12 distinct records
  for (Eigen::Index j = 0; j < half.cols(); ++j)
    for (Eigen::Index i = 0; i < records.X.cols(); ++i)
      if (half.col(j) == records.X.col(i)) columns.insert(i);
  CHECK(columns.size() == 12);
  CHECK_THROWS_WITH(model.sample(25, rng), Catch::Contains("exceeds the dataset's 24 records"));

  auto bad = spec;
  bad.noise_eigenvalues = {10, 197};
  CHECK_THROWS_AS(dpb::verify::DatasetModel(records, bad), dpb::InvalidArgument);
  bad.path = (tiny.dir / "nothing").string();
  CHECK_THAT(dpb::verify::missing_data(bad), Catch::Contains("dpbounds does not download data") &&
                                                 Catch::Contains("data.path") && Catch::Contains("--data DIR"));
  CHECK(dpb::verify::missing_data(spec).empty());
}

TEST_CASE("an experiment on a dataset runs end to end and writes the PC scatter", "[verify][dataset]") {
  const TinyDigits tiny(20);
  const fs::path out = tiny.dir / "out";
  const std::string text = "name: digits\nseed: 3\ntrials: 3\n"
                           "data: { name: mnist, path: '" + tiny.dir.string() + "', per_digit: 20, rank: 3, "
                           "noise_eigenvalues: [10, 40] }\n"
                           "n: 60\nprivacy: { epsilon: 2, delta: 0.1 }\n"
                           "algorithms: [baseline.nonprivate_pca, baseline.dp_gauss_star]\n"
                           "metrics: [explained_variance, projector_fro]\n";
  const auto spec = dpb::verify::test::parse_text(text);
  REQUIRE(spec.data);
  CHECK(spec.model.empty());
  const auto run = dpb::verify::run_and_report(spec, out, {});
  REQUIRE(run.results.rows.size() == 6);
  // The sample PCs explain exactly the top-3 share of S's variance and sit at distance 0 from the truth.
  const auto records = dpb::verify::load_dataset(spec.data.value());
  const Eigen::MatrixXd S = records.X * records.X.transpose() / 60.0;
  const Eigen::VectorXd ev = dpb::core::symmetric_eigenvalues(S).reverse();
  for (const auto& row : run.results.rows) {
    INFO(row.algorithm << ": " << row.error);
    REQUIRE(row.error.empty());
    if (row.algorithm != "baseline.nonprivate_pca") continue;
    CHECK(row.metrics.at("explained_variance") == Approx(ev.head(3).sum() / S.trace()).epsilon(1e-9));
    CHECK(row.metrics.at("projector_fro") == Approx(0).margin(1e-8));
  }
  std::ifstream scatter(out / "digits" / "figures" / "pc-scatter.csv");
  REQUIRE(scatter);
  std::string line;
  std::size_t rows = 0, nonprivate_ones = 0;
  std::getline(scatter, line);
  CHECK(line == "algorithm,label,pc1,pc2");
  while (std::getline(scatter, line)) {
    ++rows;
    nonprivate_ones += line.rfind("\"baseline.nonprivate_pca\",1,", 0) == 0;
  }
  CHECK(rows == 2 * 60);  // every record, once per algorithm
  CHECK(nonprivate_ones == 20);
  CHECK_THAT(dpb::test::slurp(out / "digits" / "figures" / "pc-explained.csv"),
             Catch::Contains("\"baseline.nonprivate_pca\",3,"));
  CHECK(fs::exists(out / "digits" / "figures" / "pc-scatter.gp"));
}

TEST_CASE("a dataset experiment with a missing file is one clean error and leaves nothing behind",
          "[verify][dataset]") {
  const fs::path missing = fs::temp_directory_path() / ("dpb_no_mnist_" + std::to_string(::getpid()));
  const fs::path out = missing / "out";
  const auto spec = dpb::verify::test::parse_text(
      "name: digits\ndata: { name: mnist, path: '" + missing.string() + "' }\nn: 1500\n"
      "algorithms: [baseline.nonprivate_pca]\nmetrics: [explained_variance]\n");
  CHECK_THROWS_WITH(dpb::verify::run_and_report(spec, out, {}),
                    Catch::Contains("not found") && Catch::Contains("yann.lecun.com/exdb/mnist"));
  CHECK_FALSE(fs::exists(out));
  CHECK_THAT(dpb::verify::test::parse_error("name: x\nmodel: { name: spiked_gaussian, d: 5, r: 1, lambda: 4, sigma2: 1 }\n"
                                            "data: { name: mnist, path: p }\nn: 10\nalgorithms: [baseline.nonprivate_pca]\n"
                                            "metrics: [sin]\n"),
             Catch::Contains("either 'model' or 'data'"));
  CHECK_THAT(dpb::verify::test::parse_error("name: x\ndata: { name: cifar, path: p }\nn: 10\n"
                                            "algorithms: [baseline.nonprivate_pca]\nmetrics: [sin]\n"),
             Catch::Contains("unknown dataset 'cifar'"));
  CHECK_THAT(dpb::verify::test::parse_error("name: x\ndata: { name: mnist, path: p, digits: [1, 12] }\nn: 10\n"
                                            "algorithms: [baseline.nonprivate_pca]\nmetrics: [sin]\n"),
             Catch::Contains("digits are 0..9"));
}
