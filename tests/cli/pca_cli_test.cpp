// `dpbounds pca` end to end on files the test writes.
#include <catch2/catch.hpp>
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/run_cli.hpp"
#include "core/metrics.hpp"
#include "core/models/model.hpp"
#include "support/npy_writer.hpp"
#include "support/scratch_dir.hpp"

namespace fs = std::filesystem;
using dpb::test::run_cli;

namespace {

// One folder for the whole executable's run, removed at its exit (it used to stay behind in the temp folder).
fs::path scratch(const std::string& name) {
  static const dpb::test::ScratchDir dir("pca_cli");
  return dir.path() / name;
}

// n records of a spiked Gaussian in d = 5 dimensions (spike lambda = 8 along U), as a d x n matrix.
struct Planted {
  Eigen::MatrixXd X, U;
};
Planted planted(long n) {
  dpb::core::Rng rng(11, 1);
  const dpb::core::ParamMap params{{"d", 5.0}, {"r", 1.0}, {"lambda", 8.0}};
  const auto model = dpb::core::make_model("spiked_gaussian", params, rng);
  return {model->sample(n, rng), model->info().target};
}

void write_text(const fs::path& path, const Eigen::MatrixXd& X, const std::string& separator, bool header) {
  std::ofstream out(path);
  if (header) out << "a,b,c,d,e\n";
  for (Eigen::Index i = 0; i < X.cols(); ++i)
    for (Eigen::Index c = 0; c < X.rows(); ++c) out << fmt::format("{:.17g}", X(c, i)) << (c + 1 < X.rows() ? separator : "\n");
}

Eigen::MatrixXd read_components(const fs::path& csv) {
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  REQUIRE(line == "feature,pc1");
  std::vector<double> values;
  while (std::getline(in, line)) values.push_back(std::stod(line.substr(line.rfind(',') + 1)));
  return Eigen::Map<Eigen::MatrixXd>(values.data(), static_cast<Eigen::Index>(values.size()), 1);
}

}  // namespace

TEST_CASE("pca recovers a planted spike from CSV, text and .npy in both orders and widths", "[cli][pca]") {
  const auto data = planted(20000);
  const Eigen::Index n = data.X.cols(), d = data.X.rows();
  std::vector<double> c8(data.X.data(), data.X.data() + data.X.size());  // record after record
  const Eigen::MatrixXd records = data.X.transpose();                    // n x d, column-major
  std::vector<double> f8(records.data(), records.data() + records.size());
  std::vector<float> c4(c8.begin(), c8.end()), f4(f8.begin(), f8.end());
  const auto csv = scratch("data.csv"), txt = scratch("data.txt");
  write_text(csv, data.X, ",", true);
  write_text(txt, data.X, " ", false);
  dpb::test::write_npy(scratch("c8.npy"), "<f8", false, n, d, c8);
  dpb::test::write_npy(scratch("f8.npy"), "<f8", true, n, d, f8);
  dpb::test::write_npy(scratch("c4.npy"), "<f4", false, n, d, c4);
  dpb::test::write_npy(scratch("f4.npy"), "<f4", true, n, d, f4);
  for (const auto* name : {"data.csv", "data.txt", "c8.npy", "f8.npy", "c4.npy", "f4.npy"}) {
    INFO(name);
    const auto out = scratch(std::string("out_") + name);
    const auto r = run_cli(fmt::format("pca --input '{}' --k 1 --epsilon 1 --delta 1e-6 --center --out '{}'",
                                       scratch(name).string(), out.string()));
    REQUIRE(r.code == 0);
    CHECK(r.out.find("replace-one") != std::string::npos);
    // n = 2e4, lambda = 8, d = 5: DP-PCA lands well within sin angle 0.5 of the spike (random: ~0.9).
    CHECK(dpb::core::sin_angle(read_components(out / "components.csv"), data.U) < 0.5);
    const auto json = nlohmann::json::parse(dpb::test::slurp(out / "pca.json"));
    // The headline is the ledger's total: within the budget, over the eight mechanisms run (three norm
    // scales around two centering rounds, column spreads, the algorithm, explained variance).
    CHECK(json["privacy"]["ledger"].size() == 8);
    CHECK(json["privacy"]["epsilon"].get<double>() <= 1.0 + 1e-9);
    CHECK(json["privacy"]["delta"].get<double>() <= 1e-6 * (1 + 1e-12));
    CHECK(r.out.find("total spent") != std::string::npos);
  }
}

