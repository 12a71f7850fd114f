#include "algorithms/mechanisms/exponential_mechanism.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "algorithms/privacy.hpp"
#include "core/errors.hpp"
#include "core/samplers.hpp"

namespace dpb::alg {
namespace {

// Validates the inputs and returns the largest score.
double check_and_max(std::span<const double> scores, double epsilon, double sensitivity) {
  if (scores.empty())
    throw InvalidArgument("exponential mechanism: there must be at least one candidate score");
  validate_epsilon(epsilon, "exponential mechanism");
  if (!(std::isfinite(sensitivity) && sensitivity > 0))
    throw InvalidArgument(fmt::format(
        "exponential mechanism: score sensitivity must be a finite number > 0, got {}", sensitivity));
  for (std::size_t r = 0; r < scores.size(); ++r)
    if (!std::isfinite(scores[r]))
      throw InvalidArgument(
          fmt::format("exponential mechanism: score {} is {}; scores must be finite", r, scores[r]));
  return *std::max_element(scores.begin(), scores.end());
}

// eps (q - q_max) / (2 Delta) <= 0. Dividing before multiplying avoids an inf * 0; a difference
// that overflows gives -inf, i.e. probability 0, which is the correct limit.
double shifted_logit(double score, double max_score, double epsilon, double sensitivity) {
  return epsilon * ((score - max_score) / (2.0 * sensitivity));
}

}  // namespace

std::size_t exponential_mechanism(std::span<const double> scores, const Privacy& budget, double sensitivity,
                                  const std::string& step, Ledger& ledger, core::Rng& rng) {
  const double epsilon = budget.epsilon;
  const double max_score = check_and_max(scores, epsilon, sensitivity);
  const LedgerEntry entry{.step = step,
                          .mechanism = Mechanism::exponential,
                          .sensitivity = sensitivity,
                          .norm = SensitivityNorm::max_score,
                          .noise_scale = 2 * sensitivity / epsilon,
                          .neighbours = budget.neighbours,
                          .calibrated_for = {epsilon, 0}};
  ledger.record(entry);
  std::size_t best = 0;
  double best_key = -std::numeric_limits<double>::infinity();
  for (std::size_t r = 0; r < scores.size(); ++r) {
    const double key = shifted_logit(scores[r], max_score, epsilon, sensitivity) + core::gumbel(rng);
    if (key > best_key) {
      best = r;
      best_key = key;
    }
  }
  if (LedgerProbe* probe = active_probe()) {
    std::vector<double> release{static_cast<double>(best)};
    probe->observe(entry, std::vector<double>(scores.begin(), scores.end()), {}, release, ProbedRelease::selected);
    best = static_cast<std::size_t>(release.at(0));
  }
  return best;
}

std::vector<double> exponential_mechanism_probabilities(std::span<const double> scores, double epsilon,
                                                        double sensitivity) {
  const double max_score = check_and_max(scores, epsilon, sensitivity);
  std::vector<double> p(scores.size());
  double total = 0;  // >= 1: the maximal score contributes exp(0)
  for (std::size_t r = 0; r < scores.size(); ++r)
    total += p[r] = std::exp(shifted_logit(scores[r], max_score, epsilon, sensitivity));
  for (double& v : p) v /= total;
  return p;
}

}  // namespace dpb::alg
