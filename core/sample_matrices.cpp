#include "core/sample_matrices.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <functional>

#include "core/cpu_level.hpp"
#include "core/eigen_order.hpp"
#include "core/errors.hpp"
#include "core/lane_products_avx2.hpp"
#include "core/linalg.hpp"

namespace dpb::core {
namespace {

// apply zeroes `out` before it reads Q, so apply(i, Q, Q) would silently return 0. The check is
// on memory ranges (conservative for interleaved row blocks); std::less orders any two pointers.
void check_no_overlap(const Eigen::Ref<const Eigen::MatrixXd>& Q, const Eigen::Ref<Eigen::MatrixXd>& out) {
  const auto end = [](const auto& M) -> const double* {
    return M.data() + (M.cols() - 1) * M.outerStride() + M.rows();
  };
  const std::less<const double*> before;
  if (Q.size() > 0 && out.size() > 0 && before(Q.data(), end(out)) && before(out.data(), end(Q)))
    throw InvalidArgument("apply: out must not overlap Q");
}

// out = x (x^T Q) (kAdd false) or out += x (x^T Q) (kAdd true) for the d-vector at x, into the d x k block at
// out whose columns lie `stride` apart. Setting gives the bits of `setZero()` then adding (0 + x_i s turns a
// -0 product into +0) without storing and reloading every entry. kTwoRows is dot_as_eigen at d = 2 without
// its branches (dugler2026's headline regime): x_0 q_0 + x_1 q_1.
template <bool kAdd, bool kTwoRows = false>
__attribute__((always_inline)) inline void rank_one_product(const double* x,
                                                            const Eigen::Ref<const Eigen::MatrixXd>& Q,
                                                            double* out, Eigen::Index stride) {
  const Eigen::Index d = Q.rows();
  for (Eigen::Index j = 0; j < Q.cols(); ++j, out += stride) {
    const double* q = Q.col(j).data();
    if constexpr (kTwoRows) {
      const double s = x[0] * q[0] + x[1] * q[1];
      out[0] = kAdd ? out[0] + x[0] * s : x[0] * s + 0.0;
      out[1] = kAdd ? out[1] + x[1] * s : x[1] * s + 0.0;
    } else {
      const double s = dot_as_eigen(x, q, d);
      for (Eigen::Index r = 0; r < d; ++r) out[r] = kAdd ? out[r] + x[r] * s : x[r] * s + 0.0;
    }
  }
}

// Q's columns in vector lanes, eight at a time: the products of several samples at once, each column's dot
// product summed in dot_as_eigen's order. Every lane does the same IEEE operations as that scalar code (the
// build forbids contracting them into FMAs), so the bits are the same on any CPU for finite values (a NaN's
// sign and payload may differ, as they do between optimisation levels); the AVX-512 clone does eight columns
// per instruction, and two samples side by side hide the additions' latency (one column at a time, a dot
// product is a chain of d / 4 of them). Q^T is copied into a block on the stack, which caps d. Where the CPU
// has AVX2 but not AVX-512 the products take four columns at a time (FourLanes, lane_products_avx2.hpp): in
// eight-column lanes the default clone keeps two samples' accumulators on the stack.
using Lanes = double __attribute__((vector_size(64)));
using FourLanes = double __attribute__((vector_size(32)));
template <class V>
constexpr Eigen::Index kWidth = sizeof(V) / sizeof(double);
constexpr Eigen::Index kLaneMaxRows = 512;

// Whether lane_rank_one_products computes the products of `count` samples: with dot_as_eigen's order written
// out, d from 3 (d = 2 has its own loop) to the stack block's rows, k >= 2 (one column would fill one lane of
// eight), and enough products to repay copying Q^T (measured: one sample at d = 50, k = 5 took 278 ns by
// lanes against 207 ns column by column; k = 2 breaks even near eight samples).
bool by_lanes(Eigen::Index d, Eigen::Index k, Eigen::Index count) {
  return kEigenOrderWrittenOut && d >= 3 && d <= kLaneMaxRows && k >= 2 && count >= 2 && count * k >= 16;
}

// s[p] = Q^T x_p in lanes for the P samples x_p = x + p d, qt[i] holding row i of Q: dot_as_eigen's sums.
template <int P, class V = Lanes>
__attribute__((always_inline)) inline void lane_dots(const double* x, Eigen::Index d, const V* qt, V* s) {
  const Eigen::Index pairs_end = d / 2 * 2, quads_end = d / 4 * 4;
  V even[P], odd[P];
  for (int p = 0; p < P; ++p) {
    even[p] = x[p * d] * qt[0];
    odd[p] = x[p * d + 1] * qt[1];
  }
  if (pairs_end > 2) {
    V even1[P], odd1[P];
    for (int p = 0; p < P; ++p) {
      even1[p] = x[p * d + 2] * qt[2];
      odd1[p] = x[p * d + 3] * qt[3];
    }
    for (Eigen::Index i = 4; i < quads_end; i += 4)
      for (int p = 0; p < P; ++p) {
        const double* xp = x + p * d + i;
        even[p] += xp[0] * qt[i];
        odd[p] += xp[1] * qt[i + 1];
        even1[p] += xp[2] * qt[i + 2];
        odd1[p] += xp[3] * qt[i + 3];
      }
    for (int p = 0; p < P; ++p) {
      even[p] += even1[p];
      odd[p] += odd1[p];
      if (pairs_end > quads_end) {
        even[p] += x[p * d + quads_end] * qt[quads_end];
        odd[p] += x[p * d + quads_end + 1] * qt[quads_end + 1];
      }
    }
  }
  for (int p = 0; p < P; ++p) {
    s[p] = even[p] + odd[p];
    if (pairs_end < d) s[p] += x[p * d + d - 1] * qt[d - 1];
  }
}

// qt[i] = row i of Q's columns first_column .. first_column + lanes - 1 (zero past column k - 1); returns how
// many of them Q has.
template <class V>
__attribute__((always_inline)) inline Eigen::Index lanes_of_rows(const double* q, Eigen::Index q_stride,
                                                                 Eigen::Index d, Eigen::Index k,
                                                                 Eigen::Index first_column, V* qt) {
  const Eigen::Index width = std::min(kWidth<V>, k - first_column);
  for (Eigen::Index i = 0; i < d; ++i)
    for (Eigen::Index j = 0; j < kWidth<V>; ++j)
      qt[i][j] = j < width ? q[(first_column + j) * q_stride + i] : 0.0;
  return width;
}

// Block l's columns first_column .. first_column + width - 1 from their dot products in lanes (see below).
template <class V>
__attribute__((always_inline)) inline void write_lane_products(const double* x, Eigen::Index l, const V& dots,
                                                               Eigen::Index first_column, Eigen::Index width,
                                                               Eigen::Index d, Eigen::Index k,
                                                               const double* base, Eigen::Index base_stride,
                                                               double* out, Eigen::Index stride) {
  const double* xl = x + l * d;
  for (Eigen::Index j = 0; j < width; ++j) {
    const Eigen::Index column = first_column + j;
    const double sj = dots[j];
    double* o = out + (l * k + column) * stride;
    if (base) {
      const double* b = base + column * base_stride;
      for (Eigen::Index r = 0; r < d; ++r) o[r] = b[r] + xl[r] * sj;
    } else {
      for (Eigen::Index r = 0; r < d; ++r) o[r] = xl[r] * sj + 0.0;
    }
  }
}

// For the `count` d-vectors stored one after another from x, block l (d x k, columns `stride` apart, blocks
// k stride apart from out) = x_l (x_l^T Q) with zero added, as rank_one_product<false>, or base + x_l (x_l^T
// Q) with the d x k block at base (columns base_stride apart), as rank_one_product<true> onto a copy of base.
// Sample 0 is taken last, so base may be its block. Q's columns in lanes of V, two samples side by side.
template <class V>
__attribute__((always_inline)) inline void rank_one_products_in_lanes(
    const double* x, Eigen::Index count, const double* q, Eigen::Index q_stride, Eigen::Index d,
    Eigen::Index k, const double* base, Eigen::Index base_stride, double* out, Eigen::Index stride) {
  alignas(64) V qt[kLaneMaxRows];
  V s[2];
  for (Eigen::Index first_column = 0; first_column < k; first_column += kWidth<V>) {
    const Eigen::Index width = lanes_of_rows(q, q_stride, d, k, first_column, qt);
    // Forward through memory, sample 0 last (base may be its block).
    Eigen::Index l = 1;
    for (; l + 2 <= count; l += 2) {
      lane_dots<2>(x + l * d, d, qt, s);
      write_lane_products(x, l, s[0], first_column, width, d, k, base, base_stride, out, stride);
      write_lane_products(x, l + 1, s[1], first_column, width, d, k, base, base_stride, out, stride);
    }
    if (l < count) {  // one left over
      lane_dots<1>(x + l * d, d, qt, s);
      write_lane_products(x, l, s[0], first_column, width, d, k, base, base_stride, out, stride);
    }
    if (count > 0) {
      lane_dots<1>(x, d, qt, s);
      write_lane_products(x, 0, s[0], first_column, width, d, k, base, base_stride, out, stride);
    }
  }
}

// rank_one_products_in_lanes eight columns at a time.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("arch=x86-64-v4", "default")))
#endif
void eight_lane_rank_one_products(const double* x, Eigen::Index count, const double* q, Eigen::Index q_stride,
                                  Eigen::Index d, Eigen::Index k, const double* base, Eigen::Index base_stride,
                                  double* out, Eigen::Index stride) noexcept {
  rank_one_products_in_lanes<Lanes>(x, count, q, q_stride, d, k, base, base_stride, out, stride);
}

}  // namespace

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("arch=x86-64-v3")))
#endif
void lane_products_avx2::rank_one_products(const double* x, Eigen::Index count, const double* q,
                                           Eigen::Index q_stride, Eigen::Index d, Eigen::Index k,
                                           const double* base, Eigen::Index base_stride, double* out,
                                           Eigen::Index stride) noexcept {
  rank_one_products_in_lanes<FourLanes>(x, count, q, q_stride, d, k, base, base_stride, out, stride);
}

