#pragma once
// Helpers for the statistical tests. Every such test uses a fixed seed, so it is deterministic; the
// thresholds below are the ones it would need to pass with high probability for *any* seed, which
// is what makes a failure meaningful (a wrong distribution, not bad luck).
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

namespace dpb::test {

// Two-sided Kolmogorov–Smirnov statistic sup_x |F_n(x) - F(x)| of `samples` against the CDF `cdf`.
inline double ks_statistic(std::vector<double> samples, const std::function<double(double)>& cdf) {
  std::sort(samples.begin(), samples.end());
  const double n = static_cast<double>(samples.size());
  double d = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const double f = cdf(samples[i]);
    const double at = static_cast<double>(i);
    d = std::max({d, (at + 1) / n - f, f - at / n});
  }
  return d;
}

// Asymptotic KS critical value at level alpha (Dvoretzky–Kiefer–Wolfowitz–Massart:
// P(D_n > t) <= 2 exp(-2 n t^2)), so a correct sampler exceeds it with probability <= alpha.
inline double ks_critical(std::size_t n, double alpha) {
  return std::sqrt(std::log(2.0 / alpha) / (2.0 * static_cast<double>(n)));
}

inline double mean(const std::vector<double>& x) {
  return std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
}

inline double variance(const std::vector<double>& x) {
  const double m = mean(x);
  double s = 0;
  for (double v : x) s += (v - m) * (v - m);
  return s / static_cast<double>(x.size() - 1);
}

// Bernstein: the frequency of `runs` independent Bernoulli(p) draws is within t of p except with
// probability 2 exp(-runs t^2 / (2 (p (1 - p) + t/3))) <= alpha; this returns that t.
inline double bernstein_halfwidth(double p, double runs, double alpha) {
  const double l = std::log(2.0 / alpha);
  return (2 * l / 3 + std::sqrt(4 * l * l / 9 + 8 * runs * l * p * (1 - p))) / (2 * runs);
}

// Standard normal CDF.
inline double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

}  // namespace dpb::test
