#pragma once
// The zero-excluded Marchenko–Pastur law (cai2024 Definition 1): the limit of the empirical
// distribution of the p ∧ n nonzero eigenvalues of Z Z^T / n, Z p x n with iid mean-0, variance-1
// entries, as p/n -> ratio. Density, upper tail and upper quantiles by Boost.Math Gauss–Kronrod
// quadrature and TOMS 748 root finding (spec: cai2024 §2.4).
#include <Eigen/Dense>

namespace dpb::alg {

class MarchenkoPastur {
 public:
  // ratio = p/n > 0 (finite); `tolerance` is the relative error asked of each quadrature (> 0).
  explicit MarchenkoPastur(double ratio, double tolerance = 1e-10);

  double ratio() const { return ratio_; }
  double lower_edge() const { return lower_; }  // (1 - sqrt(ratio))^2
  double upper_edge() const { return upper_; }  // (1 + sqrt(ratio))^2

  // f(x) = sqrt((x - a)(b - x)) / (2 pi (1 ∧ ratio) x) on [a, b], 0 elsewhere (scale sigma^2 = 1).
  double density(double x) const;
  // P(X >= x) = int_x^inf f.
  double upper_tail(double x) const;
  // The `probability`-upper quantile q: upper_tail(q) = probability, probability in [0, 1].
  double upper_quantile(double probability) const;

 private:
  // The integrals are taken in theta, x = a + (b - a)(1 - cos theta)/2, theta in [0, pi]: the square-
  // root edges of f become the smooth integrand ((b - a)/2)^2 sin^2 theta / (2 pi (1 ∧ ratio) x).
  double theta_of(double x) const;
  double tail_from_theta(double theta) const;

  double ratio_;
  double tolerance_;
  double lower_;
  double upper_;
};

}  // namespace dpb::alg