namespace {

// rank_one_products_in_lanes, four columns wide where AVX2 is the CPU's widest. Requires by_lanes(d, k,
// count).
void lane_rank_one_products(const double* x, Eigen::Index count, const double* q, Eigen::Index q_stride,
                            Eigen::Index d, Eigen::Index k, const double* base, Eigen::Index base_stride,
                            double* out, Eigen::Index stride) noexcept {
  if (avx2_is_widest())
    return lane_products_avx2::rank_one_products(x, count, q, q_stride, d, k, base, base_stride, out, stride);
  eight_lane_rank_one_products(x, count, q, q_stride, d, k, base, base_stride, out, stride);
}

// Whether lane_shifted_product computes a shifted sample's product: with Eigen's order written out, at most
// kLaneMaxShift directions in C, and the other conditions of by_lanes for the r + 1 vectors dotted with Q.
constexpr Eigen::Index kLaneMaxShift = 16;
bool shifted_by_lanes(Eigen::Index d, Eigen::Index k, Eigen::Index r) {
  return r <= kLaneMaxShift && by_lanes(d, k, r + 1);
}

// out = C Q + x (x^T Q) for C = W diag(w) W^T (W d x r, stored column after column): the bits of zeroing out,
// then add_shift_product, then add_rank_one_product, with the r + 1 vectors' dot products with Q's columns
// taken in lanes as lane_rank_one_products takes them (one copy of Q^T for all of them). Each entry adds its
// terms in the same order: 0 + W_i0 (w_0 s_0j), then the other directions, then x_i (x^T q_j). Requires
// shifted_by_lanes(d, k, r).
template <class V>
__attribute__((always_inline)) inline void shifted_product_in_lanes(const double* W, const double* w,
                                                                    Eigen::Index r, const double* x,
                                                                    const double* q, Eigen::Index q_stride,
                                                                    Eigen::Index d, Eigen::Index k,
                                                                    double* out, Eigen::Index stride) {
  alignas(64) V qt[kLaneMaxRows];
  V coefficients[kLaneMaxShift + 1], s[2];
  for (Eigen::Index first_column = 0; first_column < k; first_column += kWidth<V>) {
    const Eigen::Index width = lanes_of_rows(q, q_stride, d, k, first_column, qt);
    Eigen::Index l = 0;
    for (; l + 2 <= r; l += 2) {
      lane_dots<2>(W + l * d, d, qt, s);
      coefficients[l] = w[l] * s[0];
      coefficients[l + 1] = w[l + 1] * s[1];
    }
    if (l < r) {
      lane_dots<1>(W + l * d, d, qt, s);
      coefficients[l] = w[l] * s[0];
    }
    lane_dots<1>(x, d, qt, &coefficients[r]);
    for (Eigen::Index j = 0; j < width; ++j) {
      double* o = out + (first_column + j) * stride;
      for (Eigen::Index i = 0; i < d; ++i) o[i] = 0.0 + W[i] * coefficients[0][j];
      for (l = 1; l < r; ++l)
        for (Eigen::Index i = 0; i < d; ++i) o[i] += W[l * d + i] * coefficients[l][j];
      for (Eigen::Index i = 0; i < d; ++i) o[i] += x[i] * coefficients[r][j];
    }
  }
}

// shifted_product_in_lanes eight columns at a time.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("arch=x86-64-v4", "default")))
#endif
void eight_lane_shifted_product(const double* W, const double* w, Eigen::Index r, const double* x,
                                const double* q, Eigen::Index q_stride, Eigen::Index d, Eigen::Index k,
                                double* out, Eigen::Index stride) noexcept {
  shifted_product_in_lanes<Lanes>(W, w, r, x, q, q_stride, d, k, out, stride);
}

}  // namespace

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("arch=x86-64-v3")))
#endif
void lane_products_avx2::shifted_product(const double* W, const double* w, Eigen::Index r, const double* x,
                                         const double* q, Eigen::Index q_stride, Eigen::Index d, Eigen::Index k,
                                         double* out, Eigen::Index stride) noexcept {
  shifted_product_in_lanes<FourLanes>(W, w, r, x, q, q_stride, d, k, out, stride);
}

