#pragma once
// PRIVRANGE, dugler2026 Algorithm 4 (spec §2.4): a block-level private estimate of
// Lambda(Q) = max_r ||E[(A - Sigma) q_r q_r^T (A - Sigma)]||_2 from matrices G_i = A_i Q (or Pi A_i Q).
#include <Eigen/Dense>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/mechanisms/composition.hpp"
#include "algorithms/mechanisms/histogram.hpp"
#include "algorithms/param_fields.hpp"
#include "algorithms/pca/dugler2026_common.hpp"
#include "algorithms/registry.hpp"
#include "core/linalg.hpp"
#include "core/rng.hpp"

namespace dpb::alg::dugler2026 {

struct PrivateRangeSettings {
  double C1 = 4.0;      // m = ceil(C1 log(1/(delta zeta)) / eps) blocks (ambiguity 10; C_1 = 4 recommended)
  double safety = 2.0;  // Lhat = safety * l (line 20, "universal safety constant")
  double bins_per_octave = 4.0;  // geometric bins of ratio 2^{1/q}, q = 4 in the paper (line 14)
  // Line 15's histogram releases bins by the threshold; every_occupied_bin (NOT private) only for
  // algorithms/mutants.
  BinRelease release = BinRelease::thresholded;
};

// PRIVRANGE's parameters (C1, range_safety, range_bins_per_octave), shared by every algorithm that runs it.
const FieldTable<PrivateRangeSettings>& range_fields();

// The failure probability zeta of a dugler2026 high-probability bound, in (0, 1/2].
template <class P>
FieldTable<P>& zeta_field(FieldTable<P>& table, double P::*member) {
  return table.real("zeta", member, 1e-12, 0.5, "failure probability zeta", "dugler2026 §7");
}

struct PrivateRangeReport {
  std::optional<double> Lhat;   // nullopt: BOTTOM (every bin empty, lines 16-18)
  Eigen::Index blocks = 0;      // m
  Eigen::Index block_size = 0;  // b
  std::size_t occupied_bins = 0;
  std::size_t released_bins = 0;
  double noise_scale = 0;  // Laplace scale on a frequency (2/(eps m))
};

// Preallocated buffers (allocation happens once per size, not per block).
struct PrivateRangeWorkspace {
  Eigen::MatrixXd diff;
  core::LargestEigenvalueWorkspace eigen;
  std::vector<double> maxima;
  std::vector<std::int64_t> bins;
};

// m = ceil(C1 log(1/(delta zeta)) / eps), at least 1.
Eigen::Index private_range_blocks(const PrivateRangeSettings& s, const Budget& budget, double zeta);
// The number of input matrices B_in PRIVRANGE needs for blocks of b >= min_block_size: 2 m b.
Eigen::Index private_range_min_inputs(const PrivateRangeSettings& s, const Budget& budget, double zeta,
                                      Eigen::Index min_block_size);

// Algorithm 4 on the B_in = G.cols() / k matrices G_i (d x k each, stored side by side: G_i is
// G.middleCols(i k, k)), at (eps, delta) = budget under replace-one neighbours with failure probability
// zeta. The line-15 histogram is recorded in `ledger` as `step` (over the m block maxima: one record
// changes at most one of them, Theorem 5). Throws dpb::InvalidArgument naming the required input size
// when b = floor(B_in / (2m)) < 1.
PrivateRangeReport private_range(const Eigen::Ref<const Eigen::MatrixXd>& G, Eigen::Index k,
                                 const Budget& budget, double zeta, const PrivateRangeSettings& s,
                                 const std::string& step, Ledger& ledger, PrivateRangeWorkspace& ws,
                                 core::Rng& rng);
// The same on matrices produced a block at a time (only one block of 2b inputs is held at once); bit
// for bit equal to the stored form on the same matrices.
PrivateRangeReport private_range(MatrixChunks& G, const Budget& budget, double zeta,
                                 const PrivateRangeSettings& s, const std::string& step, Ledger& ledger,
                                 PrivateRangeWorkspace& ws, core::Rng& rng);

// The registered estimator dugler2026.priv_range: Algorithm 4 on all n inputs G_i = A_i Q (or Pi A_i Q
// when tangent, the target g_Q^2 of Alg. 3) for a Haar-random frame Q drawn from rng (data-independent).
// Estimate.scalar = Lhat, absent on BOTTOM (diagnostics say so).
struct PrivRangeParams {
  PrivateRangeSettings range;
  double zeta = 0.01;
  bool tangent = false;
};
// The registered parameters of dugler2026.priv_range (zeta, C1, range_safety, range_bins_per_octave,
// tangent); PrivateRangeSettings::release is outside the schema (mutants only).
const FieldTable<PrivRangeParams>& priv_range_fields();
Estimate priv_range(const Input& in, const PrivRangeParams& p, core::Rng& rng);
PrivacyClaim priv_range_claim(const Input& in);

}  // namespace dpb::alg::dugler2026
