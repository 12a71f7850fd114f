#pragma once
// "Did you mean" hints for unknown names in configs and on the command line.
#include <string>
#include <vector>

namespace dpb::verify {

// Levenshtein distance between a and b (insertions, deletions, substitutions all cost 1).
std::size_t edit_distance(const std::string& a, const std::string& b);

// " (did you mean 'x'?)" for the candidate nearest to `name` when it is close (distance at most a
// third of the longer name); otherwise "" (for messages that list the candidates themselves).
std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates);
// did_you_mean, or " (known: a, b, ...)" when no candidate is close.
std::string suggestion(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace dpb::verify
