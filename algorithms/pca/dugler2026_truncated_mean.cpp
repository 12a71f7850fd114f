#include "algorithms/pca/dugler2026_truncated_mean.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "algorithms/mechanisms/gaussian.hpp"
#include "core/errors.hpp"

namespace dpb::alg::dugler2026 {
namespace {

// The occupied bins of `bins` with their counts, in increasing order: a dense count when the bins
// span a short range (the usual case: values concentrate within a few widths), else by sorting.
void count_bins(std::vector<std::int64_t>& bins, TruncatedMeanWorkspace& ws) {
  ws.counts.clear();
  const auto [lo_it, hi_it] = std::minmax_element(bins.begin(), bins.end());
  const std::int64_t lo = *lo_it, hi = *hi_it;
  const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  if (span < 4 * bins.size() + 64) {
    ws.dense.assign(static_cast<std::size_t>(span) + 1, 0);
    for (std::int64_t b : bins) ++ws.dense[static_cast<std::size_t>(b - lo)];
    for (std::size_t i = 0; i < ws.dense.size(); ++i)
      if (ws.dense[i] > 0) ws.counts.push_back({lo + static_cast<std::int64_t>(i), ws.dense[i]});
    return;
  }
  std::sort(bins.begin(), bins.end());
  for (auto run = bins.begin(); run != bins.end();) {
    const auto end = std::upper_bound(run, bins.end(), *run);
    ws.counts.push_back({*run, static_cast<std::size_t>(end - run)});
    run = end;
  }
}

}  // namespace

std::int64_t left_closed_bin(double x, double w) {
  if (!(std::isfinite(w) && w > 0))
    throw InvalidArgument(fmt::format("left_closed_bin: bin width must be finite and > 0, got {}", w));
  const double ratio = x / w;
  if (!(std::abs(ratio) < 0x1.0p62))
    throw InvalidArgument(fmt::format("left_closed_bin: x / w = {} / {} is not finite or too large", x, w));
  return static_cast<std::int64_t>(std::floor(ratio));  // spec: dugler2026 ambiguity 11, [i w, (i+1) w)
}

Eigen::Index truncated_mean_min_samples(Eigen::Index d, Eigen::Index k, const Budget& center, double margin) {
  validate(center);
  const double dk = static_cast<double>(d * k);
  const double eps_c = center.epsilon / dk, delta_c = center.delta / dk;
  // The KV threshold in counts (mechanisms/histogram, replace): 1 + 2 log(2/delta_c)/eps_c.
  return static_cast<Eigen::Index>(std::ceil(margin * (1.0 + 2.0 * std::log(2.0 / delta_c) / eps_c)));
}

TruncatedMeanReport truncated_mean(const Eigen::Ref<const Eigen::MatrixXd>& G, Eigen::Index k, double R,
                                   double Lhat, const Budget& center, Eigen::Ref<Eigen::MatrixXd> mean,
                                   TruncatedMeanWorkspace& ws, core::Rng& rng) {
  if (k < 1 || G.cols() % k != 0 || G.cols() == 0)
    throw InvalidArgument("TRUNCATEDMEAN: G must hold m >= 1 blocks of k columns");
  if (!(R > 0) || !(Lhat > 0) || !std::isfinite(R) || !std::isfinite(Lhat))
    throw InvalidArgument(
        fmt::format("TRUNCATEDMEAN: need R > 0 and Lhat > 0 finite, got R = {}, Lhat = {}", R, Lhat));
  const Eigen::Index d = G.rows(), m = G.cols() / k;
  if (mean.rows() != d || mean.cols() != k) throw InvalidArgument("TRUNCATEDMEAN: mean must be d x k");
  validate(center);
  const double dk = static_cast<double>(d * k), w = std::sqrt(Lhat);
  const Privacy per_coordinate{center.epsilon / dk, center.delta / dk,
                               Neighbours::replace};  // basic composition
  TruncatedMeanReport rep;
  ws.centers.resize(d, k);
  // Rows are binned a tile at a time, reading G in memory order (a strided gather per coordinate
  // would miss the cache on every record).
  constexpr Eigen::Index tile = 8;
  const auto um = static_cast<std::size_t>(m);
  ws.tile_bins.resize(static_cast<std::size_t>(tile * k) * um);
  ws.bins.resize(um);
  // Lines 1-7: for j = 1..d, r = 1..k, the coordinate histogram and its left endpoint.
  for (Eigen::Index j0 = 0; j0 < d; j0 += tile) {
    const Eigen::Index rows = std::min(tile, d - j0);
    for (Eigen::Index l = 0; l < m; ++l)
      for (Eigen::Index r = 0; r < k; ++r)
        for (Eigen::Index i = 0; i < rows; ++i)
          ws.tile_bins[static_cast<std::size_t>(i * k + r) * um + static_cast<std::size_t>(l)] =
              left_closed_bin(G(j0 + i, l * k + r), w);
    for (Eigen::Index j = j0; j < j0 + rows; ++j)
      for (Eigen::Index r = 0; r < k; ++r) {
        const auto first = ws.tile_bins.begin() +
                           static_cast<std::ptrdiff_t>(static_cast<std::size_t>((j - j0) * k + r) * um);
        std::copy(first, first + static_cast<std::ptrdiff_t>(um), ws.bins.begin());
        count_bins(ws.bins, ws);
        const StabilityHistogram hist =
            stability_histogram_from_counts(ws.counts, static_cast<std::size_t>(m), per_coordinate, rng);
        rep.noise_scale = hist.noise_scale;
        const auto best = largest_released_bin(hist);
        if (best) {
          ws.centers(j, r) = static_cast<double>(best->bin) * w;  // gbar_jr = l_jr (LEFT endpoint)
        } else {
          ws.centers(j, r) = 0.0;  // spec: dugler2026 ambiguity 2 (empty histogram: center 0)
          ++rep.empty_histograms;
        }
      }
  }
  // Lines 8-16: clamp every entry to [gbar - R, gbar + R] and average.
  mean.setZero();
  for (Eigen::Index l = 0; l < m; ++l) {
    for (Eigen::Index r = 0; r < k; ++r) {
      for (Eigen::Index j = 0; j < d; ++j) {
        const double x = G(j, l * k + r), c = ws.centers(j, r);
        const double y = std::clamp(x, c - R, c + R);
        rep.truncated_entries += (y != x);
        mean(j, r) += y;
      }
    }
  }
  mean /= static_cast<double>(m);
  return rep;
}

Estimate truncated_mean_release(const Input& in, const TruncatedMeanParams& p, core::Rng& rng) {
  const std::string owner = "dugler2026.truncated_mean";
  check_input(in, owner, /*is_private=*/true);
  const core::SampleMatrices& S = *in.samples;
  const Eigen::Index d = S.d(), k = in.k, m = S.n();
  const Budget half{in.privacy.epsilon / 2, in.privacy.delta / 2};
  const Eigen::Index need = truncated_mean_min_samples(d, k, half, p.feasibility_margin);
  if (m < need)
    throw InvalidArgument(fmt::format(
        "{}: the {} coordinate histograms at (eps/(2dk), delta/(2dk)) = ({:.3g}, {:.3g}) need m >= {} sample "
        "matrices (feasibility_margin {} x the stability threshold), got {}",
        owner, d * k, half.epsilon / static_cast<double>(d * k), half.delta / static_cast<double>(d * k),
        need, p.feasibility_margin, m));
  double Lhat = p.Lhat;
  if (!(Lhat > 0)) {
    const auto& o = require_oracle(in, owner, "Lhat");
    Lhat = o.eigenvalues[0] * o.eigenvalues[0] * oracle_gamma(in, owner, "Lhat") *
           oracle_gamma(in, owner, "Lhat");
  }
  const double R = p.R > 0
                       ? p.R
                       : p.radius_constant * p.K * std::sqrt(Lhat) *
                             std::pow(std::log(static_cast<double>(m * d * k) / p.zeta), p.a);  // Lemma 11
  const Eigen::MatrixXd Q = random_start(d, k, rng);
  Eigen::MatrixXd G(d, k * m);
  for (Eigen::Index l = 0; l < m; ++l) S.apply(l, Q, G.middleCols(l * k, k));
  TruncatedMeanWorkspace ws;
  Eigen::MatrixXd mean(d, k);
  const TruncatedMeanReport rep = truncated_mean(G, k, R, Lhat, half, mean, ws, rng);
  const double sensitivity = 2.0 * R * std::sqrt(static_cast<double>(d * k)) / static_cast<double>(m);
  const double sigma = gaussian_sigma(p.calibration, sensitivity, half.epsilon, half.delta);
  add_gaussian_noise(mean, sigma, rng);
  Estimate e;
  e.mean = Eigen::Map<const Eigen::VectorXd>(mean.data(), mean.size());
  auto& c = e.diagnostics.counters;
  c["truncated_entries"] = static_cast<double>(rep.truncated_entries);
  c["empty_center_histograms"] = static_cast<double>(rep.empty_histograms);
  c["Lhat"] = Lhat;
  c["R"] = R;
  c["sigma"] = sigma;
  if (rep.empty_histograms > 0)
    e.diagnostics.notes.push_back(
        fmt::format("{} empty coordinate histogram(s): center 0 used", rep.empty_histograms));
  e.diagnostics.budget.push_back({"TRUNCATEDMEAN centers", half.epsilon, half.delta});
  e.diagnostics.budget.push_back({"Gaussian mean", half.epsilon, half.delta});
  e.claim = truncated_mean_claim(p, in);
  return e;
}

PrivacyClaim truncated_mean_claim(const TruncatedMeanParams& p, const Input& in) {
  return replace_claim(
      in.privacy, p.calibration, true,
      {"Lemma 2 steps 2-4: dk center histograms at (eps/(2dk), delta/(2dk)) + Gaussian at (eps/2, "
       "delta/2)",
       "the frame Q is drawn independently of the data"});
}

}  // namespace dpb::alg::dugler2026
