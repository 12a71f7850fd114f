#pragma once
// Packings of r-dimensional subspaces of R^p, stored as orthonormal p x r frames, with a minimum
// pairwise projector distance ||V_i V_i^T - V_j V_j^T||_q. This is the Grassmann packing behind
// cai2024's Thms 4.1/4.2 (App. B.3 step 1, Pajor 1998 / Koltchinskii & Xia 2015 Lemma 5), built by the
// spec's constructive recipe: Haar candidates kept greedily (spec: cai2024 §5.2 recipe (b)). The
// theory promises |V| >= 2^{r(p-2r)} (A16); a greedy packing is far smaller, so every bound built on it
// uses the measured log|V| and the measured distances, never the theoretical ones.
#include <Eigen/Dense>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dpb::lower {

struct SubspacePackingSpec {
  Eigen::Index ambient = 0;           // p: frames are ambient x rank
  Eigen::Index rank = 0;              // r, 1 <= r <= ambient
  double q = 2;                       // Schatten index of the distance, in [1, inf]
  double min_distance = 0;            // a candidate is kept only at distance >= this from every kept frame
  std::size_t max_size = 64;          // stop once this many frames are kept (>= 1)
  std::size_t max_candidates = 4096;  // Haar candidates drawn at most (>= 1)
  std::uint64_t seed = 1;             // the packing is a deterministic function of the spec
};

struct SubspacePacking {
  double q = 2;
  std::vector<Eigen::MatrixXd> frames;  // ambient x rank, orthonormal columns
  Eigen::MatrixXd distances;            // measured ||P_i - P_j||_q, symmetric, zero diagonal

  std::size_t size() const { return frames.size(); }
  double log_size() const;      // log |V| (natural log)
  double min_distance() const;  // smallest off-diagonal distance; +infinity with fewer than 2 frames
};

// Greedy packing: draws Haar frames (core::haar_frame, one core::Rng stream keyed by spec.seed) and keeps
// each one at distance >= spec.min_distance from all kept frames. Throws dpb::InvalidArgument on a spec
// outside the ranges above.
SubspacePacking build_subspace_packing(const SubspacePackingSpec& spec);

// ||Q_i Q_i^T - Q_j Q_j^T||_q for every pair of orthonormal frames of one shape (core::projector_distance).
Eigen::MatrixXd pairwise_projector_distances(const std::vector<Eigen::MatrixXd>& frames, double q);

}  // namespace dpb::lower
