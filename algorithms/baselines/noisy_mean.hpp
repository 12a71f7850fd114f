#pragma once
// The textbook mechanisms on the simplest query, a clipped mean (Dwork & Roth 2014, Thm 3.6 and App. A):
// baseline.gaussian_mean releases (1/n) sum_i clip_C(x_i) + N(0, sd^2 I) with l2 clipping, and
// baseline.laplace_mean the same mean with l1 clipping + iid Lap(b) per coordinate. Their privacy loss is
// known in closed form and attained by one pair of records, so they are the auditor's calibration
// targets (docs/auditing.md "Measured"): an audit of either that is not near-tight is the auditor's fault.
#include "algorithms/registry.hpp"

namespace dpb::alg::baselines {

AlgorithmEntry gaussian_mean_entry();
AlgorithmEntry laplace_mean_entry();

}  // namespace dpb::alg::baselines
