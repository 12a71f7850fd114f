#include "verify/runner/signals.hpp"

#include <atomic>
#include <csignal>

namespace dpb::verify {
namespace {

std::atomic<bool> interrupt_flag{false};
struct sigaction previous_int, previous_term;

extern "C" void on_interrupt(int) { interrupt_flag.store(true); }

}  // namespace

InterruptGuard::InterruptGuard() {
  interrupt_flag.store(false);
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;  // the second signal takes the default action: terminate
  sigaction(SIGINT, &action, &previous_int);
  sigaction(SIGTERM, &action, &previous_term);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &previous_int, nullptr);
  sigaction(SIGTERM, &previous_term, nullptr);
}

bool InterruptGuard::interrupted() { return interrupt_flag.load(); }

}  // namespace dpb::verify
