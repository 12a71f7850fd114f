#include "verify/runner/signals.hpp"

#include <catch2/catch.hpp>
#include <csignal>

using namespace dpb::verify;

TEST_CASE("the first SIGINT only raises the flag while a guard lives", "[runner]") {
  {
    const InterruptGuard guard;
    CHECK_FALSE(InterruptGuard::interrupted());
    std::raise(SIGINT);  // would end the test process without the guard
    CHECK(InterruptGuard::interrupted());
  }
  const InterruptGuard fresh;  // a new guard starts clear
  CHECK_FALSE(InterruptGuard::interrupted());
  CHECK(kInterruptedExitCode == 130);
}
