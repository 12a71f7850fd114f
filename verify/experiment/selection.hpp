#pragma once
// `--only PATTERN` (benchopt style): keep only the experiment's algorithms that some pattern selects.
//   liu2022.*                          every algorithm whose id matches the shell glob (* ? [..])
//   cai2024.gaussian_mechanism[C2=4]   ... and whose resolved parameters (defaults included) have
//                                      C2 = 4; several as [C2=4,C3=3]; lists as [lambdas=[4,2]]
// Checks that name a dropped algorithm are dropped with it.
#include <string>
#include <vector>

#include "verify/experiment/spec.hpp"

namespace dpb::verify {

struct AlgorithmPattern {
  std::string glob;             // shell glob on the registry id
  core::ParamMap required;      // parameter values the entry must have
};

// Parses "glob" or "glob[name=value,...]". Throws dpb::InvalidArgument when malformed.
AlgorithmPattern parse_pattern(const std::string& text);
bool matches(const AlgorithmPattern& pattern, const AlgorithmSpec& algorithm);

// Keeps the algorithms some pattern selects, and their checks; returns, per pattern, whether it
// selected any. No patterns: no change.
std::vector<bool> keep_selected(ExperimentSpec& spec, const std::vector<AlgorithmPattern>& patterns);

// keep_selected for patterns given as text. No patterns: no change. Throws dpb::InvalidArgument if a pattern selects none of the experiment's
// algorithms (naming them), so a typo never silently runs nothing.
void select_algorithms(ExperimentSpec& spec, const std::vector<std::string>& patterns);

}  // namespace dpb::verify
