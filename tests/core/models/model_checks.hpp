#pragma once
// Shared checks for the model tests: an exception-message matcher, and Monte Carlo checks of a model's stated
// population moments (Sigma, V, gamma^2). Each estimate is an average of n iid terms t_i; by the CLT its
// standard error is sd(t)/sqrt(n), with sd(t) estimated from the same sample. A check allows kSds standard
// errors per entry: at 6 a correct model fails an entry with probability ~2e-9, so with a fixed seed a
// failure means a wrong formula or sampler, not bad luck.
#include <Eigen/Dense>
#include <catch2/catch.hpp>
#include <cmath>
#include <exception>
#include <string>

#include "core/linalg.hpp"
#include "core/rng.hpp"
#include "core/samplers.hpp"

namespace dpb::test {

// Matches an exception whose what() contains `text` (for CHECK_THROWS_MATCHES with a typed exception).
class MessageContains final : public Catch::MatcherBase<std::exception> {
 public:
  explicit MessageContains(std::string text) : text_(std::move(text)) {}
  bool match(const std::exception& e) const override {
    return std::string(e.what()).find(text_) != std::string::npos;
  }
  std::string describe() const override { return "message contains \"" + text_ + "\""; }

 private:
  std::string text_;
};

inline constexpr double kSds = 6.0;

struct OuterAverage {
  Eigen::MatrixXd mean;            // (1/n) sum_i w_i x_i x_i^T
  Eigen::MatrixXd standard_error;  // entrywise sd(w x_a x_b) / sqrt(n)
};

// Average of w_i x_i x_i^T over the columns x_i of X, with entrywise standard errors.
inline OuterAverage weighted_outer_average(const Eigen::MatrixXd& X, const Eigen::VectorXd& w) {
  const Eigen::Index d = X.rows(), n = X.cols();
  Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(d, d), sum_sq = Eigen::MatrixXd::Zero(d, d);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index b = 0; b < d; ++b)
      for (Eigen::Index a = 0; a < d; ++a) {
        const double t = w[i] * X(a, i) * X(b, i);
        sum(a, b) += t;
        sum_sq(a, b) += t * t;
      }
  const double nn = static_cast<double>(n);
  OuterAverage out{sum / nn, Eigen::MatrixXd(d, d)};
  const Eigen::ArrayXXd variance = (sum_sq.array() / nn - out.mean.array().square()) * nn / (nn - 1);
  out.standard_error = (variance.max(0.0) / nn).sqrt().matrix();
  return out;
}

// The sample second moment (core::second_moment) matches C entrywise within kSds standard errors of
// x_a x_b.
inline void check_second_moment(const Eigen::MatrixXd& X, const Eigen::MatrixXd& C) {
  const Eigen::MatrixXd S = core::second_moment(X);
  const OuterAverage avg = weighted_outer_average(X, Eigen::VectorXd::Ones(X.cols()));
  for (Eigen::Index b = 0; b < C.cols(); ++b)
    for (Eigen::Index a = 0; a <= b; ++a) {
      INFO("entry (" << a << ", " << b << "): empirical " << S(a, b) << ", stated " << C(a, b) << ", se "
                     << avg.standard_error(a, b));
      CHECK(std::abs(S(a, b) - C(a, b)) <= kSds * avg.standard_error(a, b));
    }
}

// | ||Mhat||_2 - ||M||_2 | <= ||Mhat - M||_F, and with every entry within kSds standard errors (a union
// bound over the entries) ||Mhat - M||_F <= kSds ||SE||_F: the tolerance for the spectral norm of an average.
inline double spectral_norm_tolerance(const OuterAverage& avg) { return kSds * avg.standard_error.norm(); }

inline double spectral_norm(const Eigen::MatrixXd& M) {
  return dpb::core::symmetric_eigenvalues(M)
      .cwiseAbs()
      .maxCoeff();
}

// liu2022 A.3 for A = x x^T with C = E[x x^T]: lambda1^2 V = ||E[(A - C)^2]|| = ||E[|x|^2 x x^T] - C^2||.
// `V` is normalised by lambda1^2 as ModelInfo's is. The union bound makes the tolerance loose (it grows
// like d), so `tolerance_fraction` guards against a vacuous check: at n = 5e5, d <= 5 it is 3-7%.
inline void check_V(const Eigen::MatrixXd& X, const Eigen::MatrixXd& C, double lambda1, double V,
                    double tolerance_fraction = 0.1) {
  const OuterAverage avg = weighted_outer_average(X, X.colwise().squaredNorm().transpose());
  const double empirical = spectral_norm(avg.mean - C * C), stated = lambda1 * lambda1 * V;
  const double tol = spectral_norm_tolerance(avg);
  INFO("lambda1^2 V: empirical " << empirical << ", stated " << stated << ", tolerance " << tol);
  CHECK(std::abs(empirical - stated) <= tol);
  CHECK(tol <= tolerance_fraction * stated);
}

// lambda1^2 H_u = E[(A - C) u u^T (A - C)] = E[(x^T u)^2 x x^T] - C u u^T C (liu2022 A.4), estimated.
struct HuEstimate {
  double norm, tolerance;
};
inline HuEstimate estimate_Hu_norm(const Eigen::MatrixXd& X, const Eigen::MatrixXd& C,
                                   const Eigen::VectorXd& u) {
  const OuterAverage avg =
      weighted_outer_average(X, (u.transpose() * X).array().square().transpose().matrix());
  const Eigen::VectorXd Cu = C * u;
  return {spectral_norm(avg.mean - Cu * Cu.transpose()), spectral_norm_tolerance(avg)};
}

// gamma^2 = max_u ||H_u||: attained at u = top (within tolerance), and not exceeded at a random u.
inline void check_gamma2(const Eigen::MatrixXd& X, const Eigen::MatrixXd& C, double lambda1, double gamma2,
                         const Eigen::VectorXd& top, core::Rng& rng, double tolerance_fraction = 0.1) {
  const double stated = lambda1 * lambda1 * gamma2;
  const HuEstimate at_top = estimate_Hu_norm(X, C, top);
  INFO("lambda1^2 ||H_u|| at the top eigenvector: empirical "
       << at_top.norm << ", stated gamma2 * lambda1^2 " << stated << ", tolerance " << at_top.tolerance);
  CHECK(std::abs(at_top.norm - stated) <= at_top.tolerance);
  CHECK(at_top.tolerance <= tolerance_fraction * stated);
  const HuEstimate at_random = estimate_Hu_norm(X, C, core::unit_sphere(rng, X.rows()));
  INFO("at a random u: " << at_random.norm << " +- " << at_random.tolerance);
  CHECK(at_random.norm <= stated + at_random.tolerance);
}

}  // namespace dpb::test
