#pragma once
// Whether a check compares what its theorem speaks about: the metric must measure the theorem's loss and
// the algorithm must be one the theorem applies to. Otherwise a rate check would "PASS" an unrelated
// algorithm on an unrelated loss (observed: baseline.dp_gauss, metric sin, against cai2024's projector
// Frobenius bound for cai2024.gaussian_mechanism). An experiment may still run such a check by giving
// its reason in `override:`; the verdict then says so.
//
// The metrics that measure each loss (docs/checks.md "Which metric measures a theorem's loss"):
//   sin, projector_op           sin or projector_op: ||sin Theta||_op = ||Q Q^T - U U^T||_op (identical)
//   projector_fro / _schatten   projector_fro / projector_nuclear (q = 2 / q = 1; q = inf: as op)
//   cov_op, cov_fro, cov_schatten   cov_op, cov_fro, cov_nuclear (q = 1)
//   statistic                   scalar_*, sample_mean_error, diagnostic.<name>
// A loss normalised by r^{1/q} (cai2024) is measured by the metric with or without `_normalized`: the two
// differ by that constant, which a rate in n, d or eps does not see (one varying r does: it must match).
#include <string>

#include "bounds/theorem.hpp"
#include "verify/checks/check_spec.hpp"

namespace dpb::verify {

// "" when `check`'s metric measures `theorem`'s loss and (for upper bounds) `algorithm_id` is among those
// the theorem applies to; else what is wrong, in a sentence naming what would match.
std::string applicability_problem(const CheckSpec& check, const std::string& algorithm_id,
                                  const bounds::Theorem& theorem);

}  // namespace dpb::verify
