#pragma once
// Progress of a run on stderr (DESIGN.md §5 "Runner"). On a terminal: one bar redrawn in place with
// trials done, rate and ETA. Otherwise (a log file, CI): one line per finished grid cell.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace dpb::verify {

class Progress {
 public:
  // pending_per_cell[c]: tasks of cell c this run will execute; `labels[c]` names the cell ("n=1000").
  // `terminal`: draw the bar (true) or print cell lines (false); `out` null: silent.
  Progress(std::vector<std::size_t> pending_per_cell, std::vector<std::string> labels, bool terminal, std::FILE* out);

  // One task of `cell` finished (failed: it stored an error). Not thread-safe: the runner calls it
  // under its lock.
  void finished(std::size_t cell, bool failed);
  // Ends the bar's line.
  void close();

  // "ETA 1:02:03" style duration.
  static std::string format_duration(double seconds);

 private:
  using Clock = std::chrono::steady_clock;
  void draw(bool force);

  std::vector<std::size_t> remaining_, total_per_cell_, failed_per_cell_;
  std::vector<std::string> labels_;
  bool terminal_;
  std::FILE* out_;
  std::size_t total_ = 0, done_ = 0, cells_done_ = 0, cells_ = 0;
  Clock::time_point start_ = Clock::now(), last_draw_{};
  std::vector<Clock::time_point> cell_start_;
};

}  // namespace dpb::verify
