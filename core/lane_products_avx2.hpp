#pragma once
// The rank-one products x_l (x_l^T Q) of VectorSamples and ShiftedVectorSamples (core/sample_matrices.cpp),
// and the latter's one-sample product (C + x x^T) Q, with Q's columns in vector lanes four at a time, for
// CPUs with AVX2 but not AVX-512. There the eight-column lanes' default clone keeps two samples' accumulators
// on the stack, and these run 2-5x faster. Every lane sums its dot product in the same order
// (dot_as_eigen's), so the products are the eight-lane path's bit for bit.
#include <Eigen/Core>

namespace dpb::core::lane_products_avx2 {

// For the `count` d-vectors stored one after another from x (3 <= d <= 512, count >= 1, k >= 1): block l (d x
// k, columns `stride` apart, blocks k stride apart from out) = x_l (x_l^T Q) + 0, or base + x_l (x_l^T Q)
// with the d x k block at base (columns base_stride apart; it may be block 0). Call only where the CPU has
// AVX2.
void rank_one_products(const double* x, Eigen::Index count, const double* q, Eigen::Index q_stride,
                       Eigen::Index d, Eigen::Index k, const double* base, Eigen::Index base_stride,
                       double* out, Eigen::Index stride) noexcept;

// out (d x k, columns `stride` apart) = C Q + x (x^T Q) for C = W diag(w) W^T (W d x r stored column after
// column, r <= 16; 3 <= d <= 512): ShiftedVectorSamples' product of one sample. Call only where the CPU has
// AVX2.
void shifted_product(const double* W, const double* w, Eigen::Index r, const double* x, const double* q,
                     Eigen::Index q_stride, Eigen::Index d, Eigen::Index k, double* out,
                     Eigen::Index stride) noexcept;

}  // namespace dpb::core::lane_products_avx2
