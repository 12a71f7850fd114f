#include "verify/checks/diagnosed_cause.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <map>
#include <vector>

namespace dpb::verify {
namespace {

constexpr double kNotable = 0.5;  // a cause is named when it concerns at least half the trials or steps
// Oja-type steps shrink the tangent of the angle to the target by about exp(-Delta sum_t eta_t): below
// Delta sum eta = 2 (at most ~7x from a random start) the output stays near where it started, whatever n is.
constexpr double kShortSteps = 2;

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
  // Steps too short to leave the random start: the mean over trials of Delta * sum_t eta_t (Delta: the cell's gap).
  for (const auto& [name, sum] : totals) {
    if (!ends_with(name, "step_size_sum")) continue;
    double reach = 0, gap_sum = 0;
    std::size_t with_gap = 0;
    for (const auto& row : results.rows) {
      if (row.algorithm != algorithm || !cells.count(row.cell)) continue;
      const auto gap = row.cell_params.find("gap");
      const auto steps = row.diagnostics.find(name);
      if (gap == row.cell_params.end() || steps == row.diagnostics.end()) continue;
      reach += gap->second * steps->second;
      gap_sum += gap->second;
      ++with_gap;
    }
    if (with_gap == 0 || reach / double(with_gap) >= kShortSteps) continue;
    const double mean_reach = reach / double(with_gap);
    causes.push_back(fmt::format(
        "its step sizes sum to {:.2g} on average ('{}') against the gap {:.3g}: the iteration shrinks its random "
        "start's angle by a factor of about exp({:.2g}) = {:.2g} at most, whatever n is",
        sum / double(trials), name, gap_sum / double(with_gap), mean_reach, std::exp(mean_reach)));
  }
  return fmt::format("{}", fmt::join(causes, "; "));
}

}  // namespace dpb::verify
