#include "algorithms/pca/private_mean.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "algorithms/mechanisms/composition.hpp"
#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/mechanisms/histogram.hpp"
#include "algorithms/pca/private_top_eigenvalue.hpp"
#include "core/errors.hpp"

namespace dpb::alg {
namespace {
const std::string kOwner = "liu2022.private_mean";

void check_options(const PrivateMeanOptions& o) {
  if (!(o.K > 0 && o.a > 0 && o.tau_log_argument > 1 && o.truncation_multiplier > 0))
    throw InvalidArgument(
        fmt::format("{}: K, a, truncation_multiplier must be > 0 and tau_log_argument > 1", kOwner));
  if (!(o.noise_multiplier >= 4 * o.truncation_multiplier))
    throw InvalidArgument(fmt::format(
        "{}: noise_multiplier ({}) must be >= 4 x truncation_multiplier ({}): Lemma 6.2's Gaussian step at "
        "(eps/2, delta/2) needs it",
        kOwner, o.noise_multiplier, o.truncation_multiplier));
}

// Every coordinate's bins are counted in one pass over the records (the columns of G, in memory order; one
// coordinate at a time read G one entry per 64-byte line, twice, missing the cache at every entry). Bins
// do not depend on the noise, so the histograms are then released in coordinate order: the same draws in
// the same order. The bin width tau is several standard deviations, so a coordinate occupies a handful of
// bins: they are counted in a window of kWindowBins around its first record's bin (an increment, no
// search), the bins outside it in a short list. The release from the counts is the same as
// stability_histogram on the records; a coordinate with more than kListedBins distinct bins outside its
// window is released from its records instead.
constexpr std::int64_t kWindowBins = 8;
constexpr std::size_t kListedBins = 32;

// Counts bin m of coordinate j outside its window.
void count_outside_window(std::size_t j, std::int64_t m, PrivateMeanResult& ws) {
  auto& counts = ws.counts[j];
  if (ws.overflowed[j]) return;
  if (!counts.empty() && counts[ws.last[j]].bin == m) {
    ++counts[ws.last[j]].count;
    return;
  }
  std::size_t k = 0;
  while (k < counts.size() && counts[k].bin != m) ++k;
  if (k == counts.size()) {
    if (k == kListedBins) {
      ws.overflowed[j] = 1;
      return;
    }
    counts.push_back({m, 0});
  }
  ++counts[k].count;
  ws.last[j] = k;
}

void count_bins(const Eigen::Ref<const Eigen::MatrixXd>& G, double tau, PrivateMeanResult& ws) {
  const auto d = static_cast<std::size_t>(G.rows());
  constexpr auto W = static_cast<std::uint64_t>(kWindowBins);
  ws.counts.resize(d);
  for (auto& counts : ws.counts) counts.clear();
  ws.last.assign(d, 0);
  ws.overflowed.assign(d, 0);
  ws.bins.resize(d);
  ws.window_start.resize(d);
  ws.window.assign(d * W, 0);
  for (Eigen::Index i = 0; i < G.cols(); ++i) {
    interval_bins({G.col(i).data(), d}, tau, ws.bins);
    if (i == 0)
      for (std::size_t j = 0; j < d; ++j) ws.window_start[j] = ws.bins[j] - kWindowBins / 2;
    for (std::size_t j = 0; j < d; ++j) {
      // In unsigned arithmetic, which wraps: bins span almost 2^63 either side of 0.
      const std::uint64_t slot =
          static_cast<std::uint64_t>(ws.bins[j]) - static_cast<std::uint64_t>(ws.window_start[j]);
      if (slot < W)
        ++ws.window[j * W + slot];
      else
        count_outside_window(j, ws.bins[j], ws);
    }
  }
  for (std::size_t j = 0; j < d; ++j)
    for (std::int64_t slot = 0; slot < kWindowBins; ++slot)
      if (const std::size_t count = ws.window[j * W + static_cast<std::uint64_t>(slot)]; count > 0)
        ws.counts[j].push_back({ws.window_start[j] + slot, count});
}

// Coordinate j's histogram release (Alg. 5 line 3), from its counts.
StabilityHistogram coordinate_histogram(const Eigen::Ref<const Eigen::MatrixXd>& G, Eigen::Index j,
                                        double tau, const Privacy& privacy, core::Rng& rng,
                                        PrivateMeanResult& ws, Ledger& ledger) {
  static const std::string step = "Alg. 5: coordinate histogram (Lemma B.1), one per coordinate";
  const Eigen::Index B = G.cols();
  const auto row = static_cast<std::size_t>(j);
  if (ws.overflowed[row]) {
    ws.bins.resize(static_cast<std::size_t>(B));
    for (Eigen::Index i = 0; i < B; ++i) ws.bins[static_cast<std::size_t>(i)] = interval_bin(G(j, i), tau);
    return stability_histogram(ws.bins, privacy, step, ledger, rng);
  }
  auto& counts = ws.counts[row];
  std::sort(counts.begin(), counts.end(), [](const BinCount& a, const BinCount& b) { return a.bin < b.bin; });
  return stability_histogram_from_counts(counts, static_cast<std::size_t>(B), privacy, step, ledger, rng);
}

void check_privacy(const Privacy& p) {
  validate(p);
  // spec: liu2022 §8.1 "assert eps < 0.9 for DP-PCA and Alg. 5" (Lemma B.4)
  if (!(p.epsilon < 0.9 && p.delta > 0))
    throw InvalidArgument(
        fmt::format("{}: Lemma 6.2 needs 0 < eps < 0.9 and 0 < delta < 1; got eps = {}, delta = {}", kOwner,
                    p.epsilon, p.delta));
  if (p.neighbours != Neighbours::replace)  // spec: liu2022 ambiguity 2
    throw InvalidArgument(fmt::format("{}: supports replace-one neighbours only (spec ambiguity 2)", kOwner));
}
}  // namespace

void private_mean(const Eigen::Ref<const Eigen::MatrixXd>& G, const Privacy& privacy, double zeta,
                  double lambda_hat, const PrivateMeanOptions& o, core::Rng& rng, PrivateMeanResult& out,
                  Ledger& ledger) {
  check_privacy(privacy);
  check_options(o);
  if (!(std::isfinite(lambda_hat) && lambda_hat > 0))
    throw InvalidArgument(
        fmt::format("{}: the approximate top eigenvalue must be finite and > 0, got {}", kOwner, lambda_hat));
  if (!(zeta > 0 && zeta < 1))
    throw InvalidArgument(fmt::format("{}: zeta must lie in (0, 1), got {}", kOwner, zeta));
  const Eigen::Index d = G.rows(), B = G.cols();
  if (B < 1 || d < 1)
    throw InvalidArgument(fmt::format("{}: needs B >= 1 vectors of dimension d >= 1", kOwner));
  const double Bd = static_cast<double>(B), dd = static_cast<double>(d), sqrt_l = std::sqrt(lambda_hat);
  // 1: tau = 2^{1/4} K sqrt(Lambda_hat) log^a(25)
  out.tau = std::pow(2.0, 0.25) * o.K * sqrt_l * std::pow(std::log(o.tau_log_argument), o.a);
  const double log_term = std::pow(std::log(Bd * dd / zeta), o.a);
  out.half_width = o.truncation_multiplier * o.K * sqrt_l * log_term;
  // Per-coordinate histogram budget (eps/(4 sqrt(2d log(4/delta))), delta/(4d)): Lemma B.4 with total
  // (eps/2, delta/2) over d accesses (spec: liu2022 §3.5).
  const Budget per = advanced_composition_step_budget({privacy.epsilon / 2, privacy.delta / 2}, d);
  const Privacy per_coordinate{per.epsilon, per.delta, Neighbours::replace};
  out.centre.resize(d);
  out.truncated_mean.resize(d);
  out.truncated_entries = 0;
  out.empty_histograms = 0;
  count_bins(G, out.tau, out);
  out.low.resize(d);
  out.high.resize(d);
  for (Eigen::Index j = 0; j < d; ++j) {  // 2
    // 3: histogram over the left-open bins ((m) tau, (m+1) tau]
    const auto best = largest_released_bin(coordinate_histogram(G, j, out.tau, per_coordinate, rng, out, ledger));
    // 4: g_bar_j = left endpoint of the bucket with maximal released count; an empty histogram gives
    // g_bar_j = 0 (spec: liu2022 §2.6 / ambiguity 15; a function of DP outputs only)
    if (!best) ++out.empty_histograms;
    out.centre[j] = best ? interval_bin_left(best->bin, out.tau) : 0.0;
    out.low[j] = o.truncate ? out.centre[j] - out.half_width : -std::numeric_limits<double>::infinity();
    out.high[j] = o.truncate ? out.centre[j] + out.half_width : std::numeric_limits<double>::infinity();
  }
  // 5-6: truncate to [g_bar_j - r, g_bar_j + r] and average, each coordinate summed in record order
  out.truncated_mean.setZero(d);
  Eigen::Index moved = 0;
  for (Eigen::Index i = 0; i < B; ++i)
    for (Eigen::Index j = 0; j < d; ++j) {
      const double x = G(j, i), clamped = std::clamp(x, out.low[j], out.high[j]);
      moved += clamped != x;
      out.truncated_mean[j] += clamped;
    }
  out.truncated_entries = moved;
  out.truncated_mean /= Bd;
  // 7: mu_hat = mu~ + N(0, sigma^2 I), sigma = 12 K sqrt(Lambda_hat) log^a(Bd/zeta) sqrt(2d
  // log(2.5/delta))/(eps B). With the default multipliers this equals Lemma 2.4 at (eps/2, delta/2) for the
  // replace-one sensitivity 2 r sqrt(d)/B of the truncated mean (spec: liu2022 §3.5; ambiguity 10).
  out.sigma = o.noise_multiplier * o.K * sqrt_l * log_term *
              std::sqrt(2 * dd * std::log(2.5 / privacy.delta)) / (privacy.epsilon * Bd);
  out.mean = out.truncated_mean;
  // Given the released centres, a replaced record moves each truncated coordinate mean by at most 2r/B;
  // without truncation nothing bounds it.
  const double sensitivity = o.truncate ? 2 * out.half_width * std::sqrt(dd) / Bd
                                        : std::numeric_limits<double>::infinity();
  gaussian_mechanism(out.mean,
                     gaussian_entry("Alg. 5: Gaussian mechanism on the truncated mean (Lemma 2.4)", sensitivity,
                                    out.sigma, {privacy.epsilon / 2, privacy.delta / 2, Neighbours::replace}),
                     ledger, rng);
}

PrivateMean::PrivateMean(PrivateMeanOptions options, double zeta, double lambda_hat)
    : options_(options), zeta_(zeta), lambda_hat_(lambda_hat) {
  check_options(options_);
  if (!(zeta_ > 0 && zeta_ < 1)) throw InvalidArgument(fmt::format("{}: zeta must lie in (0, 1)", kOwner));
  if (!(lambda_hat_ >= 0))
    throw InvalidArgument(fmt::format("{}: lambda_hat must be >= 0 (0: oracle)", kOwner));
}

PrivacyClaim PrivateMean::claim(const Input& in) const {
  return liu2022::replace_one_claim(
      in.privacy, {"Lemma 6.2: eps in (0, 0.9); d coordinate histograms at the Lemma B.4 budget (total "
                   "(eps/2, delta/2)) then "
                   "the Gaussian mechanism at (eps/2, delta/2) on the truncated mean",
                   "lambda_hat must be public (given or from the oracle), not computed from the same data"});
}

Estimate PrivateMean::run(const Input& in, core::Rng& rng) const {
  check_privacy(in.privacy);
  double lambda_hat = lambda_hat_;
  if (!(lambda_hat > 0)) {
    if (!in.oracle || in.oracle->eigenvalues.size() == 0 || !in.X)
      throw InvalidArgument(
          fmt::format("{}: needs lambda_hat (set the parameter > 0); 0 reads the oracle's lambda1, which "
                      "needs a model oracle "
                      "and vector input (Input.X)",
                      kOwner));
    lambda_hat = in.oracle->eigenvalues[0];
  }
  Eigen::MatrixXd storage;
  const Eigen::MatrixXd& G = liu2022_gradient_vectors(in, rng, kOwner, storage);
  PrivateMeanResult r;
  Estimate est;
  private_mean(G, in.privacy, zeta_, lambda_hat, options_, rng, r, est.ledger);
  est.claim = claim(in);
  est.mean = r.mean;
  auto& c = est.diagnostics.counters;
  c["truncated_entries"] = static_cast<double>(r.truncated_entries);
  c["empty_histograms"] = static_cast<double>(r.empty_histograms);
  c["sigma"] = r.sigma;
  c["lambda_hat"] = lambda_hat;
  if (r.empty_histograms > 0)
    est.diagnostics.notes.push_back(
        fmt::format("{} coordinate histograms released nothing: centre 0 used there", r.empty_histograms));
  return est;
}

}  // namespace dpb::alg
