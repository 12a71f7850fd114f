#include "verify/runner/progress.hpp"

#include <fmt/format.h>

#include <numeric>

namespace dpb::verify {
namespace {

constexpr int kBarWidth = 30;
constexpr std::chrono::milliseconds kRedrawInterval{100};  // a bar redrawn faster only flickers

}  // namespace

Progress::Progress(std::vector<std::size_t> pending_per_cell, std::vector<std::string> labels, bool terminal,
                   std::FILE* out)
    : remaining_(pending_per_cell),
      total_per_cell_(std::move(pending_per_cell)),
      failed_per_cell_(total_per_cell_.size(), 0),
      labels_(std::move(labels)),
      terminal_(terminal),
      out_(out),
      total_(std::accumulate(total_per_cell_.begin(), total_per_cell_.end(), std::size_t{0})),
      cell_start_(total_per_cell_.size(), Clock::now()) {
  for (std::size_t n : total_per_cell_) cells_ += n > 0;
  draw(true);
}

std::string Progress::format_duration(double seconds) {
  const long s = std::lround(std::max(seconds, 0.0));
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

void Progress::finished(std::size_t cell, bool failed) {
  ++done_;
  failed_per_cell_[cell] += failed;
  if (--remaining_[cell] == 0) {
    ++cells_done_;
    if (!terminal_ && out_) {
      const double seconds = std::chrono::duration<double>(Clock::now() - cell_start_[cell]).count();
      fmt::print(out_, "cell {}/{} ({}): {} trials, {} failed, {:.1f} s\n", cells_done_, cells_, labels_[cell],
                 total_per_cell_[cell], failed_per_cell_[cell], seconds);
      std::fflush(out_);
    }
  }
  draw(done_ == total_);
}

void Progress::draw(bool force) {
  if (!terminal_ || !out_ || total_ == 0) return;
  const auto now = Clock::now();
  if (!force && now - last_draw_ < kRedrawInterval) return;
  last_draw_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed > 0 ? double(done_) / elapsed : 0.0;
  const int filled = static_cast<int>(kBarWidth * double(done_) / double(total_));
  const std::string eta = rate > 0 ? format_duration(double(total_ - done_) / rate) : "?";
  fmt::print(out_, "\r[{}{}] {}/{} trials  {:.1f}/s  ETA {}   ", std::string(filled, '#'),
             std::string(kBarWidth - filled, '.'), done_, total_, rate, eta);
  std::fflush(out_);
}

void Progress::close() {
  if (terminal_ && out_ && total_ > 0) fmt::print(out_, "\n");
}

}  // namespace dpb::verify