namespace {

// shifted_product_in_lanes, four columns wide where AVX2 is the CPU's widest. Requires shifted_by_lanes(d, k,
// r).
void lane_shifted_product(const double* W, const double* w, Eigen::Index r, const double* x, const double* q,
                          Eigen::Index q_stride, Eigen::Index d, Eigen::Index k, double* out,
                          Eigen::Index stride) noexcept {
  if (avx2_is_widest())
    return lane_products_avx2::shifted_product(W, w, r, x, q, q_stride, d, k, out, stride);
  eight_lane_shifted_product(W, w, r, x, q, q_stride, d, k, out, stride);
}

// out += x (x^T Q), column by column so nothing is allocated.
void add_rank_one_product(const double* x, const Eigen::Ref<const Eigen::MatrixXd>& Q, double* out,
                          Eigen::Index stride) {
  rank_one_product<true>(x, Q, out, stride);
}

// x (x^T Q) for the `count` d-vectors stored one after another from x, into as many d x k blocks one after
// another from out: the products of apply_range, which the hot loops call with nothing checked.
void set_rank_one_products(const double* x, Eigen::Index count, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                           double* out, Eigen::Index stride) {
  const Eigen::Index d = Q.rows(), block = Q.cols() * stride;
  if (by_lanes(d, Q.cols(), count))
    lane_rank_one_products(x, count, Q.data(), Q.outerStride(), d, Q.cols(), nullptr, 0, out, stride);
  else if (kEigenOrderWrittenOut && d == 2)
    for (Eigen::Index l = 0; l < count; ++l)
      rank_one_product<false, true>(x + 2 * l, Q, out + l * block, stride);
  else
    for (Eigen::Index l = 0; l < count; ++l) rank_one_product<false>(x + d * l, Q, out + l * block, stride);
}

// out = C Q for C = W diag(w) W^T, accumulated term by term onto zero (what apply adds first).
void add_shift_product(const Eigen::MatrixXd& W, const Eigen::VectorXd& w,
                       const Eigen::Ref<const Eigen::MatrixXd>& Q, Eigen::Ref<Eigen::MatrixXd> out) {
  for (Eigen::Index l = 0; l < W.cols(); ++l)
    for (Eigen::Index j = 0; j < Q.cols(); ++j) out.col(j) += W.col(l) * (w[l] * W.col(l).dot(Q.col(j)));
}

// out blocks = Pi S Q + (x_l - Q z_l) z_l^T with z_l = Q^T x_l for the columns x_l of X: Pi (S + x x^T) Q
// in O(dk) per sample (two gemv and a rank-one update, sample by sample so that a block does not depend
// on which other samples share the call). `shift_product` writes S Q into its d x k argument and returns
// false for S = 0.
template <class ShiftProduct>
void rank_one_tangent_range(const Eigen::Ref<const Eigen::MatrixXd>& X, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                            Eigen::Ref<Eigen::MatrixXd> out, Eigen::MatrixXd& scratch, ShiftProduct shift_product) {
  const Eigen::Index d = Q.rows(), k = Q.cols();
  if (scratch.rows() < d || scratch.cols() < k + 2) scratch.resize(d, k + 2);
  auto projected_shift = scratch.leftCols(k);  // Pi S Q
  auto p = scratch.col(k);                     // Pi x_l
  auto z = scratch.col(k + 1).head(k);         // Q^T x_l (first Q^T S Q's columns)
  const bool shifted = shift_product(projected_shift);
  if (shifted)
    for (Eigen::Index j = 0; j < k; ++j) {
      z.noalias() = Q.transpose() * projected_shift.col(j);
      projected_shift.col(j).noalias() -= Q * z;
    }
  for (Eigen::Index l = 0; l < X.cols(); ++l) {
    z.noalias() = Q.transpose() * X.col(l);
    p = X.col(l);
    p.noalias() -= Q * z;
    for (Eigen::Index j = 0; j < k; ++j) {
      auto column = out.col(l * k + j);
      if (shifted)
        column = projected_shift.col(j) + p * z[j];
      else
        column = p * z[j];
    }
  }
}

void check_range_shapes(const SampleMatrices& s, Eigen::Index first, Eigen::Index count,
                        const Eigen::Ref<const Eigen::MatrixXd>& Q, const Eigen::Ref<Eigen::MatrixXd>& out) {
  if (first < 0 || count < 0 || first + count > s.n())
    throw InvalidArgument(
        fmt::format("apply_range: samples [{}, {}) outside [0, {})", first, first + count, s.n()));
  if (Q.rows() != s.d() || out.rows() != s.d() || out.cols() != count * Q.cols())
    throw InvalidArgument(
        fmt::format("apply_range: Q must be {} x k and out {} x {} k, got {} x {} and {} x {}", s.d(), s.d(),
                    count, Q.rows(), Q.cols(), out.rows(), out.cols()));
  check_no_overlap(Q, out);
}

}  // namespace

