#include "verify/report/atomic_file.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "tests/verify/report/report_fixture.hpp"

TEST_CASE("atomic files: written whole through a temporary name, directories created", "[report][atomic]") {
  dpb::test::ScratchDir dir("atomic");
  const auto path = dir.path() / "a" / "b" / "file.txt";
  dpb::verify::write_file_atomically(path, "first");
  dpb::verify::write_file_atomically(path, "second");
  CHECK(dpb::test::slurp(path) == "second");
  CHECK(!std::filesystem::exists(dpb::verify::partial_path(path)));
  CHECK(dpb::verify::partial_path(path).parent_path() == path.parent_path());
  // A directory in the way: the write fails, names the path and leaves no temporary behind.
  std::filesystem::create_directories(dir.path() / "taken");
  CHECK_THROWS_WITH(dpb::verify::write_file_atomically(dir.path() / "taken", "x"), Catch::Contains("taken"));
  CHECK(!std::filesystem::exists(dpb::verify::partial_path(dir.path() / "taken")));
}

TEST_CASE("file stems keep only safe characters", "[report][atomic]") {
  CHECK(dpb::verify::file_stem("sin-vs-n") == "sin-vs-n");
  CHECK(dpb::verify::file_stem("a b/c[k=1]") == "a_b_c_k_1_");
}
