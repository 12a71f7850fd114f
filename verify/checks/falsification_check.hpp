#pragma once
// The falsification check (DESIGN.md §5): a lower bound with an explicit value says that every
// algorithm in its class has mean error >= that value on the construction's distributions (for a
// with-probability bound, "Pr[error > value] > zeta": the (1 - zeta) quantile >= value). Per cell
// inside the theorem's conditions, that statistic of the algorithm's errors is compared with the value:
//   FAIL when in some cell the upper end of the statistic's bootstrap CI lies below the value (the
//        bound, or the algorithm's privacy claim, is contradicted);
//   PASS when every cell's statistic is >= the value;
//   INCONCLUSIVE otherwise, whenever the algorithm is not (or not known to be) in the class, and for a
//        with-probability bound when a cell has fewer trials than its quantile needs.
// An upper bound with an explicit value is checked by upper_falsification.hpp (run_checks dispatches).
#include <cstdint>

#include "bounds/theorem.hpp"
#include "verify/checks/check_options.hpp"
#include "verify/checks/check_spec.hpp"
#include "verify/store/results.hpp"

namespace dpb::verify {

Verdict check_falsification(const ResultSet& results, const CheckSpec& check, const bounds::Theorem& theorem,
                            std::uint64_t seed, const CheckOptions& options);

}  // namespace dpb::verify
