#include "algorithms/sparse/sparse_matrix_ops.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "core/linalg.hpp"

namespace dpb::alg {
namespace {

// The first `count` indices of `order` after a partial sort by magnitude (descending), ties by
// index (ascending); `magnitude(i)` gives the key of index i.
template <class Magnitude>
bool select_largest(std::vector<Eigen::Index>& order, Eigen::Index count, Magnitude magnitude) {
  const auto before = [&](Eigen::Index a, Eigen::Index b) {
    const double ma = magnitude(a), mb = magnitude(b);
    return ma > mb || (ma == mb && a < b);
  };
  std::nth_element(order.begin(), order.begin() + (count - 1), order.end(), before);
  const double cutoff = magnitude(order[count - 1]);
  bool tie = false;
  for (auto it = order.begin() + count; it != order.end(); ++it) tie = tie || magnitude(*it) == cutoff;
  order.resize(count);
  std::sort(order.begin(), order.end());
  return tie;
}

void require_count(Eigen::Index count, Eigen::Index size, const char* what) {
  if (count < 1 || count > size)
    throw InvalidArgument(
        fmt::format("{}: need 1 <= k <= {} (the number of entries), got k = {}", what, size, count));
}

}  // namespace

Eigen::MatrixXd hard_threshold(const Eigen::MatrixXd& M, double tau) {
  if (!(tau >= 0) || !std::isfinite(tau))
    throw InvalidArgument(fmt::format("hard_threshold: tau must be finite and >= 0, got {}", tau));
  core::require_finite(M, "hard_threshold input");
  return (M.array().abs() >= tau).select(M, 0.0);  // spec: kumar2025 Eq. 1, non-strict
}

std::vector<Eigen::Index> top_k_support(const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Index k,
                                        bool* tie_at_cutoff) {
  require_count(k, v.size(), "top_k");
  std::vector<Eigen::Index> order(static_cast<std::size_t>(v.size()));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  const bool tie = select_largest(order, k, [&](Eigen::Index i) { return std::abs(v[i]); });
  if (tie_at_cutoff) *tie_at_cutoff = tie;
  return order;
}

Eigen::VectorXd top_k(const Eigen::VectorXd& v, Eigen::Index k) {
  Eigen::VectorXd out = Eigen::VectorXd::Zero(v.size());
  for (Eigen::Index i : top_k_support(v, k)) out[i] = v[i];
  return out;
}

TopEntries top_entries(const Eigen::MatrixXd& M, Eigen::Index count) {
  const Eigen::Index rows = M.rows(), cols = M.cols();
  require_count(count, rows * cols, "top_{k^2}");
  // Linear index in row-major order, so that index order is (row, column) lexicographic.
  std::vector<Eigen::Index> order(static_cast<std::size_t>(rows * cols));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  const auto entry = [&](Eigen::Index l) { return M(l / cols, l % cols); };
  TopEntries out{Eigen::MatrixXd::Zero(rows, cols), false};
  out.tie_at_cutoff = select_largest(order, count, [&](Eigen::Index l) { return std::abs(entry(l)); });
  for (Eigen::Index l : order) out.kept(l / cols, l % cols) = entry(l);
  return out;
}

bool is_k_rcs(const Eigen::MatrixXd& M, Eigen::Index k) {
  if (k < 1) throw InvalidArgument(fmt::format("k-RCS test: k must be >= 1, got {}", k));
  const auto nonzero = (M.array() != 0.0).cast<Eigen::Index>();
  return nonzero.rowwise().sum().maxCoeff() <= k && nonzero.colwise().sum().maxCoeff() <= k;
}

Eigen::MatrixXd graph_projection(const Eigen::MatrixXd& M,
                                 const std::vector<std::pair<Eigen::Index, Eigen::Index>>& edges) {
  const Eigen::Index d = M.rows();
  if (M.cols() != d) throw InvalidArgument("graph projection P_G: the matrix must be square");
  Eigen::MatrixXd out = Eigen::MatrixXd::Zero(d, d);
  out.diagonal() = M.diagonal();
  for (const auto& [i, j] : edges) {
    if (i < 0 || j < 0 || i >= d || j >= d)
      throw InvalidArgument(
          fmt::format("graph projection P_G: edge ({}, {}) has an endpoint outside [0, {})", i, j, d));
    out(i, j) = M(i, j);
    out(j, i) = M(j, i);
  }
  return out;
}

double max_abs_difference(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) {
  if (A.rows() != B.rows() || A.cols() != B.cols())
    throw InvalidArgument("max_abs_difference: shapes differ");
  return A.size() ? (A - B).cwiseAbs().maxCoeff() : 0.0;
}

namespace {
// Whether |a_l - b_l| <= radius for every l < size. Chunks without an exit inside vectorise (a branch per
// entry does not). A NaN compares false.
__attribute__((always_inline)) inline bool within_max_abs(const double* a, const double* b, Eigen::Index size,
                                                          double radius) {
  constexpr Eigen::Index kChunk = 64;
  for (Eigen::Index start = 0; start < size; start += kChunk) {
    const Eigen::Index length = std::min(size - start, kChunk);
    std::int64_t within = -1;  // all bits set while every entry is within; lanes as wide as a double
    for (Eigen::Index l = start; l < start + length; ++l)
      within &= -static_cast<std::int64_t>(std::abs(a[l] - b[l]) <= radius);
    if (!within) return false;
  }
  return true;
}

// Every pair compared entry by entry, all pairs in one call: at kumar2025's small d a call per pair cost more
// than its comparisons. x86-64's baseline SSE2 has no 64-bit lane compare-and-combine that GCC uses here, so
// AVX2 and AVX-512 clones are chosen at run time where the CPU has them. The caller sizes f (m ones): a clone
// allocates nothing and throws nothing (docs/architecture.md).
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
void count_friends_pairwise(const std::vector<Eigen::MatrixXd>& matrices, double radius,
                            Eigen::VectorXd& f) noexcept {
  const auto m = static_cast<Eigen::Index>(matrices.size());
  for (Eigen::Index i = 0; i < m; ++i) {
    const Eigen::MatrixXd& A = matrices[static_cast<std::size_t>(i)];
    for (Eigen::Index j = i + 1; j < m; ++j)
      if (within_max_abs(A.data(), matrices[static_cast<std::size_t>(j)].data(), A.size(), radius)) {
        f[i] += 1;
        f[j] += 1;
      }
  }
}

Eigen::VectorXd pairwise_friend_counts(const std::vector<Eigen::MatrixXd>& matrices, double radius) {
  Eigen::VectorXd f = Eigen::VectorXd::Ones(static_cast<Eigen::Index>(matrices.size()));
  count_friends_pairwise(matrices, radius, f);
  return f;
}

// The pairs i < j (as i m + j) that entry l alone puts beyond the radius, appended to `apart`; false, leaving
// `apart` partial, once it would exceed `budget`. Among the values sorted, v_p <= v_q <= v_q', rounding is
// monotone: fl(v_q - v_p) <= fl(v_q' - v_p), and it only falls as p rises. So each p's partners beyond the
// radius are a suffix of the order, and its start only moves right.
bool pairs_apart_at(const std::vector<Eigen::MatrixXd>& matrices, Eigen::Index l, double radius,
                    std::vector<std::pair<double, std::uint32_t>>& sorted, std::vector<std::uint64_t>& apart,
                    std::size_t budget) {
  const auto m = matrices.size();
  sorted.clear();
  for (std::size_t i = 0; i < m; ++i)
    sorted.emplace_back(matrices[i].data()[l], static_cast<std::uint32_t>(i));
  std::sort(sorted.begin(), sorted.end());
  std::size_t q = 0;
  for (std::size_t p = 0; p < m; ++p) {
    q = std::max(q, p + 1);
    while (q < m && sorted[q].first - sorted[p].first <= radius) ++q;
    if (apart.size() + (m - q) > budget) return false;
    for (std::size_t r = q; r < m; ++r) {
      const auto [i, j] = std::minmax(sorted[p].second, sorted[r].second);
      apart.push_back(std::uint64_t{i} * m + j);
    }
  }
  return true;
}

}  // namespace

Eigen::VectorXd friend_counts(const std::vector<Eigen::MatrixXd>& matrices, double radius) {
  for (const Eigen::MatrixXd& M : matrices)
    if (M.rows() != matrices.front().rows() || M.cols() != matrices.front().cols())
      throw InvalidArgument("friend_counts: the matrices' shapes differ");
  const std::size_t m = matrices.size();
  // Few matrices, or a value the sorted path's order cannot hold (NaN; infinities, whose differences are
  // NaN): compare every pair.
  constexpr std::size_t kFewMatrices = 64;
  const auto finite = [](const Eigen::MatrixXd& M) { return M.allFinite(); };
  if (m < kFewMatrices || m > UINT32_MAX || !std::isfinite(radius) ||
      !std::all_of(matrices.begin(), matrices.end(), finite))
    return pairwise_friend_counts(matrices, radius);
  // An entry whose values over all matrices span at most the radius separates no pair (fl(hi - lo) bounds
  // every fl(b - a) with lo <= a <= b <= hi): only the others are looked at. Under the model, most blocks'
  // moments are close, so most pairs are friends and few are not: the pairs apart are listed entry by entry
  // (sorted, O(m log m) plus the pairs), unless they pass a budget: then every pair is compared.
  const Eigen::Index size = matrices.front().size();
  const std::size_t budget = std::min<std::size_t>(m * m / 8, std::size_t{1} << 22);
  std::vector<std::pair<double, std::uint32_t>> sorted;
  std::vector<std::uint64_t> apart;
  for (Eigen::Index l = 0; l < size; ++l) {
    double lo = matrices.front().data()[l], hi = lo;
    for (const Eigen::MatrixXd& M : matrices) {
      lo = std::min(lo, M.data()[l]);
      hi = std::max(hi, M.data()[l]);
    }
    if (hi - lo <= radius) continue;
    if (!pairs_apart_at(matrices, l, radius, sorted, apart, budget))
      return pairwise_friend_counts(matrices, radius);
  }
  // f_i = 1 + (m - 1 - #{j : i, j apart}) = m - #{j : i, j apart}, each pair once however many entries part
  // it.
  std::sort(apart.begin(), apart.end());
  apart.erase(std::unique(apart.begin(), apart.end()), apart.end());
  Eigen::VectorXd f = Eigen::VectorXd::Constant(static_cast<Eigen::Index>(m), static_cast<double>(m));
  for (const std::uint64_t key : apart) {
    f[static_cast<Eigen::Index>(key / m)] -= 1;
    f[static_cast<Eigen::Index>(key % m)] -= 1;
  }
  return f;
}

TopTwoEigenvalues top_two_eigenvalues(const Eigen::MatrixXd& S) {
  if (S.rows() < 2 || S.cols() != S.rows())
    throw InvalidArgument("top_two_eigenvalues: need a square matrix of size >= 2");
  const Eigen::VectorXd ev = core::symmetric_eigenvalues(S);
  return {ev[ev.size() - 1], ev[ev.size() - 2]};
}

}  // namespace dpb::alg
