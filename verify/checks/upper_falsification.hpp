#pragma once
// The falsification check for an upper bound with an explicit value (a containment with its constants:
// liu2022 Theorem 6.1's "Lambda_hat within a factor 2^{1/2}", Lemma 3.2's "no clipping", cai2024 §7.1's
// "rhat = r"). Per cell inside the theorem's conditions:
//   high-probability theorem (failure probability zeta): a trial violates the bound when its value
//     exceeds the explicit value or it released nothing to measure (a failed trial). FAIL when in some
//     cell the one-sided Clopper-Pearson lower bound on the violation probability exceeds zeta (at the
//     Bonferroni level over the cells); PASS when every cell's violation fraction is <= zeta;
//   expectation theorem: FAIL when in some cell the lower end of the bootstrap CI of the mean lies above
//     the value; PASS when every cell's mean is <= it;
//   INCONCLUSIVE otherwise.
#include <cstdint>

#include "bounds/theorem.hpp"
#include "verify/checks/check_options.hpp"
#include "verify/checks/check_spec.hpp"
#include "verify/store/results.hpp"

namespace dpb::verify {

Verdict check_upper_falsification(const ResultSet& results, const CheckSpec& check, const bounds::Theorem& theorem,
                                  std::uint64_t seed, const CheckOptions& options);

}  // namespace dpb::verify
