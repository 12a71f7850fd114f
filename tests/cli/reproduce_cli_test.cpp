// `dpbounds reproduce`: the quick scale of every cai2024 figure end to end (seconds), and its errors.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/cli/reproduce_fixture.hpp"
#include "tests/verify/datasets/tiny_mnist.hpp"
#include "verify/suite/reproduce.hpp"

namespace fs = std::filesystem;

using dpb::test::repository_root;
using dpb::test::reproduce;

TEST_CASE("reproduce cai2024 --scale quick runs every figure, MNIST on a small IDX file, and prints each claim's "
          "verdict", "[cli][reproduce][slow]") {
  const fs::path data = fs::temp_directory_path() / ("dpb_reproduce_mnist_" + std::to_string(::getpid()));
  dpb::test::write_digit_mnist(data, 60);  // mnist.quick: 60 images per digit
  dpb::test::reproduce_quick("cai2024", data.string());
  fs::remove_all(data);
}

TEST_CASE("reproduce kumar2025 --scale quick runs every figure and writes Tables 1 and 2", "[cli][reproduce][slow]") {
  dpb::test::reproduce_quick("kumar2025");
  const fs::path out = fs::temp_directory_path() / ("dpb_reproduce_tables_" + std::to_string(::getpid()));
  const auto r = reproduce("kumar2025/privcov-k --threads 1 --out '" + out.string() + "'");
  const fs::path theorems = out / "reproduce-kumar2025-quick" / "theorems";
  // The tables `dpbounds theorems --paper kumar2025 --format tex` builds: Table 1's cells, Thm 2's row.
  CHECK_THAT(dpb::test::slurp(theorems / "theorems.tex"),
             Catch::Contains("Table 1") && Catch::Contains("k^2 + \\sqrt{d}\\,k"));
  CHECK_THAT(dpb::test::slurp(theorems / "bounds.md"), Catch::Contains("kumar2025.thm5") && Catch::Contains("explicit"));
  fs::remove_all(out);
}

TEST_CASE("reproduce: the MNIST figure without its files is one clean line, or a skip among all figures",
          "[cli][reproduce]") {
  const fs::path missing = fs::temp_directory_path() / ("dpb_no_mnist_" + std::to_string(::getpid()));
  const auto r = reproduce("cai2024/mnist --data '" + missing.string() + "'");
  dpb::test::check_usage_error(r);
  CHECK_THAT(r.err, Catch::Contains("dpbounds does not download data") && Catch::Contains("--data DIR"));
  const auto all = dpb::verify::load_reproduction(repository_root() / "configs" / "papers", "cai2024",
                                                  dpb::verify::Scale::quick);
  if (!fs::exists(repository_root() / "data" / "mnist")) {  // the config's data.path, absent in a checkout
    REQUIRE(all.skipped.size() == 1);
    CHECK_THAT(all.skipped[0], Catch::StartsWith("cai2024/mnist: skipped: no data"));
  }
}

TEST_CASE("reproduce: an unknown paper, figure or scale is a usage error listing the known ones", "[cli][reproduce]") {
  auto r = reproduce("cai2042");
  dpb::test::check_usage_error(r);
  CHECK_THAT(r.err, Catch::Contains("known: ") && Catch::Contains("cai2024"));
  r = reproduce("cai2024/fig9");
  dpb::test::check_usage_error(r);
  CHECK_THAT(r.err, Catch::Contains("fig1-left") && Catch::Contains("fig5"));
  // Observed: the known figures were listed twice.
  const auto count = [](const std::string& text, const std::string& part) {
    std::size_t n = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
    return n;
  };
  CHECK(count(r.err, "fig1-left") == 1);
  CHECK(count(reproduce("nopaperatall").err, "dugler2026") == 1);
  r = reproduce("cai2024 --scale huge");
  dpb::test::check_usage_error(r);
  CHECK_THAT(r.err, Catch::Contains("quick, paper"));
}

TEST_CASE("reproduce finds configs/papers from any directory, or where --configs points", "[cli][reproduce]") {
  const auto configs = repository_root() / "configs";
  fs::current_path(fs::temp_directory_path());
  auto r = dpb::test::run_cli("reproduce cai2042");  // beside the executable: the build tree's checkout
  dpb::test::check_usage_error(r);
  CHECK_THAT(r.err, Catch::Contains("known: ") && Catch::Contains("cai2024"));
  r = dpb::test::run_cli("reproduce cai2042 --configs '" + configs.string() + "'");
  CHECK_THAT(r.err, Catch::Contains((configs / "papers").string()));
  r = dpb::test::run_cli("reproduce cai2024 --configs '" + (fs::temp_directory_path() / "no_configs_here").string() + "'");
  dpb::test::check_usage_error(r);
  CHECK_THAT(r.err, Catch::Contains("--configs DIR"));
}
