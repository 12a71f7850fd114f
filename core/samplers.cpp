#include "core/samplers.hpp"

#include <boost/random/normal_distribution.hpp>
#include <boost/random/chi_squared_distribution.hpp>
#include <boost/random/student_t_distribution.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "core/linalg.hpp"

namespace dpb::core {

double uniform01(Rng& rng) { return uniform01_from_bits(rng()); }

double uniform01_from_bits(std::uint64_t bits) {
  // 52 bits, not 53: m + 1/2 needs one bit more than m, and with m < 2^53 it would round (ties to
  // even), so m = 2^53 - 1 would map to exactly 1.
  return (static_cast<double>(bits >> 12) + 0.5) * 0x1.0p-52;
}

double uniform(Rng& rng, double a, double b) {
  if (!(a < b)) throw InvalidArgument("uniform: need a < b");
  // a + (b - a) u can round up to b when u is close to 1; keep the interval half-open.
  const double x = a + (b - a) * uniform01(rng);
  return x < b ? x : std::nextafter(b, a);
}

double standard_normal(Rng& rng) {
  boost::random::normal_distribution<double> normal;
  return normal(rng);
}

double laplace(Rng& rng, double b) {
  if (!(b > 0)) throw InvalidArgument("laplace: scale b must be > 0");
  const double e = -std::log(uniform01(rng));
  return rademacher(rng) * b * e;
}

double exponential(Rng& rng, double rate) {
  if (!(rate > 0)) throw InvalidArgument("exponential: rate must be > 0");
  return -std::log(uniform01(rng)) / rate;
}

double gumbel(Rng& rng) { return -std::log(-std::log(uniform01(rng))); }

double rademacher(Rng& rng) { return (rng() >> 63) ? 1.0 : -1.0; }

double student_t(Rng& rng, double nu) {
  if (!(nu > 0)) throw InvalidArgument("student_t: degrees of freedom nu must be > 0");
  boost::random::student_t_distribution<double> t(nu);
  return t(rng);
}

double chi_squared(Rng& rng, double df) {
  if (!(df > 0)) throw InvalidArgument("chi_squared: degrees of freedom df must be > 0");
  boost::random::chi_squared_distribution<double> chi2(df);
  return chi2(rng);
}

Eigen::VectorXd standard_normal_vector(Rng& rng, Eigen::Index d) {
  Eigen::VectorXd v(d);
  for (Eigen::Index i = 0; i < d; ++i) v[i] = standard_normal(rng);
  return v;
}

Eigen::MatrixXd standard_normal_matrix(Rng& rng, Eigen::Index rows, Eigen::Index cols) {
  Eigen::MatrixXd m(rows, cols);
  // Column-major fill order is part of the reproducibility contract.
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index i = 0; i < rows; ++i) m(i, j) = standard_normal(rng);
  return m;
}

Eigen::VectorXd unit_sphere(Rng& rng, Eigen::Index d) {
  if (d < 1) throw InvalidArgument("unit_sphere: dimension d must be >= 1");
  return safe_normalize(standard_normal_vector(rng, d));
}

Eigen::MatrixXd haar_frame(Rng& rng, Eigen::Index d, Eigen::Index k) {
  if (k < 1 || k > d) throw InvalidArgument("haar_frame: need 1 <= k <= d");
  return orthonormalize(standard_normal_matrix(rng, d, k));
}

Eigen::MatrixXd goe(Rng& rng, Eigen::Index d, double s2) {
  if (!(s2 >= 0)) throw InvalidArgument("goe: variance s2 must be >= 0");
  const double off = std::sqrt(s2), diag = std::sqrt(2.0 * s2);
  Eigen::MatrixXd g(d, d);
  for (Eigen::Index j = 0; j < d; ++j) {
    for (Eigen::Index i = 0; i < j; ++i) g(i, j) = g(j, i) = off * standard_normal(rng);
    g(j, j) = diag * standard_normal(rng);
  }
  return g;
}

Eigen::MatrixXd symmetric_gaussian(Rng& rng, Eigen::Index d, double s) {
  if (!(s >= 0)) throw InvalidArgument("symmetric_gaussian: scale s must be >= 0");
  Eigen::MatrixXd g(d, d);
  for (Eigen::Index j = 0; j < d; ++j)
    for (Eigen::Index i = 0; i <= j; ++i) g(i, j) = g(j, i) = s * standard_normal(rng);
  return g;
}

}  // namespace dpb::core
