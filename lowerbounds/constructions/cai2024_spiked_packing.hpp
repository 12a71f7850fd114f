#pragma once
// The spiked-covariance families behind cai2024's lower bounds (spec: cai2024 §5.2 App. B.3, §5.3
// App. B.4) and their DP-Fano values (Lemma 6, dp_fano_cai2024.hpp), evaluated on a packing actually built.
//
// Thm 4.1: V_1..V_N in O_{p-r, r} (a subspace packing), lifted to U_V = [sqrt(1 - eps0^2) I_r ; eps0 V] in
// O_{p, r}, Sigma_V = spike U_V U_V^T + noise I_p. All spikes are equal, so the determinants agree and
//   KL(N(0, Sigma_i) || N(0, Sigma_j)) = spike^2 / (4 noise (spike + noise)) ||P_i - P_j||_F^2   (exact).
// Thm 4.2 (ii) is the same family in dimension r with rank floor(r/4), spike lambda and noise lambda +
// sigma^2.
#include <Eigen/Dense>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "lowerbounds/constructions/dp_fano_cai2024.hpp"
#include "lowerbounds/constructions/subspace_packing.hpp"

namespace dpb::lower {

// U_V = [sqrt(1 - eps0^2) I_r ; eps0 V] for V ((p - r) x r, orthonormal), eps0 in (0, 1).
Eigen::MatrixXd lift_frame(const Eigen::MatrixXd& V, double eps0);
// spike U U^T + noise I.
Eigen::MatrixXd spiked_covariance(const Eigen::MatrixXd& U, double spike, double noise);
// The exact per-sample KL above, from ||P_i - P_j||_F^2.
double equal_spike_kl(double spike, double noise, double projector_fro2);

// The lifted packing's pairwise geometry for any eps0 at O(r^3) per pair. With B = I - V_j^T V_i, the
// principal sines between U_i and U_j are eps0 sqrt(eig(B + B^T - eps0^2 B^T B)) (derived in the .cpp),
// so p enters only once, in the constructor.
class LiftedSubspacePacking {
 public:
  explicit LiftedSubspacePacking(const SubspacePacking& base);

  struct Geometry {
    double min_distance = 0;  // min over pairs of ||P_i - P_j||_q
    double max_fro2 = 0;      // max over pairs of ||P_i - P_j||_F^2
  };
  Geometry geometry(double eps0, double q) const;
  // Principal sines between the lifted frames i and j (i != j), in any order.
  Eigen::VectorXd principal_sines(std::size_t i, std::size_t j, double eps0) const;
  std::size_t size() const { return count_; }

 private:
  std::size_t pair_index(std::size_t i, std::size_t j) const;
  std::size_t count_ = 0;
  std::vector<Eigen::MatrixXd> symmetric_part_;  // B + B^T per pair i < j
  std::vector<Eigen::MatrixXd> gram_part_;       // B^T B per pair i < j
};

// One spiked family and the loss it is measured in.
struct SpikedFanoProblem {
  Eigen::Index p = 0, r = 0;  // ambient dimension and rank of the family, 2r <= p
  double spike = 0;           // lambda of the family, > 0
  double noise = 0;           // its isotropic variance, > 0
  double n = 0, eps = 0, delta = 0;
  double q = 2;              // Schatten index of the loss
  double loss_scale = 1;     // loss = loss_scale ||P_i - P_j||_q / normalization (1: PCA, spike: covariance)
  double normalization = 1;  // cai2024 divides by r^{1/q} of the theorem's r
  double packing_constant = 0.5;  // V-packing separation c r^{1/q} (spec A16: c unspecified, default 1/2)
  std::size_t packing_size = 64;
  std::size_t packing_candidates = 4096;
  std::uint64_t seed = 1;
  GroupPrivacyExponent exponent = GroupPrivacyExponent::faithful;
};

struct SpikedFanoBound {
  double value = 0;          // the best Lemma 6 value over the eps0 grid
  double eps0 = 0;           // where it is attained
  double log_size = 0;       // measured log N of the packing
  DpFanoCai2024Value terms;  // Lemma 6's two terms at eps0
};

// Builds the packing, then maximises Lemma 6 over eps0 in (0, 1/sqrt 2] (a fixed log grid) with
// rho0 = the measured min loss distance, l0 = n max KL, t0 = n max min(1, sqrt(KL/2)) (Pinsker per sample).
// Any eps0 gives a valid bound, so the grid only decides how tight it is.
// Throws dpb::InvalidArgument on a problem outside its domain (2r > p, n < 1, a packing of < 2 frames, ...).
SpikedFanoBound spiked_dp_fano_bound(const SpikedFanoProblem& problem);

}  // namespace dpb::lower
