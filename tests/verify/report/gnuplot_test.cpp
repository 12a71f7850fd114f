#include "verify/report/gnuplot.hpp"

#include <catch2/catch.hpp>

#include "tests/verify/report/report_fixture.hpp"
#include "verify/report/atomic_file.hpp"

TEST_CASE("find_program searches PATH and reports absence", "[report][gnuplot]") {
  CHECK(!dpb::verify::find_program("sh").empty());
  CHECK(dpb::verify::find_program("dpbounds-no-such-program").empty());
}

TEST_CASE("run_script runs a program on a script in a directory and captures stderr", "[report][gnuplot]") {
  dpb::test::ScratchDir dir("run-script");
  const auto script = dir.path() / "script.sh";
  dpb::verify::write_file_atomically(script, "echo made > made.txt\necho complaint >&2\nexit 3\n");
  const auto result = dpb::verify::run_script(dpb::verify::find_program("sh"), script, dir.path());
  CHECK(result.exit_code == 3);
  CHECK(result.diagnostics == "complaint\n");
  CHECK(dpb::test::slurp(dir.path() / "made.txt") == "made\n");  // ran in `dir`
  // Only the script and what it made remain: the captured stderr is removed.
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path())) ++files;
  CHECK(files == 2);
}
