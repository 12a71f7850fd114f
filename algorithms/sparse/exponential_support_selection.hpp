#pragma once
// kumar2025 Algorithm 4 (App. F): sparse PCA by the exponential mechanism over all supports of size k,
// scored by the top eigenvalue of the clipped second moment on the support (spec: kumar2025 §2.5, §3.4,
// Lemmas 37-39). Exact enumeration, so only for small C(d, k).
//
// Lemma 38 proves the support selection (line 11) eps-DP; lines 12-13 then release the top eigenvector
// of the data's clipped second moment on the selected support without noise, which no DP proof covers
// (two neighbouring datasets give different vectors). The default `private` release splits eps: the
// selection at selection_share * eps, and the vector on the support by the exponential mechanism on the
// k-sphere (score n v^T SigmaHat_S v, sensitivity k tau^2) with the rest: pure eps-DP by basic
// composition. `as_printed` keeps lines 12-13 and claims no privacy.
#include <Eigen/Dense>
#include <vector>

#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/privacy.hpp"
#include "core/rng.hpp"

namespace dpb::alg {

struct ExpMechSupportParams {
  double tau = 0;                // clip level; 0 = sigma sqrt(2 log(2 n d / beta)) (spec: kumar2025 A26)
  double sigma2 = 0;             // sub-Gaussian proxy, used only for the default tau
  double beta = 0.1;             // used only for the default tau
  double max_supports = 100000;  // refuse when C(d, k) exceeds this (size guard)
  enum class Release {
    exponential_mechanism,  // the vector on S_hat sampled from exp(eps_v v^T S_hat-block v / (2 k tau^2))
    as_printed,             // lines 12-13: the exact top eigenvector on S_hat (NOT private)
  };
  Release release = Release::exponential_mechanism;
  double selection_share = 0.5;  // share of eps for the support selection (exponential_mechanism release)
};

// Every k-subset of {0..d-1} in lexicographic order (supports[r] has rank r). Throws dpb::InvalidArgument
// when C(d, k) > max_supports.
std::vector<std::vector<Eigen::Index>> enumerate_supports(Eigen::Index d, Eigen::Index k,
                                                          double max_supports);
// C(d, k) as a double (exact below 2^53).
double support_count(Eigen::Index d, Eigen::Index k);

struct ExpMechSupportResult {
  Eigen::VectorXd v_hat;                 // unit, supported on `support`
  std::vector<Eigen::Index> support;     // S_hat
  Eigen::Index support_rank = 0;         // its index in enumerate_supports order
  std::vector<double> scores;            // q_D(S) for every S, in enumerate_supports order
  double tau = 0, sensitivity = 0;       // clip level and Delta_q = 2 k tau^2 / n
  double selection_epsilon = 0;          // the eps line 11 ran at
  long proposals = 0;                    // Bingham envelope draws for the private vector (0: as printed)
  Eigen::Index clipped_coordinates = 0;  // entries of X with |x| > tau
};

// Every release is recorded in `ledger`: the selection, then the private vector, or (as printed) the exact
// vector as a release without noise.
ExpMechSupportResult exponential_support_selection(const Eigen::MatrixXd& X, Eigen::Index k,
                                                   const Privacy& privacy, const ExpMechSupportParams& params,
                                                   Ledger& ledger, core::Rng& rng);

}  // namespace dpb::alg
