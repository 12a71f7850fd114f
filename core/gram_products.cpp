#include "core/gram_products.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "core/cpu_level.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace dpb::core::gram_products {
namespace {

// The helpers below pass vectors by value (a reference to a tile's sums would keep them in memory); all are
// inlined, so no call crosses an ABI boundary, and CMakeLists.txt builds this file with -Wno-psabi.

using Index = Eigen::Index;
// Vectors of doubles: V2 is an SSE2 register, V4 an AVX2 one (two SSE2 ones in the baseline). The build
// forbids contracting a product and a sum into an FMA, so every lane rounds each as the scalar order does.
using V2 = double __attribute__((vector_size(16)));
using V4 = double __attribute__((vector_size(32)));
template <class V>
constexpr Index kWidth = sizeof(V) / sizeof(double);
constexpr Index kLanes = kWidth<V4>;

template <class V = V4>
[[gnu::always_inline]] inline V load(const double* p) {
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class V>
[[gnu::always_inline]] inline void store(double* p, V v) {
  std::memcpy(p, &v, sizeof v);
}
template <class V = V4>
[[gnu::always_inline]] inline V splat(double x) {
  V v;
  for (Index i = 0; i < kWidth<V>; ++i) v[i] = x;
  return v;
}
#if defined(__x86_64__) && defined(__GNUC__)
// *p in every lane by a broadcast from memory, which takes a load port only (GCC would load four neighbours
// at once and shuffle each into place, on the ports the products need). The AVX2 kernels inline it:
// `flatten`.
[[gnu::target("arch=x86-64-v3")]] inline V4 broadcast_avx2(const double* p) {
  return reinterpret_cast<V4>(_mm256_broadcast_sd(p));
}
#endif
template <class V>
[[gnu::always_inline]] inline V broadcast(const double* p) {
#if defined(__x86_64__) && defined(__GNUC__)
  if constexpr (std::is_same_v<V, V4>) return broadcast_avx2(p);
#endif
  return splat<V>(*p);
}

// The Gram matrix of the g x h matrix M (M(i, t) = data[i row_step + t column_step]), in tiles of S = 2 w
// rows by 4 columns for vectors of w lanes: 8 vectors of sums, which with the operands fill the 16 registers
// of AVX2 (w = 4) or SSE2 (w = 2). M's columns are copied a block of `depth` at a time into slivers of S rows
// (zero below row g), each sliver's columns one after another, so that a tile reads both operands in order. A
// tile's sums carry over from block to block through `acc`, the padded g x g Gram matrix: its entries are
// chains in column order whatever the blocking.
struct Strided {
  const double* data;
  Index row_step, column_step;
};

constexpr Index kTileColumns = 4;

// Columns copied at a time for a padded height of `rows`: 256 KiB of them, within a core's L2.
Index panel_depth(Index rows, Index h) {
  constexpr Index kPanelDoubles = 1 << 15;
  return std::clamp<Index>(kPanelDoubles / rows, 8, std::max<Index>(h, 8));
}

template <class V>
[[gnu::always_inline]] inline void gram_in_tiles(const Strided& M, Index g, Index h, double* acc, Index rows,
                                                 double* panel) {
  constexpr int R = 2;  // vectors per column of a tile
  constexpr Index S = R * kWidth<V>;
  const Index slivers = rows / S, depth = panel_depth(rows, h);
  for (Index first = 0; first < h; first += depth) {
    const Index count = std::min(depth, h - first);
    for (Index s = 0; s < slivers; ++s)
      for (Index t = 0; t < count; ++t)
        for (Index r = 0; r < S; ++r) {
          const Index i = s * S + r;
          panel[(s * depth + t) * S + r] = i < g ? M.data[i * M.row_step + (first + t) * M.column_step] : 0.0;
        }
    for (Index j = 0; j < g; j += kTileColumns) {
      const Index js = j / S;
      const double* b = panel + js * depth * S + j % S;
      for (Index s = js; s < slivers; ++s) {  // sliver js may hold entries above the diagonal: harmless
        const double* a = panel + s * depth * S;
        double* tile = acc + j * rows + s * S;
        V sum[R][kTileColumns];
        for (Index c = 0; c < kTileColumns; ++c)
          for (int r = 0; r < R; ++r) sum[r][c] = first == 0 ? V{} : load<V>(tile + c * rows + r * kWidth<V>);
        for (Index t = 0; t < count; ++t) {
          V x[R];
          for (int r = 0; r < R; ++r) x[r] = load<V>(a + t * S + r * kWidth<V>);
#pragma GCC unroll 4
          for (Index c = 0; c < kTileColumns; ++c) {
            const V y = broadcast<V>(b + t * S + c);
            for (int r = 0; r < R; ++r) sum[r][c] += x[r] * y;
          }
        }
        for (Index c = 0; c < kTileColumns; ++c)
          for (int r = 0; r < R; ++r) store(tile + c * rows + r * kWidth<V>, sum[r][c]);
      }
    }
  }
}

// The C dot products dot(a_c, x) of the header, side by side (C chains hide each other's latency). The eight
// partial sums are 8 / w vectors of w lanes; the first half's lanes meet the second's (s_p + s_{p + 4}).
template <class V, int C>
[[gnu::always_inline]] inline void dots(const double* const* a, const double* x, Index n, double* out) {
  constexpr Index w = kWidth<V>, P = 8 / w;
  const Index blocked = n / 8 * 8;
  V part[C][P] = {};
  for (Index i = 0; i < blocked; i += 8) {
    V xs[P];
    for (Index p = 0; p < P; ++p) xs[p] = load<V>(x + i + p * w);
    for (int c = 0; c < C; ++c)
      for (Index p = 0; p < P; ++p) part[c][p] += load<V>(a[c] + i + p * w) * xs[p];
  }
  for (int c = 0; c < C; ++c) {
    double u[4];  // u_q = s_q + s_{q + 4}
    for (Index p = 0; p < P / 2; ++p) store(u + p * w, part[c][p] + part[c][p + P / 2]);
    double sum = (u[0] + u[2]) + (u[1] + u[3]);
    for (Index i = blocked; i < n; ++i) sum += a[c][i] * x[i];
    out[c] = sum;
  }
}

// y += x_0 a_0 + ... + x_{C-1} a_{C-1} over n entries, the terms added one at a time in order.
template <class V, int C>
[[gnu::always_inline]] inline void add_combination(const double* const* a, const double* x, Index n,
                                                   double* y) {
  constexpr Index w = kWidth<V>;
  const Index blocked = n / w * w;
  V xs[C];
  for (int c = 0; c < C; ++c) xs[c] = splat<V>(x[c]);
  for (Index i = 0; i < blocked; i += w) {
    V sum = load<V>(y + i);
    for (int c = 0; c < C; ++c) sum += load<V>(a[c] + i) * xs[c];
    store(y + i, sum);
  }
  for (Index i = blocked; i < n; ++i)
    for (int c = 0; c < C; ++c) y[i] += a[c][i] * x[c];
}

// The columns of D (d x b, columns ld apart) C at a time, then one at a time: f(C, pointers to them, l).
constexpr int kColumnsAtOnce = 4;
template <class F>
[[gnu::always_inline]] inline void by_columns(const double* D, Index b, Index ld, F&& f) {
  Index l = 0;
  for (; l + kColumnsAtOnce <= b; l += kColumnsAtOnce) {
    const double* columns[kColumnsAtOnce];
    for (int c = 0; c < kColumnsAtOnce; ++c) columns[c] = D + (l + c) * ld;
    f(std::integral_constant<int, kColumnsAtOnce>{}, columns, l);
  }
  for (; l < b; ++l) {
    const double* column[1] = {D + l * ld};
    f(std::integral_constant<int, 1>{}, column, l);
  }
}

// D (D^T v) (rows) in one pass over D: a few columns' dot products with v, then their terms of the
// combination. D^T (D v) (columns): the combination first, then the dot products.
template <class V>
[[gnu::always_inline]] inline void apply_in_order(const double* D, Index d, Index b, Index ld, bool rows,
                                                  const double* v, double* middle, double* out) {
  if (rows) {
    std::fill(out, out + d, 0.0);
    by_columns(D, b, ld, [&](auto C, const double* const* columns, Index l) {
      dots<V, C()>(columns, v, d, middle + l);
      add_combination<V, C()>(columns, middle + l, d, out);
    });
    return;
  }
  std::fill(middle, middle + d, 0.0);
  by_columns(D, b, ld, [&](auto C, const double* const* columns, Index l) {
    add_combination<V, C()>(columns, v + l, d, middle);
  });
  by_columns(D, b, ld, [&](auto C, const double* const* columns, Index l) {
    dots<V, C()>(columns, middle, d, out + l);
  });
}

void gram_baseline(const Strided& M, Index g, Index h, double* acc, Index rows, double* panel) {
  gram_in_tiles<V2>(M, g, h, acc, rows, panel);
}
void apply_baseline(const double* D, Index d, Index b, Index ld, bool rows, const double* v, double* middle,
                    double* out) {
  apply_in_order<V2>(D, d, b, ld, rows, v, middle, out);
}

#if defined(__x86_64__) && defined(__GNUC__)
[[gnu::target("arch=x86-64-v3"), gnu::flatten]] void gram_avx2(const Strided& M, Index g, Index h,
                                                               double* acc, Index rows, double* panel) {
  gram_in_tiles<V4>(M, g, h, acc, rows, panel);
}
[[gnu::target("arch=x86-64-v3")]] void apply_avx2(const double* D, Index d, Index b, Index ld, bool rows,
                                                  const double* v, double* middle, double* out) {
  apply_in_order<V4>(D, d, b, ld, rows, v, middle, out);
}
#else
void gram_avx2(const Strided& M, Index g, Index h, double* acc, Index rows, double* panel) {
  gram_baseline(M, g, h, acc, rows, panel);
}
void apply_avx2(const double* D, Index d, Index b, Index ld, bool rows, const double* v, double* middle,
                double* out) {
  apply_baseline(D, d, b, ld, rows, v, middle, out);
}
#endif

}  // namespace

Kernel widest_kernel() noexcept { return has_avx2() ? Kernel::avx2 : Kernel::baseline; }

void gram(const Eigen::Ref<const Eigen::MatrixXd>& D, GramOf side, Eigen::MatrixXd& G,
          std::vector<double>& scratch, Kernel kernel) {
  const bool rows_side = side == GramOf::rows;
  const Index g = rows_side ? D.rows() : D.cols(), h = rows_side ? D.cols() : D.rows();
  const Strided M{D.data(), rows_side ? 1 : D.outerStride(), rows_side ? D.outerStride() : 1};
  constexpr Index kSliver = 2 * kLanes;  // either kernel's sliver divides it
  G.resize(g, g);
  if (g == 0 || h == 0) {
    G.setZero();
    return;
  }
  const Index rows = (g + kSliver - 1) / kSliver * kSliver;
  const Index depth = panel_depth(rows, h);
  scratch.resize(static_cast<std::size_t>(rows * rows + rows * depth));
  double* acc = scratch.data();
  double* panel = acc + rows * rows;
  kernel == Kernel::avx2 ? gram_avx2(M, g, h, acc, rows, panel) : gram_baseline(M, g, h, acc, rows, panel);
  for (Index j = 0; j < g; ++j)
    for (Index i = j; i < g; ++i) G(i, j) = G(j, i) = acc[j * rows + i];
}

void apply_gram(const Eigen::Ref<const Eigen::MatrixXd>& D, GramOf side, const double* v, double* middle,
                double* out, Kernel kernel) {
  const bool rows = side == GramOf::rows;
  kernel == Kernel::avx2
      ? apply_avx2(D.data(), D.rows(), D.cols(), D.outerStride(), rows, v, middle, out)
      : apply_baseline(D.data(), D.rows(), D.cols(), D.outerStride(), rows, v, middle, out);
}

}  // namespace dpb::core::gram_products
