#include "verify/runner/progress.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

using namespace dpb::verify;

namespace {

// What `use` writes to a FILE*, as text.
template <class Use>
std::string captured(Use use) {
  std::FILE* file = std::tmpfile();
  use(file);
  std::fflush(file);
  std::rewind(file);
  std::string text;
  for (int c; (c = std::fgetc(file)) != EOF;) text += static_cast<char>(c);
  std::fclose(file);
  return text;
}

}  // namespace

TEST_CASE("without a terminal: one line per finished cell", "[runner]") {
  const auto text = captured([](std::FILE* f) {
    Progress p({2, 0, 1}, {"n=10", "n=20", "n=30"}, false, f);
    p.finished(0, false);
    p.finished(2, true);
    p.finished(0, true);
    p.close();
  });
  CHECK_THAT(text, Catch::Contains("cell 1/2 (n=30): 1 trials, 1 failed"));
  CHECK_THAT(text, Catch::Contains("cell 2/2 (n=10): 2 trials, 1 failed"));
  CHECK(text.find("n=20") == std::string::npos);  // nothing to run there
}

TEST_CASE("on a terminal: a bar with counts, rate and ETA", "[runner]") {
  const auto text = captured([](std::FILE* f) {
    Progress p({2}, {"n=10"}, true, f);
    p.finished(0, false);
    p.finished(0, false);
    p.close();
  });
  CHECK_THAT(text, Catch::Contains("\r["));
  CHECK_THAT(text, Catch::Contains("2/2 trials"));  // the last update is always drawn
  CHECK_THAT(text, Catch::Contains("ETA"));
  CHECK(text.back() == '\n');
  CHECK(Progress::format_duration(62) == "1:02");
  CHECK(Progress::format_duration(3723) == "1:02:03");
}
