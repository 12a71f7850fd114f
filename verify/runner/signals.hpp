#pragma once
// Ctrl-C handling for runs (DESIGN.md §5 "Runner"): while an InterruptGuard lives, the first SIGINT or
// SIGTERM only raises a flag, so the runner finishes the trials in flight, commits them and returns;
// a second one terminates at once (the default action is restored after the first).
namespace dpb::verify {

inline constexpr int kInterruptedExitCode = 130;  // 128 + SIGINT, what shells report for Ctrl-C

class InterruptGuard {
 public:
  InterruptGuard();   // installs the handlers and clears the flag
  ~InterruptGuard();  // restores the previous handlers
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  static bool interrupted();
};

}  // namespace dpb::verify