void check_apply_shapes(const SampleMatrices& s, Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                        const Eigen::Ref<Eigen::MatrixXd>& out) {
  if (i < 0 || i >= s.n())
    throw InvalidArgument(fmt::format("sample index {} out of range [0, {})", i, s.n()));
  if (Q.rows() != s.d() || out.rows() != s.d() || out.cols() != Q.cols())
    throw InvalidArgument(fmt::format("apply: Q and out must be {} x k with equal k, got {} x {} and {} x {}",
                                      s.d(), Q.rows(), Q.cols(), out.rows(), out.cols()));
  check_no_overlap(Q, out);
}

void SampleMatrices::apply_range(Eigen::Index first, Eigen::Index count,
                                 const Eigen::Ref<const Eigen::MatrixXd>& Q,
                                 Eigen::Ref<Eigen::MatrixXd> out) const {
  check_range_shapes(*this, first, count, Q, out);
  const Eigen::Index k = Q.cols();
  for (Eigen::Index l = 0; l < count; ++l) apply(first + l, Q, out.middleCols(l * k, k));
}

void SampleMatrices::apply_range_tangent(Eigen::Index first, Eigen::Index count,
                                         const Eigen::Ref<const Eigen::MatrixXd>& Q, Eigen::Ref<Eigen::MatrixXd> out,
                                         Eigen::MatrixXd& scratch) const {
  apply_range(first, count, Q, out);
  if (count == 0) return;
  // Pi A_l Q = A_l Q - Q (Q^T A_l Q) for every l at once: two GEMMs, not 2 count tiny ones.
  const Eigen::Index cols = count * Q.cols();
  if (scratch.rows() < Q.cols() || scratch.cols() < cols) scratch.resize(Q.cols(), cols);
  auto proj = scratch.topLeftCorner(Q.cols(), cols);
  proj.noalias() = Q.transpose() * out;
  out.noalias() -= Q * proj;
}

