#include "algorithms/external/child_process.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "example_program.hpp"

using dpb::alg::external::ChildProcess;

namespace {

ChildProcess::Deadline in_seconds(double seconds) {
  return std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                std::chrono::duration<double>(seconds));
}

constexpr double kGenerous = 30;  // deadline of exchanges that must succeed: never reached when they do

}  // namespace

TEST_CASE("a program that echoes while it is still being fed does not deadlock the exchange", "[external]") {
  // 8 MiB is far beyond a pipe's buffer (64 KiB): both directions must flow together for `cat` to finish.
  std::string input(8 << 20, 'x');
  for (std::size_t i = 0; i < input.size(); i += 997) input[i] = char('a' + i % 26);
  ChildProcess cat({"cat"});
  CHECK(cat.exchange_to_exit(input, in_seconds(kGenerous)) == input);
  CHECK_FALSE(cat.running());
}

TEST_CASE("exchange_line returns one line per request and keeps the program running", "[external]") {
  ChildProcess cat({"cat"});
  CHECK(cat.exchange_line("first\n", in_seconds(kGenerous)) == "first");
  CHECK(cat.running());
  CHECK(cat.exchange_line("second\nthird\n", in_seconds(kGenerous)) == "second");
  // "third" is a second reply to one request: taking it for the next one would put every reply out of step.
  CHECK_THROWS_WITH(cat.exchange_line("fourth\n", in_seconds(kGenerous)),
                    Catch::Contains("more than one line"));
}

TEST_CASE("a missing program is a clean error naming it", "[external]") {
  CHECK_THROWS_AS(ChildProcess({"dpbounds-no-such-program"}), dpb::InvalidArgument);
  CHECK_THROWS_WITH(
      ChildProcess({"dpbounds-no-such-program"}),
      Catch::Contains("'dpbounds-no-such-program' cannot be started") && Catch::Contains("No such file"));
}

TEST_CASE("a non-zero exit is an error that quotes the end of stderr", "[external]") {
  ChildProcess failing({dpb::test::example_program(), "exit_nonzero"});
  CHECK_THROWS_WITH(failing.exchange_to_exit("ignored\n", in_seconds(kGenerous)),
                    Catch::Contains("exited with status 3") && Catch::Contains("simulated failure"));
}

TEST_CASE("a program that outlives its deadline is killed and reported", "[external][timeout]") {
  ChildProcess cat({"cat"});  // cat never ends a line it was not given
  CHECK_THROWS_WITH(cat.exchange_line("no newline", in_seconds(0.2)), Catch::Contains("timeout_seconds"));
  CHECK_FALSE(cat.running());
}
