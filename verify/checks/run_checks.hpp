#pragma once
// Runs the checks of an experiment against its results (DESIGN.md §5 "Checks"). A check never throws
// on a problem with the data or the theorem (unknown id, missing parameter, too few trials): it
// answers INCONCLUSIVE and says why. Only an invalid CheckSpec (unknown kind, missing field) or
// invalid options throw dpb::InvalidArgument.
#include <cstdint>
#include <vector>

#include "bounds/theorem.hpp"
#include "verify/checks/check_options.hpp"
#include "verify/checks/check_spec.hpp"
#include "verify/store/results.hpp"

namespace dpb::verify {

// Theorems are looked up by id in verify::all_theorems() (the upper, then the lower bounds).
std::vector<Verdict> run_checks(const ResultSet& results, const std::vector<CheckSpec>& checks,
                                std::uint64_t seed);
// The same against an explicit theorem list (tests inject synthetic theorems) and options.
std::vector<Verdict> run_checks(const ResultSet& results, const std::vector<CheckSpec>& checks,
                                std::uint64_t seed, const std::vector<bounds::Theorem>& theorems,
                                const CheckOptions& options = {});

}  // namespace dpb::verify