VectorSamples::VectorSamples(Eigen::MatrixXd X) : X_(std::move(X)) { require_finite(X_, "sample vectors"); }

void VectorSamples::apply(Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                          Eigen::Ref<Eigen::MatrixXd> out) const {
  check_apply_shapes(*this, i, Q, out);
  set_rank_one_products(X_.col(i).data(), 1, Q, out.data(), out.outerStride());
}

void VectorSamples::apply_range(Eigen::Index first, Eigen::Index count,
                                const Eigen::Ref<const Eigen::MatrixXd>& Q,
                                Eigen::Ref<Eigen::MatrixXd> out) const {
  // Checked once for the range: at small d, checking and calling `apply` per sample cost more than the
  // product.
  check_range_shapes(*this, first, count, Q, out);
  set_rank_one_products(X_.data() + first * X_.rows(), count, Q, out.data(), out.outerStride());
}

void VectorSamples::prefetch(Eigen::Index i) const {
  if (i < 0 || i >= X_.cols()) return;
  const char* column = reinterpret_cast<const char*>(X_.col(i).data());
  const auto bytes = static_cast<std::size_t>(X_.rows()) * sizeof(double);
  for (std::size_t offset = 0; offset < bytes; offset += 64) __builtin_prefetch(column + offset);
}

void VectorSamples::apply_range_tangent(Eigen::Index first, Eigen::Index count,
                                        const Eigen::Ref<const Eigen::MatrixXd>& Q, Eigen::Ref<Eigen::MatrixXd> out,
                                        Eigen::MatrixXd& scratch) const {
  check_range_shapes(*this, first, count, Q, out);
  rank_one_tangent_range(X_.middleCols(first, count), Q, out, scratch,
                         [](Eigen::Ref<Eigen::MatrixXd>) { return false; });
}

