#include "algorithms/mutants/breaks.hpp"

#include <fmt/format.h>

#include <limits>

#include "algorithms/mechanisms/gaussian.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"

namespace dpb::alg::mutants {
namespace {

const Eigen::MatrixXd& vectors_of(const Input& in, const std::string& owner) {
  if (!in.X || in.X->cols() < 1)
    throw InvalidArgument(fmt::format("{}: needs vector data (Input::X, d x n with n >= 1)", owner));
  return *in.X;
}

// The statistic `what`, read off the data without noise: nothing bounds its change between neighbours.
double released_exactly(double value, const std::string& what, const Input& in, Ledger& ledger) {
  ledger.record(exact_entry(what + ", computed from the data without noise",
                            std::numeric_limits<double>::infinity(), in.privacy.neighbours));
  return value;
}

}  // namespace

Privacy inverted_epsilon(const Privacy& asked) {
  validate(asked);
  Privacy broken = asked;
  broken.epsilon = 1.0 / asked.epsilon;
  return broken;
}

Privacy noise_scaled_budget(const Privacy& asked, double factor) {
  validate(asked);
  if (!(factor > 0 && factor < 1))
    throw InvalidArgument(fmt::format("noise_scaled_budget: factor must lie in (0, 1), got {}", factor));
  // sigma(eps) is decreasing in eps; at eps / factor^2 it is below factor sigma(eps) (sigma falls at least
  // as fast as 1/sqrt(eps)), so bisect on [eps, eps / factor^2].
  const double target = factor * analytic_gaussian_sigma(1.0, asked.epsilon, asked.delta);
  double lo = asked.epsilon, hi = asked.epsilon / (factor * factor);
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (analytic_gaussian_sigma(1.0, mid, asked.delta) > target ? lo : hi) = mid;
  }
  Privacy broken = asked;
  broken.epsilon = hi;
  return broken;
}

std::function<Privacy(const Privacy& asked, const Input& in)> scaled_noise(double factor) {
  return [factor](const Privacy& asked, const Input&) {
    // Per thread; every scaled-noise mutant shares this closure type, so the factor is part of the key.
    thread_local double last_factor = 0;
    thread_local Privacy last_asked{0, 0}, last_broken{0, 0};
    if (factor != last_factor || asked.epsilon != last_asked.epsilon || asked.delta != last_asked.delta ||
        asked.neighbours != last_asked.neighbours) {
      last_factor = factor;
      last_asked = asked;
      last_broken = noise_scaled_budget(asked, factor);
    }
    return last_broken;
  };
}

double max_squared_norm(const Input& in, const std::string& owner, Ledger& ledger) {
  return released_exactly(vectors_of(in, owner).colwise().squaredNorm().maxCoeff(), "max_i ||x_i||^2", in, ledger);
}

double max_abs_entry(const Input& in, const std::string& owner, Ledger& ledger) {
  return released_exactly(vectors_of(in, owner).cwiseAbs().maxCoeff(), "max_ij |x_ij|", in, ledger);
}

double top_sample_covariance_eigenvalue(const Input& in, const std::string& owner, Ledger& ledger) {
  const Eigen::MatrixXd& X = vectors_of(in, owner);
  const Eigen::MatrixXd centred = X.colwise() - X.rowwise().mean();
  const Eigen::MatrixXd covariance = centred * centred.transpose() / static_cast<double>(X.cols());
  return released_exactly(core::top_eigenpairs(covariance, 1).values[0], "top sample covariance eigenvalue", in,
                          ledger);
}

double max_sample_matrix_frobenius(const Input& in, const std::string& owner, Ledger& ledger) {
  if (!in.samples || in.samples->n() < 1)
    throw InvalidArgument(fmt::format("{}: needs sample matrices (Input::samples, n >= 1)", owner));
  const Eigen::Index d = in.samples->d();
  const Eigen::MatrixXd identity = Eigen::MatrixXd::Identity(d, d);
  Eigen::MatrixXd A(d, d);
  double largest = 0;
  for (Eigen::Index i = 0; i < in.samples->n(); ++i) {
    in.samples->apply(i, identity, A);
    largest = std::max(largest, A.norm());
  }
  return released_exactly(largest, "max_i ||A_i||_F", in, ledger);
}

}  // namespace dpb::alg::mutants
