#pragma once
// The exponential mechanism over a finite candidate set (McSherry & Talwar 2007; kumar2025 Lemma 37).
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/privacy.hpp"
#include "core/rng.hpp"

namespace dpb::alg {

// Selects index r with probability proportional to exp(eps q_r / (2 Delta_q)); eps-DP when every
// score has sensitivity Delta_q (spec: kumar2025 Lemma 37). Exact Gumbel-max sampling: the argmax of
// eps (q_r - max q) / (2 Delta_q) + Gumbel_r, one Gumbel per score in index order. Shifting by the
// maximum keeps every term <= 0, so scores of any finite size never overflow.
// The release is recorded in `ledger` as `step` (calibrated for (budget.epsilon, 0), temperature
// 2 Delta_q / eps). Throws dpb::InvalidArgument on no scores, a non-finite score, or eps / Delta_q not
// finite and > 0.
std::size_t exponential_mechanism(std::span<const double> scores, const Privacy& budget, double sensitivity,
                                  const std::string& step, Ledger& ledger, core::Rng& rng);

// The exact selection probabilities of `exponential_mechanism` (a stable softmax), for audits and tests.
std::vector<double> exponential_mechanism_probabilities(std::span<const double> scores, double epsilon,
                                                        double sensitivity);

}  // namespace dpb::alg
