#pragma once
// The hard family of kumar2025 Theorem 5 (spec: kumar2025 §5.3): Definition 6's padded subcube of the
// Lemma 22 covariances, Definition 5's edge-spike distribution D_s and Lemma 25's coupling.
//
//  - Padded subcube (Def. 6, A18): m = d/2, V = {+-1}^m, s_bar = (1_{d-m}, s) — the first d/2 coordinates
//    are padded with +1 — Sigma_s = Sigma_{s_bar} of Lemma 22, v_s = s_bar / sqrt(d).
//  - Edge spike D_s (Def. 5): (U, V) uniform over the r d directed edges of the Lemma 22 graph, g ~ N(0,1),
//    x = c g D_s (e_U + e_V) with c = sqrt(d/2); E x x^T = Sigma_s, sigma^2 = d sub-Gaussian (A17).
//  - Coupling (Lemma 25): for cube coordinate i, shared (U_j, V_j, g_j) drawn under s with s_i = +1 and
//    s_i = -1; sample j differs iff its edge touches data coordinate d - m + i.
#include <Eigen/Dense>
#include <vector>

#include "core/rng.hpp"
#include "lowerbounds/constructions/kumar2025_covariances.hpp"

namespace dpb::lower {

struct PaddedSubcube {
  Lemma22Construction base;
  int m = 0;  // cube dimension d/2

  int d() const { return base.d; }
  // s_bar = (1_{d-m}, s); s must have m entries, each +1 or -1 (dpb::InvalidArgument otherwise).
  Eigen::VectorXd padded(const Eigen::VectorXd& s) const;
  Eigen::MatrixXd covariance(const Eigen::VectorXd& s) const;   // Sigma_{s_bar}
  Eigen::VectorXd eigenvector(const Eigen::VectorXd& s) const;  // s_bar / sqrt(d)
};

// Builds Lemma 22's graph for (d, k) and the cube over its last d/2 coordinates.
PaddedSubcube padded_subcube(int d, int k, const GraphAcceptance& acceptance, core::Rng& rng);

// n samples of D_s as the columns of a d x n matrix (s in {+-1}^m).
Eigen::MatrixXd sample_edge_spike(const PaddedSubcube& cube, const Eigen::VectorXd& s, Eigen::Index n,
                                  core::Rng& rng);

struct CoupledDatasets {
  Eigen::MatrixXd plus;   // drawn under s with s_i = +1
  Eigen::MatrixXd minus;  // the same draws under s with s_i = -1
  int differing = 0;      // number of samples (columns) that differ
};

// Lemma 25's coupling of p_{+i} and p_{-i} at a given s (its i-th entry is overwritten); 0 <= i < m.
CoupledDatasets couple_edge_spike(const PaddedSubcube& cube, Eigen::VectorXd s, int i, Eigen::Index n,
                                  core::Rng& rng);

// Exact probability that one edge-spike sample touches cube coordinate i: 2 deg / (r d) from the built
// graph's degrees (2/d for a regular graph). Lemma 25's D per sample.
double coordinate_touch_probability(const PaddedSubcube& cube, int i);

// Assouad's separation measured on the built family: min over t = 1..m of sin^2(v_s, v_s') / (2t) for s = 1
// and s' with its first t coordinates flipped (by symmetry, every pair at Hamming distance t gives the
// same sin^2). Lemma 24 says this is 1/d.
double measured_separation(const PaddedSubcube& cube);

}  // namespace dpb::lower