ShiftedVectorSamples::ShiftedVectorSamples(Eigen::MatrixXd W, Eigen::VectorXd w, Eigen::MatrixXd X)
    : W_(std::move(W)), w_(std::move(w)), X_(std::move(X)) {
  if (W_.rows() != X_.rows() || W_.cols() != w_.size())
    throw InvalidArgument("ShiftedVectorSamples: W must be d x r and w of length r");
  require_finite(W_, "shift factor W");
  require_finite(w_, "shift weights w");
  if (w_.size() > 0 && w_.minCoeff() < 0)
    throw InvalidArgument("ShiftedVectorSamples: shift weights w must be >= 0 (C = W diag(w) W^T is PSD)");
  require_finite(X_, "sample vectors");
}

void ShiftedVectorSamples::apply(Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                                 Eigen::Ref<Eigen::MatrixXd> out) const {
  check_apply_shapes(*this, i, Q, out);
  if (shifted_by_lanes(d(), Q.cols(), W_.cols()))
    return lane_shifted_product(W_.data(), w_.data(), W_.cols(), X_.col(i).data(), Q.data(), Q.outerStride(),
                                d(), Q.cols(), out.data(), out.outerStride());
  out.setZero();
  add_shift_product(W_, w_, Q, out);
  add_rank_one_product(X_.col(i).data(), Q, out.data(), out.outerStride());
}

