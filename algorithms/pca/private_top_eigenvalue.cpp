#include "algorithms/pca/private_top_eigenvalue.hpp"

#include <fmt/format.h>
#include <cmath>

#include "algorithms/mechanisms/histogram.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/samplers.hpp"

namespace dpb::alg {
namespace {
const std::string kOwner = "liu2022.private_top_eigenvalue";

void check_privacy(const Privacy& privacy, const std::string& owner) {
  validate(privacy);
  if (!(privacy.delta > 0)) throw InvalidArgument(fmt::format("{}: needs delta in (0, 1), got 0", owner));
  if (privacy.neighbours != Neighbours::replace)  // spec: liu2022 ambiguity 2
    throw InvalidArgument(fmt::format("{}: supports replace-one neighbours only (spec ambiguity 2)", owner));
}
}  // namespace

Eigen::Index top_eigenvalue_subsets(double epsilon, double delta, double zeta, double C1) {
  // spec: liu2022 ambiguity 13
  return static_cast<Eigen::Index>(std::ceil(C1 * std::log(1.0 / (delta * zeta)) / epsilon)) + 2;
}

TopEigenvalueResult private_top_eigenvalue(const Eigen::Ref<const Eigen::MatrixXd>& G, const Privacy& privacy,
                                           double zeta, const TopEigenvalueOptions& options, core::Rng& rng,
                                           TopEigenvalueWorkspace& ws, Ledger& ledger) {
  check_privacy(privacy, kOwner);
  if (!(zeta > 0 && zeta < 1))
    throw InvalidArgument(fmt::format("{}: zeta must lie in (0, 1), got {}", kOwner, zeta));
  if (!(options.C1 > 0)) throw InvalidArgument(fmt::format("{}: C1 must be > 0", kOwner));
  const Eigen::Index d = G.rows(), B_in = G.cols();
  TopEigenvalueResult r;
  // 2: k subsets of b = floor(B'/(2k)) paired differences each (contiguous blocks, leftovers dropped:
  // spec: liu2022 ambiguity 14)
  r.subsets = top_eigenvalue_subsets(privacy.epsilon, privacy.delta, zeta, options.C1);
  r.subset_size = B_in / (2 * r.subsets);
  if (r.subset_size < 1)
    throw InvalidArgument(
        fmt::format("{}: needs B' >= 2k input vectors (k = ceil(C1 log(1/(delta zeta))/eps) + 2 = {}), got "
                    "B' = {} (spec: "
                    "liu2022 ambiguity 13)",
                    kOwner, r.subsets, B_in));
  const Eigen::Index k = r.subsets, b = r.subset_size;
  // Subset by subset, so that its differences (d x b) stay in cache for its eigenvalue: all k b of them
  // at once were written to memory and read back (80 MB at n = 1e5, d = 200).
  ws.differences.resize(d, b);
  ws.bins.resize(static_cast<std::size_t>(k));
  const double bd = static_cast<double>(b);
  const core::EigenvalueDecided bin_decided = [bd](double lo, double hi) {
    return same_log_bin(std::max(0.0, lo) / bd, std::max(0.0, hi) / bd);  // monotone in lambda
  };
  for (Eigen::Index j = 0; j < k; ++j) {
    // 1: g~_i = g_{2i} - g_{2i-1}, for the b differences of subset j
    for (Eigen::Index l = 0; l < b; ++l) {
      const Eigen::Index i = j * b + l;
      ws.differences.col(l) = G.col(2 * i + 1) - G.col(2 * i);
    }
    // 3: lambda^(j) = top eigenvalue of (1/b) G_j G_j^T (Lanczos on G_j, or its smaller Gram matrix), found
    // only as far as its log bin (line 4) needs: the bin is what the histogram reads
    const double top =
        std::max(0.0, core::largest_gram_eigenvalue(ws.differences, ws.eigen, bin_decided)) / bd;
    if (!std::isfinite(top))
      throw InvalidArgument(fmt::format("{}: the input vectors must be finite", kOwner));
    ws.bins[static_cast<std::size_t>(j)] = log_bin(top);  // 4: bins [2^{m/4}, 2^{(m+1)/4}) and [0, 0]
  }
  // 5: (eps, delta)-DP histogram (Lemma B.1)
  // A replaced g_i changes one difference, hence one subset's eigenvalue: the histogram of the k subset
  // values is over k records.
  const StabilityHistogram h =
      stability_histogram(ws.bins, privacy, "Alg. 4: histogram of subset top eigenvalues (Lemma B.1)", ledger, rng,
                          options.release);
  r.occupied_bins = h.occupied;
  r.released_bins = h.released.size();
  const auto best = largest_released_bin(h);  // 7: ties to the smallest bin (ambiguity 15)
  if (!best) return r;                        // 6: every bin released as 0: BOTTOM
  r.zero_bin = best->bin == zero_log_bin;
  const double left = log_bin_left(best->bin);
  r.value = options.halve_difference_scale ? left / 2 : left;  // 8 (spec: liu2022 ambiguity 6)
  return r;
}

const Eigen::MatrixXd& liu2022_gradient_vectors(const Input& in, core::Rng& rng, const std::string& owner,
                                                Eigen::MatrixXd& storage) {
  if (in.X) {
    if (in.X->cols() < 1 || in.X->rows() < 1)
      throw InvalidArgument(fmt::format("{}: needs at least one vector of dimension >= 1", owner));
    core::require_finite(*in.X, "input vectors");
    return *in.X;
  }
  if (!in.samples)
    throw InvalidArgument(
        fmt::format("{}: needs vectors (Input.X) or sample matrices (Input.samples)", owner));
  const Eigen::Index n = in.samples->n(), d = in.samples->d();
  if (n < 1 || d < 1) throw InvalidArgument(fmt::format("{}: needs n >= 1 and d >= 1", owner));
  const Eigen::VectorXd u = core::unit_sphere(rng, d);
  storage.resize(d, n);
  for (Eigen::Index i = 0; i < n; ++i) in.samples->apply(i, u, storage.col(i));
  return storage;
}

PrivateTopEigenvalue::PrivateTopEigenvalue(TopEigenvalueOptions options, double zeta)
    : options_(options), zeta_(zeta) {
  if (!(options_.C1 > 0)) throw InvalidArgument(fmt::format("{}: C1 must be > 0", kOwner));
  if (!(zeta_ > 0 && zeta_ < 1)) throw InvalidArgument(fmt::format("{}: zeta must lie in (0, 1)", kOwner));
}

PrivacyClaim PrivateTopEigenvalue::claim(const Input& in) const {
  return liu2022::replace_one_claim(
      in.privacy,
      {"Thm 6.1 via Lemma B.1: one replaced g_i changes one subset's eigenvalue, hence at most two "
       "histogram bins by 1/k; holds for any data and any k"});
}

Estimate PrivateTopEigenvalue::run(const Input& in, core::Rng& rng) const {
  check_privacy(in.privacy, kOwner);
  Eigen::MatrixXd storage;
  const Eigen::MatrixXd& G = liu2022_gradient_vectors(in, rng, kOwner, storage);
  TopEigenvalueWorkspace ws;
  Estimate est;
  const TopEigenvalueResult r = private_top_eigenvalue(G, in.privacy, zeta_, options_, rng, ws, est.ledger);
  est.claim = claim(in);
  auto& diag = est.diagnostics;
  diag.counters["subsets"] = static_cast<double>(r.subsets);
  diag.counters["subset_size"] = static_cast<double>(r.subset_size);
  diag.counters["occupied_bins"] = static_cast<double>(r.occupied_bins);
  diag.counters["released_bins"] = static_cast<double>(r.released_bins);
  diag.counters["bottom"] = r.value ? 0 : 1;
  diag.counters["zero_bin"] = r.zero_bin ? 1 : 0;
  if (r.value) {
    est.scalar = *r.value;
    // On vectors g_i = x_i it estimates lambda_max(Cov x), which is Sigma's lambda1 for zero-mean data;
    // on A_i u it estimates lambda1^2 ||H_u|| at a random u, which no model publishes.
    if (in.X) est.scalar_estimand = std::string("lambda1");
    est.eigenvalues = Eigen::VectorXd::Constant(1, *r.value);
  } else {
    diag.notes.push_back("BOTTOM: every histogram bin was released as 0 (Alg. 4 line 6); no estimate");
  }
  return est;
}

}  // namespace dpb::alg
