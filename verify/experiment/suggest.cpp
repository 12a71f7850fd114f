#include "verify/experiment/suggest.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace dpb::verify {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates) {
  if (candidates.empty()) return "";
  const auto nearest = std::min_element(candidates.begin(), candidates.end(), [&](const auto& x, const auto& y) {
    return edit_distance(name, x) < edit_distance(name, y);
  });
  // Up to a third of the longer name: "trails" finds "trials", "foo" finds nothing, and a one-letter
  // name is never "corrected" into another one-letter name.
  const std::size_t allowed = std::max(name.size(), nearest->size()) / 3;
  return edit_distance(name, *nearest) <= allowed ? fmt::format(" (did you mean '{}'?)", *nearest) : "";
}

std::string suggestion(const std::string& name, const std::vector<std::string>& candidates) {
  if (candidates.empty()) return "";
  const std::string hint = did_you_mean(name, candidates);
  return !hint.empty() ? hint : fmt::format(" (known: {})", fmt::join(candidates, ", "));
}

}  // namespace dpb::verify