void ShiftedVectorSamples::apply_range(Eigen::Index first, Eigen::Index count,
                                       const Eigen::Ref<const Eigen::MatrixXd>& Q,
                                       Eigen::Ref<Eigen::MatrixXd> out) const {
  check_range_shapes(*this, first, count, Q, out);
  if (count == 0) return;
  const Eigen::Index k = Q.cols();
  auto CQ = out.leftCols(k);  // the first sample's block holds C Q until it is finished
  CQ.setZero();
  add_shift_product(W_, w_, Q, CQ);
  if (by_lanes(d(), k, count))
    return lane_rank_one_products(X_.col(first).data(), count, Q.data(), Q.outerStride(), d(), k, CQ.data(),
                                  out.outerStride(), out.data(), out.outerStride());
  for (Eigen::Index l = count - 1; l >= 0; --l) {
    auto block = out.middleCols(l * k, k);
    if (l > 0) block = CQ;
    add_rank_one_product(X_.col(first + l).data(), Q, block.data(), out.outerStride());
  }
}

void ShiftedVectorSamples::apply_range_tangent(Eigen::Index first, Eigen::Index count,
                                               const Eigen::Ref<const Eigen::MatrixXd>& Q,
                                               Eigen::Ref<Eigen::MatrixXd> out, Eigen::MatrixXd& scratch) const {
  check_range_shapes(*this, first, count, Q, out);
  rank_one_tangent_range(X_.middleCols(first, count), Q, out, scratch, [&](Eigen::Ref<Eigen::MatrixXd> CQ) {
    CQ.setZero();
    add_shift_product(W_, w_, Q, CQ);
    return true;
  });
}

FactorSamples::FactorSamples(Eigen::MatrixXd X, Eigen::Index m) : X_(std::move(X)), m_(m) {
  if (m_ < 1 || X_.cols() % m_ != 0)
    throw InvalidArgument(fmt::format("FactorSamples: {} columns are not whole blocks of m = {} factors", X_.cols(), m_));
  require_finite(X_, "sample factors");
}

void FactorSamples::apply(Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                          Eigen::Ref<Eigen::MatrixXd> out) const {
  check_apply_shapes(*this, i, Q, out);
  product_into(i, Q, out.data(), out.outerStride());
}

void FactorSamples::apply_range(Eigen::Index first, Eigen::Index count,
                                const Eigen::Ref<const Eigen::MatrixXd>& Q,
                                Eigen::Ref<Eigen::MatrixXd> out) const {
  check_range_shapes(*this, first, count, Q, out);  // once for the range, as VectorSamples does
  const Eigen::Index k = Q.cols(), stride = out.outerStride();
  for (Eigen::Index l = 0; l < count; ++l) product_into(first + l, Q, out.data() + l * k * stride, stride);
}

void FactorSamples::product_into(Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q, double* out,
                                 Eigen::Index stride) const {
  // The first factor's product onto zero, then the others added in order.
  set_rank_one_products(X_.col(i * m_).data(), 1, Q, out, stride);
  for (Eigen::Index l = 1; l < m_; ++l) add_rank_one_product(X_.col(i * m_ + l).data(), Q, out, stride);
}

Eigen::MatrixXd ShiftedVectorSamples::shift() const { return W_ * w_.asDiagonal() * W_.transpose(); }

}  // namespace dpb::core