TEST_CASE("pca refuses a mutant with one line and exit 2", "[cli][pca][privacy]") {
  // Issue 17: `--algorithm mutant.dp_gauss_halved_noise` exited 0 and printed a worst-case DP headline.
  const auto data = planted(2000);
  const auto csv = scratch("mutant.csv"), out = scratch("mutant_out");
  write_text(csv, data.X, ",", true);
  const auto r = run_cli(fmt::format("pca --input '{}' --k 1 --epsilon 1 --delta 1e-6 --algorithm "
                                     "mutant.dp_gauss_halved_noise --out '{}'",
                                     csv.string(), out.string()));
  CHECK(r.code == 2);
  CHECK(r.err.find("mutant") != std::string::npos);
  CHECK(dpb::test::lines(r.err) == 1);
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("pca refuses malformed input with the row and column, and writes nothing", "[cli][pca]") {
  const auto bad = scratch("bad.csv"), out = scratch("never");
  std::ofstream(bad) << "1,2,3\n4,5,x\n";
  auto r = run_cli(fmt::format("pca --input '{}' --k 1 --epsilon 1 --delta 1e-6 --out '{}'", bad.string(), out.string()));
  CHECK(r.code == 2);
  CHECK(r.err.find("line 2, column 3") != std::string::npos);
  CHECK(dpb::test::lines(r.err) == 1);
  CHECK_FALSE(fs::exists(out));
  const auto ragged = scratch("ragged.txt");
  std::ofstream(ragged) << "1 2 3\n4 5\n";
  r = run_cli(fmt::format("pca --input '{}' --k 1 --epsilon 1 --delta 1e-6 --out '{}'", ragged.string(), out.string()));
  CHECK(r.code == 2);
  CHECK(r.err.find("line 2 has 2 columns, expected 3") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("pca refuses a model-dependent mechanism unless the user accepts it", "[cli][pca]") {
  const auto data = planted(3000);
  const auto csv = scratch("small.csv"), out = scratch("cai");
  write_text(csv, data.X, ",", false);
  const std::string args = fmt::format("pca --input '{}' --k 1 --epsilon 1 --delta 1e-6 --algorithm cai2024.gaussian_mechanism --param lambda=8 --param sigma2=1 --out '{}'",
                                       csv.string(), out.string());
  auto r = run_cli(args);
  CHECK(r.code == 2);
  CHECK(r.err.find("--accept-model-dependent-privacy") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
  r = run_cli(args + " --accept-model-dependent-privacy");
  CHECK(r.code == 0);
  CHECK(r.out.find("WARNING: this guarantee holds only for data drawn from the algorithm's model") !=
        std::string::npos);
}

TEST_CASE("pca keeps an earlier result unless told, carries the header's names, and prints JSON on request",
          "[cli][pca]") {
  // Issue 22: an existing --out was overwritten; components.csv had no feature names; quoted CSV failed.
  const auto data = planted(20000);
  const auto csv = scratch("named.csv"), out = scratch("named_out");
  {
    std::ofstream file(csv);
    file << "\"height, cm\",\"weight\",c,\"d \"\"x\"\"\",e\n";
    for (Eigen::Index i = 0; i < data.X.cols(); ++i)
      for (Eigen::Index c = 0; c < data.X.rows(); ++c)
        file << (c == 1 ? "\"" : "") << fmt::format("{:.17g}", data.X(c, i)) << (c == 1 ? "\"" : "")
             << (c + 1 < data.X.rows() ? "," : "\n");
  }
  const std::string args =
      fmt::format("pca --input '{}' --k 1 --epsilon 1 --center --out '{}'", csv.string(), out.string());
  auto r = run_cli(args + " --delta 1e-6 --format json");
  REQUIRE(r.code == 0);
  const auto json = nlohmann::json::parse(r.out);
  CHECK(json["features"][0] == "height, cm");
  CHECK(json["warnings"].empty());
  const std::string components = dpb::test::slurp(out / "components.csv");
  CHECK(components.rfind("feature,pc1\n\"height, cm\",", 0) == 0);
  CHECK(components.find("\n\"d \"\"x\"\"\",") != std::string::npos);
  // loadings.csv lists pc1's features by |loading|: the spike U comes first.
  Eigen::Index top = 0;
  data.U.col(0).cwiseAbs().maxCoeff(&top);
  const std::vector<std::string> names{"\"height, cm\"", "weight", "c", "\"d \"\"x\"\"\"", "e"};
  CHECK(dpb::test::slurp(out / "loadings.csv").rfind("component,rank,feature,loading\npc1,1," + names[top] + ",", 0) == 0);
  // A second run into the same folder is refused with what to do, and the first result stays.
  const std::string before = dpb::test::slurp(out / "pca.json");
  r = run_cli(args + " --delta 1e-6 --seed 2");
  CHECK(r.code == 2);
  CHECK(r.err.find("--force") != std::string::npos);
  CHECK(dpb::test::slurp(out / "pca.json") == before);
  r = run_cli(args + " --delta 0.5 --seed 2 --force");
  CHECK(r.code == 0);
  CHECK(dpb::test::slurp(out / "pca.json") != before);
  CHECK(r.out.find("WARNING: delta = 0.5 is not below 1/n") != std::string::npos);
  CHECK(r.out.find("Any one row of named.csv could be replaced") != std::string::npos);
}
