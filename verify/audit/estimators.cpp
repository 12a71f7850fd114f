#include "verify/audit/estimators.hpp"

#include "algorithms/mechanisms/gaussian.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <functional>
#include <iterator>
#include <limits>
#include <vector>

#include "core/errors.hpp"

namespace dpb::verify {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Bonferroni: each estimate (Clopper–Pearson, Gaussian-DP fit) rests on 2 directions x 2 bounds
// (TPR lower, FPR upper), so each bound gets alpha / 4 and the maximum over the directions holds with
// probability >= 1 - alpha. The two estimates are separate statements, each at the stated confidence.
constexpr double kBoundsPerEstimate = 4;

const boost::math::normal standard_normal_distribution;

double normal_quantile(double p) {
  if (p <= 0) return -kInfinity;
  if (p >= 1) return kInfinity;
  return boost::math::quantile(standard_normal_distribution, p);
}

struct SortedSplit {
  std::vector<double> select, evaluate;  // each sorted ascending
};

SortedSplit split(std::span<const double> scores) {
  const auto half = scores.begin() + static_cast<std::ptrdiff_t>(scores.size() / 2);
  SortedSplit s{{scores.begin(), half}, {half, scores.end()}};
  std::sort(s.select.begin(), s.select.end());
  std::sort(s.evaluate.begin(), s.evaluate.end());
  return s;
}

long count_in(const std::vector<double>& sorted, bool upper_tail, double threshold) {
  if (upper_tail)
    return static_cast<long>(sorted.end() - std::lower_bound(sorted.begin(), sorted.end(), threshold));
  return static_cast<long>(std::upper_bound(sorted.begin(), sorted.end(), threshold) - sorted.begin());
}

HeldOutTest count_test(bool upper_tail, double threshold, const std::vector<double>& positives,
                       const std::vector<double>& negatives) {
  HeldOutTest t;
  t.upper_tail = upper_tail;
  t.threshold = threshold;
  t.positives = static_cast<long>(positives.size());
  t.negatives = static_cast<long>(negatives.size());
  t.positives_in = count_in(positives, upper_tail, threshold);
  t.negatives_in = count_in(negatives, upper_tail, threshold);
  return t;
}

void clopper_pearson_bounds(HeldOutTest& t, double alpha) {
  t.tpr_lower = binomial_lower_bound(t.positives_in, t.positives, alpha);
  t.fpr_upper = binomial_upper_bound(t.negatives_in, t.negatives, alpha);
}

// Wilson score bounds (normal approximation, z = Phi^-1(1 - alpha)): a closed form, used only to rank
// candidate tests on the selection half; the exact Clopper–Pearson inversions cost about 100 times
// more, and the validity of the result rests on the held-out evaluation alone.
double wilson_bound(long successes, long trials, double z, double side) {
  const double n = double(trials), p = double(successes) / n, z2n = z * z / n;
  const double centre = (p + z2n / 2) / (1 + z2n);
  const double half = z / (1 + z2n) * std::sqrt(p * (1 - p) / n + z2n / (4 * n));
  return std::clamp(centre + side * half, 0.0, 1.0);
}

void wilson_bounds(HeldOutTest& t, double z) {
  t.tpr_lower = wilson_bound(t.positives_in, t.positives, z, -1);
  t.fpr_upper = wilson_bound(t.negatives_in, t.negatives, z, +1);
}

// Every distinct score of the selection halves is a candidate threshold: the most powerful tests sit far
// in a tail, where a fixed grid of quantiles would leave too few candidates (256 quantiles cap the bound
// at about 70% of eps at delta = 1e-5). Counting by binary search keeps selection O(T log T).
std::vector<double> candidate_thresholds(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> pooled;
  pooled.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(pooled));
  pooled.erase(std::unique(pooled.begin(), pooled.end()), pooled.end());
  return pooled;
}

// The test (tail, threshold) maximising `objective` on the selection halves, then evaluated on the
// held-out halves: choosing on data independent of the evaluation keeps the bounds valid.
HeldOutTest choose_and_evaluate(const SortedSplit& positives, const SortedSplit& negatives, double alpha,
                                const std::function<double(const HeldOutTest&)>& objective) {
  const double z = normal_quantile(1 - alpha);
  HeldOutTest best;
  double best_value = -kInfinity;
  for (double threshold : candidate_thresholds(positives.select, negatives.select)) {
    for (bool upper_tail : {true, false}) {
      HeldOutTest candidate = count_test(upper_tail, threshold, positives.select, negatives.select);
      wilson_bounds(candidate, z);
      const double value = objective(candidate);
      if (value > best_value) {
        best_value = value;
        best = candidate;
      }
    }
  }
  HeldOutTest chosen = count_test(best.upper_tail, best.threshold, positives.evaluate, negatives.evaluate);
  clopper_pearson_bounds(chosen, alpha);
  return chosen;
}

double mu_of(const HeldOutTest& t) { return gdp_mu(t.fpr_upper, 1 - t.tpr_lower); }

