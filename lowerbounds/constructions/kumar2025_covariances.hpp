#pragma once
// The k-RCS covariances with a dense top eigenvector behind kumar2025's PCA lower bounds, built on the
// graphs of ramanujan_graphs.hpp (spec: kumar2025 §5.2 Lemma 19 and the Thm 4 family, §5.3 Lemma 22).
//
//  - Lemma 19: Sigma_star = I_d + (sqrt(2)/(k-2)) A for a (h, 2h)-biregular bipartite graph with
//    |L| = 2d/3, |R| = d/3, h = (k-2)/2, coordinates ordered L then R. lambda_1 = 2, lambda_min = 0,
//    v_1 = sqrt(3/(4d)) (1_L ; sqrt(2) 1_R). The Thm 4 family permutes it by a weight-d/3 codeword x:
//    coordinates with x_i = 1 go to R, those with x_i = 0 to L.
//  - Lemma 22: Sigma_s = I_d + (1/r) D_s A D_s for an r-regular bipartite graph on d/2 + d/2 vertices,
//    r = k - 1, s in {+-1}^d. lambda_1 = 2, lambda_min = 0, v_1 = s / sqrt(d).
#include <Eigen/Dense>

#include "core/rng.hpp"
#include "lowerbounds/constructions/binary_codes.hpp"
#include "lowerbounds/constructions/ramanujan_graphs.hpp"

namespace dpb::lower {

// How hard to look for a near-Ramanujan graph (spectral_test's slack, in units of lambda_2). Random
// matching unions are near-Ramanujan: at g = 16..100 their lambda_2 falls below the Ramanujan value in
// most draws (measured, docs/papers/kumar2025-theorems-lower.md), so a small slack and a few attempts do.
struct GraphAcceptance {
  double slack = 0.05;
  int max_attempts = 50;
};

// ---- Lemma 19 -------------------------------------------------------------------------------------

struct Lemma19Construction {
  int d = 0;
  int k = 0;
  BiregularShape shape;  // g = d/3, t = 2, h = (k-2)/2
  AcceptedGraph graph;
  Eigen::MatrixXd sigma_star;  // d x d, L coordinates first
  Eigen::VectorXd v1;          // sqrt(3/(4d)) (1_L ; sqrt(2) 1_R)
  double lambda2 = 0;          // measured second eigenvalue of sigma_star: 1 + spectrum.lambda2 sqrt(2)/(k-2)
  double gamma0 = 0;           // measured relative gap 1 - lambda2 / 2
};

// Needs 3 | d, k >= 6 even, k <= d/3 (Lemma 19's assumptions); throws dpb::InvalidArgument otherwise.
Lemma19Construction lemma19_construction(int d, int k, const GraphAcceptance& acceptance, core::Rng& rng);
// Lemma 19 item 4: gamma_0 = 1 - (1 + (sqrt(k-4) + sqrt(2k-6))/(k-2)) / 2, the gap a Ramanujan graph gives.
double lemma19_ramanujan_gap(int k);
// Sigma_x = Pi_x Sigma_star Pi_x^T for a codeword x of length d and weight d/3: the i-th coordinate with
// x_i = 0 (resp. 1) plays the role of the i-th L (resp. R) coordinate, in increasing order. Throws
// dpb::InvalidArgument on a wrong length or weight.
Eigen::MatrixXd lemma19_family_member(const Lemma19Construction& c, const Codeword& x);
// n samples of P_x = N(0, Sigma_x) as columns (kumar2025_priors' gaussian_samples: Sigma_x is singular).
Eigen::MatrixXd lemma19_family_samples(const Lemma19Construction& c, const Codeword& x, Eigen::Index n,
                                       core::Rng& rng);
// v_x: sqrt(3/(4d)) where x_i = 0, sqrt(3/(2d)) where x_i = 1 (spec §5.2 "Family").
Eigen::VectorXd lemma19_family_eigenvector(const Codeword& x);

// Thm 4's decoder (spec §5.2 "Decoder"): the index of the codeword x minimising min_{s=+-1} |v_hat - s v_x|
// for v_hat = estimate / |estimate| (e_1 when the estimate is zero). Every estimate with
// sin^2(estimate, v_x) <= 1/400 decodes to x (Eq. 33). Throws dpb::InvalidArgument on an empty code or a
// length mismatch.
std::size_t lemma19_decode(const Eigen::VectorXd& estimate, const BinaryCode& code);

// ---- Lemma 22 -------------------------------------------------------------------------------------

struct Lemma22Construction {
  int d = 0;
  int k = 0;
  BiregularShape shape;  // g = d/2, t = 1, h = r = k - 1
  AcceptedGraph graph;
  Eigen::MatrixXd adjacency;  // d x d, first d/2 coordinates = L
  double lambda2 = 0;         // measured second eigenvalue of every Sigma_s: 1 + spectrum.lambda2 / r
  double gamma0 = 0;          // measured relative gap 1 - lambda2 / 2
};

// Needs d even, k >= 6 even, d/2 >= k - 1 (Lemma 22); throws dpb::InvalidArgument otherwise.
Lemma22Construction lemma22_construction(int d, int k, const GraphAcceptance& acceptance, core::Rng& rng);
// Lemma 22 item 3: gamma_0 = 1 - (1 + 2 sqrt(k-2)/(k-1)) / 2.
double lemma22_ramanujan_gap(int k);
// Sigma_s = I + (1/r) D_s A D_s; s must have d entries, each +1 or -1.
Eigen::MatrixXd lemma22_covariance(const Lemma22Construction& c, const Eigen::VectorXd& s);

}  // namespace dpb::lower
