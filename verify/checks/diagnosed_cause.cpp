#include "verify/checks/diagnosed_cause.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <vector>

namespace dpb::verify {
namespace {

constexpr double kNotable = 0.5;  // a cause is named when it concerns at least half the trials or steps

bool ends_with(const std::string& name, const std::string& suffix) {
  return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string diagnosed_cause(const ResultSet& results, const std::string& algorithm, const std::set<std::size_t>& cells) {
  std::size_t trials = 0;
  std::map<std::string, double> totals;          // counter -> sum over trials
  std::map<std::string, std::size_t> positive;   // counter -> trials where it is > 0
  for (const auto& row : results.rows) {
    if (row.algorithm != algorithm || !cells.count(row.cell)) continue;
    ++trials;
    for (const auto& [name, value] : row.diagnostics) {
      totals[name] += value;
      positive[name] += value > 0;
    }
  }
  if (trials == 0) return "";
  std::vector<std::string> causes;
  for (const auto& [name, count] : positive)
    if (ends_with(name, "bottom") && double(count) >= kNotable * double(trials))
      causes.push_back(fmt::format("it released BOTTOM in {} of {} trials ('{}')", count, trials, name));
  for (const auto& [name, skipped] : totals) {
    if (!ends_with(name, "skipped_steps")) continue;
    const std::string prefix = name.substr(0, name.size() - std::string("skipped_steps").size());
    const auto steps = totals.find(prefix + "steps");
    if (steps == totals.end() || !(steps->second > 0) || skipped < kNotable * steps->second) continue;
    std::vector<std::string> why;
    for (const char* reason : {"bottom_ranges", "zero_ranges", "empty_center_histograms"})
      if (const auto it = totals.find(prefix + reason); it != totals.end() && it->second > 0)
        why.push_back(fmt::format("{} {:g}", prefix + reason, it->second));
    causes.push_back(fmt::format("it skipped {:g} of its {:g} steps{}", skipped, steps->second,
                                 why.empty() ? "" : fmt::format(" ({})", fmt::join(why, ", "))));
  }
  return fmt::format("{}", fmt::join(causes, "; "));
}

}  // namespace dpb::verify