DirectionBound bound_direction(std::string name, const SortedSplit& positives, const SortedSplit& negatives,
                               double delta, double alpha) {
  DirectionBound b;
  b.direction = std::move(name);
  b.clopper_pearson = choose_and_evaluate(positives, negatives, alpha, [delta](const HeldOutTest& t) {
    return epsilon_from_rates(t.tpr_lower, t.fpr_upper, delta);
  });
  b.epsilon = epsilon_from_rates(b.clopper_pearson.tpr_lower, b.clopper_pearson.fpr_upper, delta);
  b.gaussian_dp = choose_and_evaluate(positives, negatives, alpha, mu_of);
  b.mu_lower = mu_of(b.gaussian_dp);
  const HeldOutTest& g = b.gaussian_dp;
  b.mu_point =
      gdp_mu(double(g.negatives_in) / double(g.negatives), 1 - double(g.positives_in) / double(g.positives));
  b.gdp_epsilon = gdp_epsilon(b.mu_lower, delta);
  return b;
}

void check_scores(std::span<const double> scores, const char* which) {
  if (static_cast<long>(scores.size()) < kMinScoresPerDataset)
    throw InvalidArgument(fmt::format("privacy loss estimate: need at least {} scores on {}, got {}",
                                      kMinScoresPerDataset, which, scores.size()));
  for (double s : scores)
    if (!std::isfinite(s))
      throw InvalidArgument(fmt::format("privacy loss estimate: a score on {} is not finite ({})", which, s));
}

}  // namespace

double binomial_lower_bound(long successes, long trials, double alpha) {
  return boost::math::binomial_distribution<>::find_lower_bound_on_p(double(trials), double(successes),
                                                                     alpha);
}

double binomial_upper_bound(long successes, long trials, double alpha) {
  return boost::math::binomial_distribution<>::find_upper_bound_on_p(double(trials), double(successes),
                                                                     alpha);
}

double epsilon_from_rates(double tpr, double fpr, double delta) {
  if (tpr <= delta) return 0;
  if (fpr <= 0) return kInfinity;
  return std::max(0.0, std::log((tpr - delta) / fpr));
}

double gdp_mu(double fpr, double fnr) {
  return std::max(0.0, normal_quantile(1 - fpr) - normal_quantile(fnr));
}

// The Gaussian privacy profile lives with the mechanism (algorithms/mechanisms/gaussian.hpp): mu-GDP is
// the Gaussian mechanism with noise multiplier 1/mu.
double gdp_delta(double mu, double epsilon) {
  if (mu <= 0) return 0;
  if (std::isinf(mu)) return 1;
  return alg::gaussian_delta(1 / mu, epsilon);
}

double gdp_epsilon(double mu, double delta) {
  if (!(mu > 0) || gdp_delta(mu, 0) <= delta) return 0;
  if (delta <= 0 || std::isinf(mu)) return kInfinity;
  return alg::gaussian_epsilon(1 / mu, delta);
}

PrivacyLossEstimate estimate_privacy_loss(std::span<const double> scores_d,
                                          std::span<const double> scores_d_prime, double delta,
                                          double confidence) {
  check_scores(scores_d, "D");
  check_scores(scores_d_prime, "D'");
  if (!(delta >= 0 && delta < 1))
    throw InvalidArgument(fmt::format("delta must lie in [0, 1), got {}", delta));
  if (!(confidence > 0 && confidence < 1))
    throw InvalidArgument(fmt::format("confidence must lie in (0, 1), got {}", confidence));
  const double alpha = (1 - confidence) / kBoundsPerEstimate;
  const SortedSplit d = split(scores_d), d_prime = split(scores_d_prime);

  PrivacyLossEstimate e;
  e.confidence = confidence;
  e.delta = delta;
  e.forward = bound_direction("D' vs D", d_prime, d, delta, alpha);
  e.backward = bound_direction("D vs D'", d, d_prime, delta, alpha);
  e.epsilon_lower = std::max(e.forward.epsilon, e.backward.epsilon);
  e.gdp_mu_lower = std::max(e.forward.mu_lower, e.backward.mu_lower);
  e.gdp_epsilon_lower = gdp_epsilon(e.gdp_mu_lower, delta);
  // Perfect separation: every held-out positive inside the event, no negative (either direction).
  for (const auto* positives : {&d, &d_prime}) {
    const long n_positive = static_cast<long>(positives->evaluate.size());
    const long n_negative = static_cast<long>((positives == &d ? d_prime : d).evaluate.size());
    const double tpr = binomial_lower_bound(n_positive, n_positive, alpha);
    const double fpr = binomial_upper_bound(0, n_negative, alpha);
    e.max_detectable_epsilon = std::max(e.max_detectable_epsilon, epsilon_from_rates(tpr, fpr, delta));
    e.max_detectable_mu = std::max(e.max_detectable_mu, gdp_mu(fpr, 1 - tpr));
  }
  return e;
}

}  // namespace dpb::verify
