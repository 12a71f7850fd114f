#include "algorithms/mechanisms/bingham.hpp"

#include <vector>

#include <fmt/format.h>
#include <cmath>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/samplers.hpp"

namespace dpb::alg {

double bingham_envelope_b(const Eigen::VectorXd& lambda) {
  const double d = static_cast<double>(lambda.size());
  // f(b) = sum_i 1/(b + 2 lambda_i) - 1 decreases in b; f(0+) = +inf (a lambda_i is 0) and f(d) <= 0.
  auto f = [&](double b) { return (1.0 / (b + 2.0 * lambda.array())).sum() - 1.0; };
  double lo = 0, hi = d;
  for (int it = 0; it < 200 && hi - lo > 1e-14 * d; ++it) {
    const double mid = 0.5 * (lo + hi);
    (f(mid) > 0 ? lo : hi) = mid;
  }
  return hi;
}

BinghamDraw sample_bingham(const Eigen::MatrixXd& M, core::Rng& rng, long max_proposals) {
  const Eigen::Index d = M.rows();
  if (d < 1 || M.cols() != d) throw InvalidArgument("sample_bingham: M must be a non-empty square matrix");
  if (!M.allFinite()) throw InvalidArgument("sample_bingham: M must be finite");
  if (!M.isApprox(M.transpose(), 1e-12 * std::max(1.0, M.cwiseAbs().maxCoeff())))
    throw InvalidArgument("sample_bingham: M must be symmetric");
  // In M's eigenbasis, exp(x^T M x) = exp(mu_max) exp(-x^T A x) with A = diag(lambda), lambda_i =
  // mu_max - mu_i >= 0: the form Kent et al. sample.
  const core::EigenPairs eig = core::symmetric_eigenpairs(M);
  const Eigen::VectorXd lambda = (eig.values.maxCoeff() - eig.values.array()).matrix();
  const double q = static_cast<double>(d), b = bingham_envelope_b(lambda);
  // Envelope: the angular central Gaussian with Omega = I + 2A/b, and the bound
  // exp(-x^T A x) <= M* (x^T Omega x)^{-q/2} on the sphere, log M* = -(q - b)/2 + (q/2) log(q/b).
  const Eigen::ArrayXd omega = 1.0 + 2.0 * lambda.array() / b;
  const Eigen::ArrayXd envelope_sd = omega.rsqrt();
  const double log_bound = -(q - b) / 2 + (q / 2) * std::log(q / b);
  BinghamDraw draw;
  Eigen::VectorXd y(d);
  for (draw.proposals = 1; draw.proposals <= max_proposals; ++draw.proposals) {
    for (Eigen::Index i = 0; i < d; ++i) y(i) = envelope_sd(i) * core::standard_normal(rng);
    y.normalize();
    const Eigen::ArrayXd y2 = y.array().square();
    const double log_ratio = -(lambda.array() * y2).sum() + (q / 2) * std::log((omega * y2).sum()) - log_bound;
    if (std::log(core::uniform01(rng)) < log_ratio) {
      draw.x = eig.vectors * y;
      return draw;
    }
  }
  throw InvalidArgument(
      fmt::format("sample_bingham: no envelope draw accepted in {} proposals (d = {})", max_proposals, d));
}

BinghamDraw sphere_exponential_mechanism(const Eigen::MatrixXd& A, double inverse_temperature, double sensitivity,
                                         const Privacy& budget, const std::string& step, Ledger& ledger,
                                         core::Rng& rng) {
  const LedgerEntry entry{.step = step,
                          .mechanism = Mechanism::exponential,
                          .sensitivity = sensitivity,
                          .norm = SensitivityNorm::spectral,
                          .noise_scale = 1 / inverse_temperature,
                          .neighbours = budget.neighbours,
                          .calibrated_for = {budget.epsilon, 0}};
  ledger.record(entry);
  BinghamDraw draw = sample_bingham(inverse_temperature * A, rng);
  if (LedgerProbe* probe = active_probe()) {
    std::vector<double> release(draw.x.data(), draw.x.data() + draw.x.size());
    probe->observe(entry, std::vector<double>(A.data(), A.data() + A.size()), {}, release, ProbedRelease::selected);
    draw.x = Eigen::Map<const Eigen::VectorXd>(release.data(), draw.x.size());
  }
  return draw;
}

}  // namespace dpb::alg
