#include "algorithms/external/command_line.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"

using dpb::alg::external::split_command;
using Words = std::vector<std::string>;

TEST_CASE("split_command splits at unquoted whitespace", "[external]") {
  CHECK(split_command("prog") == Words{"prog"});
  CHECK(split_command("  ./my pca\t--k 3\n") == Words{"./my", "pca", "--k", "3"});
}

TEST_CASE("split_command honours quotes and backslashes like a shell, without expanding anything",
          "[external]") {
  CHECK(split_command("run 'a b' \"c d\"") == Words{"run", "a b", "c d"});
  CHECK(split_command(R"(run 'it\s' "say \"hi\" \\ \n")") == Words{"run", R"(it\s)", R"(say "hi" \ \n)"});
  CHECK(split_command(R"(run a\ b \'x)") == Words{"run", "a b", "'x"});
  CHECK(split_command("run a'b c'd ''") == Words{"run", "ab cd", ""});
  CHECK(split_command("run $HOME *.csv | tee > out") ==
        Words{"run", "$HOME", "*.csv", "|", "tee", ">", "out"});
}

TEST_CASE("split_command rejects unterminated quotes, a trailing backslash and an empty command",
          "[external]") {
  CHECK_THROWS_WITH(split_command("run 'a"), Catch::Contains("single quote is not closed"));
  CHECK_THROWS_WITH(split_command("run \"a"), Catch::Contains("double quote is not closed"));
  CHECK_THROWS_WITH(split_command("run a\\"), Catch::Contains("ends with a backslash"));
  CHECK_THROWS_AS(split_command("  \t"), dpb::InvalidArgument);
  CHECK_THROWS_WITH(split_command(""), Catch::Contains("no program is named"));
}
