#pragma once
// The Bingham distribution on the unit sphere S^{d-1}, density proportional to exp(x^T M x) for a
// symmetric M: the output distribution of the exponential mechanism whose score is a quadratic form
// (Chaudhuri, Sarwate, Sinha 2013). Sampled exactly by rejection from an angular central Gaussian
// envelope (Kent, Ganeiber, Mardia 2018, "A new unified approach for the simulation of a wide class
// of directional distributions", §4.3).
#include <Eigen/Dense>

#include <string>

#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/privacy.hpp"
#include "core/rng.hpp"

namespace dpb::alg {

struct BinghamDraw {
  Eigen::VectorXd x;   // a unit vector
  long proposals = 0;  // envelope draws until acceptance (>= 1)
};

// One draw. Throws dpb::InvalidArgument unless M is square (d >= 1), symmetric and finite, or when
// `max_proposals` envelope draws are all rejected (the acceptance rate is bounded below for every M,
// so this signals a bug, not a hard instance).
BinghamDraw sample_bingham(const Eigen::MatrixXd& M, core::Rng& rng, long max_proposals = 1000000);

// The exponential mechanism on the sphere with the quadratic score v^T A v (Chaudhuri et al. 2013): one
// draw from the Bingham density ~ exp(inverse_temperature v^T A v), recorded in `ledger` as `step` with
// the spectral-norm sensitivity of A between neighbours; it is (2 sensitivity inverse_temperature)-DP,
// calibrated for `budget`.
BinghamDraw sphere_exponential_mechanism(const Eigen::MatrixXd& A, double inverse_temperature, double sensitivity,
                                         const Privacy& budget, const std::string& step, Ledger& ledger,
                                         core::Rng& rng);

// The envelope's parameter b in (0, d]: the root of sum_i 1/(b + 2 lambda_i) = 1 for the eigenvalues
// lambda_i >= 0 (at least one 0) of A = mu_max I - M. Exposed for tests.
double bingham_envelope_b(const Eigen::VectorXd& lambda);

}  // namespace dpb::alg
