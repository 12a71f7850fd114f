#include "algorithms/pca/dugler2026_truncated_mean.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "algorithms/calibration_param.hpp"
#include "algorithms/mechanisms/gaussian.hpp"
#include "core/errors.hpp"

namespace dpb::alg::dugler2026 {
namespace {

// left_closed_bin of x[0..length) into out, or its error at the first entry it refuses.
void bin_entries(const double* x, Eigen::Index length, double w, std::int64_t* out) {
  const auto n = static_cast<std::size_t>(length);
  if (!bin_indices({x, n}, w, BinClosed::left, {out, n}))
    for (Eigen::Index j = 0; j < length; ++j) left_closed_bin(x[j], w);  // throws at the first one
}

// The bins of every entry of a chunk, in memory order: in one run where its columns are contiguous (at
// dugler2026's d = 2, a column alone is too short to vectorise).
void chunk_bins(const MatrixChunks::View& V, double w, std::vector<std::int64_t>& bins) {
  const Eigen::Index d = V.rows();
  bins.resize(static_cast<std::size_t>(V.size()));
  if (V.outerStride() == d) return bin_entries(V.data(), V.size(), w, bins.data());
  for (Eigen::Index col = 0; col < V.cols(); ++col)
    bin_entries(V.col(col).data(), d, w, bins.data() + col * d);
}

// mu[j] += x[j] clamped to [lo[j], hi[j]] (lines 8-15) for j < d; returns how many entries the clamp moved.
// The arrays do not overlap (restrict), so the loop vectorises; each mu[j] is summed in the same order.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("arch=x86-64-v4", "default")))
#endif
Eigen::Index
add_clamped(const double* __restrict x, const double* __restrict lo, const double* __restrict hi,
            double* __restrict mu, Eigen::Index d) noexcept {
  Eigen::Index moved = 0;
  for (Eigen::Index j = 0; j < d; ++j) {
    const double y = std::min(std::max(x[j], lo[j]), hi[j]);
    moved += (y != x[j]);
    mu[j] += y;
  }
  return moved;
}

// The first pass's running sums (in record order, as the clamp pass adds) and ranges, over kRecords runs
// of n values `stride` apart from x: sum[j] += each run's x[j] in turn, and [lowest[j], highest[j]]
// widened to hold it. Several records per load and store of the sums.
template <int kRecords>
__attribute__((always_inline)) inline void add_and_widen_records(const double* __restrict x,
                                                                 Eigen::Index stride, double* __restrict sum,
                                                                 double* __restrict lowest,
                                                                 double* __restrict highest, Eigen::Index n) {
  for (Eigen::Index j = 0; j < n; ++j) {
    double s = sum[j], lo = lowest[j], hi = highest[j];
    for (int r = 0; r < kRecords; ++r) {
      const double v = x[r * stride + j];
      s += v;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    sum[j] = s;
    lowest[j] = lo;
    highest[j] = hi;
  }
}

// add_and_widen_records over `records` runs, four at a time (the x86-64-v3 clone: four lanes, not two).
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
void add_and_widen(const double* x, Eigen::Index stride, Eigen::Index records, double* sum, double* lowest,
                   double* highest, Eigen::Index n) noexcept {
  Eigen::Index r = 0;
  for (; r + 4 <= records; r += 4) add_and_widen_records<4>(x + r * stride, stride, sum, lowest, highest, n);
  for (; r < records; ++r) add_and_widen_records<1>(x + r * stride, stride, sum, lowest, highest, n);
}

// add_and_widen over every matrix of a chunk, into ws' d x k sums and ranges (coordinate c = r d + j).
void add_and_widen(const MatrixChunks::View& V, Eigen::Index k, TruncatedMeanWorkspace& ws) {
  const Eigen::Index d = V.rows(), count = V.cols() / k;
  double *sum = ws.sums.data(), *lowest = ws.lowest.data(), *highest = ws.highest.data();
  if (V.outerStride() == d) return add_and_widen(V.data(), d * k, count, sum, lowest, highest, d * k);
  for (Eigen::Index r = 0; r < k; ++r)
    add_and_widen(V.col(r).data(), k * V.outerStride(), count, sum + r * d, lowest + r * d, highest + r * d,
                  d);
}

// Window offsets of the n values of a group of records of chunk V from record l (position p: record
// l + p / coords, coordinate p % coords) into ws.offsets, with the largest of them: one run where the
// matrices are contiguous, else one per column. False where some bin is undecided.
bool group_offsets(const MatrixChunks::View& V, std::size_t l, std::size_t n, Eigen::Index k, double w,
                   TruncatedMeanWorkspace& ws, std::uint64_t& largest) {
  const auto d = static_cast<std::size_t>(V.rows()), coords = d * static_cast<std::size_t>(k);
  const auto run = [&](const double* x, std::size_t p, std::size_t length, std::uint64_t& top) {
    return left_closed_window_offsets({x, length}, w, {ws.group_lo.data() + p, length},
                                      {ws.offsets.data() + p, length}, top);
  };
  if (static_cast<std::size_t>(V.outerStride()) == d) return run(V.data() + l * coords, 0, n, largest);
  largest = 0;
  for (std::size_t p = 0; p < n; p += d) {
    const auto column =
        static_cast<Eigen::Index>((l + p / coords) * static_cast<std::size_t>(k) + p % coords / d);
    std::uint64_t top = 0;
    if (!run(V.col(column).data(), p, d, top)) return false;
    largest = std::max(largest, top);
  }
  return true;
}

// tallies[o n + p] += (offsets[p] == o) for every window bin o and p < n: a histogram by comparisons, a
// vector of byte tallies per window bin, with no scattered increment. n is a multiple of 64 (no scalar
// rest). The x86-64-v3 clone compares 32 bytes at a time where the default compares 16.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
void tally_offsets(const std::uint8_t* __restrict offsets, std::size_t n, std::uint8_t* __restrict tallies) noexcept {
  for (std::uint8_t o = 0; o < TruncatedMeanWorkspace::window_bins; ++o) {
    std::uint8_t* row = tallies + o * n;
    for (std::size_t p = 0; p < n; ++p) row[p] = static_cast<std::uint8_t>(row[p] + (offsets[p] == o));
  }
}

// Moves the byte tallies of a group's `positions` into the windows: window[o coords + c] gets the tallies
// of coordinate c in every record of the group.
void flush_tallies(TruncatedMeanWorkspace& ws, std::size_t coords, std::size_t positions) {
  const std::size_t stride = ws.offsets.size();
  for (std::size_t o = 0; o < TruncatedMeanWorkspace::window_bins; ++o)
    for (std::size_t first = 0; first < positions; first += coords) {
      const std::uint8_t* t = ws.tallies.data() + o * stride + first;
      std::uint32_t* counts = ws.window.data() + o * coords;
      for (std::size_t c = 0; c < coords; ++c) counts[c] += t[c];
    }
  std::fill(ws.tallies.begin(), ws.tallies.end(), std::uint8_t{0});
}

// The occupied bins of coordinate c with their counts, in increasing order: the overflow below the
// window, the window, the overflow above it.
void occupied_bins(std::size_t c, TruncatedMeanWorkspace& ws) {
  constexpr std::int64_t W = TruncatedMeanWorkspace::window_bins;
  ws.counts.clear();
  auto& over = ws.overflow[c];
  std::sort(over.begin(), over.end());
  const std::int64_t lo = ws.window_lo[c];
  const auto above = std::lower_bound(over.begin(), over.end(), lo);  // the window lies in between
  const auto emit_runs = [&](auto run, auto end) {
    while (run != end) {
      const auto run_end = std::upper_bound(run, end, *run);
      ws.counts.push_back({*run, static_cast<std::size_t>(run_end - run)});
      run = run_end;
    }
  };
  emit_runs(over.begin(), above);
  const std::size_t coords = ws.window_lo.size();
  for (std::int64_t i = 0; i < W; ++i)
    if (const std::uint32_t count = ws.window[static_cast<std::size_t>(i) * coords + c]; count > 0)
      ws.counts.push_back({lo + i, count});
  emit_runs(above, over.end());
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
                                   double Lhat, const Budget& center, const std::string& step, Ledger& ledger,
                                   Eigen::Ref<Eigen::MatrixXd> mean, TruncatedMeanWorkspace& ws,
                                   core::Rng& rng) {
  if (k < 1 || G.cols() % k != 0 || G.cols() == 0)
    throw InvalidArgument("TRUNCATEDMEAN: G must hold m >= 1 blocks of k columns");
  MatrixChunks chunks(G, k);
  return truncated_mean(chunks, R, Lhat, center, step, ledger, mean, ws, rng);
}

double truncated_mean_sensitivity(double R, Eigen::Index d, Eigen::Index k, Eigen::Index m) {
  return 2.0 * R * std::sqrt(static_cast<double>(d * k)) / static_cast<double>(m);
}

TruncatedMeanReport truncated_mean(MatrixChunks& G, double R, double Lhat, const Budget& center,
                                   const std::string& step, Ledger& ledger, Eigen::Ref<Eigen::MatrixXd> mean,
                                   TruncatedMeanWorkspace& ws, core::Rng& rng) {
  if (G.size() == 0 || G.rows() == 0)
    throw InvalidArgument("TRUNCATEDMEAN: G must hold m >= 1 blocks of d >= 1 rows and k columns");
  if (!(R > 0) || !(Lhat > 0) || !std::isfinite(R) || !std::isfinite(Lhat))
    throw InvalidArgument(
        fmt::format("TRUNCATEDMEAN: need R > 0 and Lhat > 0 finite, got R = {}, Lhat = {}", R, Lhat));
  const Eigen::Index d = G.rows(), k = G.k(), m = G.size();
  if (mean.rows() != d || mean.cols() != k) throw InvalidArgument("TRUNCATEDMEAN: mean must be d x k");
  validate(center);
  const double dk = static_cast<double>(d * k), w = std::sqrt(Lhat);
  // Basic composition over the dk histograms, all on the same m records; a replaced record moves one
  // value of each (replace-one neighbours of every histogram's input).
  const Privacy per_coordinate{center.epsilon / dk, center.delta / dk, Neighbours::replace};
  TruncatedMeanReport rep;
  ws.centers.resize(d, k);
  constexpr std::int64_t W = TruncatedMeanWorkspace::window_bins;
  const auto coords = static_cast<std::size_t>(d * k);  // coordinate (j, r) is c = r d + j (memory order)
  // Records are binned and counted a group at a time, enough of them for 1024 values: the byte loops take 64
  // values a step (one 512-bit vector), and a short run's scalar rest cost more than the counting itself.
  // Position p of a group is coordinate p mod coords. The offsets run on to a multiple of 64 with positions
  // outside every window.
  const std::size_t group = (1024 + coords - 1) / coords, positions = group * coords;
  const std::size_t stride = (positions + 63) / 64 * 64;
  ws.window.assign(static_cast<std::size_t>(W) * coords, 0);
  ws.tallies.assign(static_cast<std::size_t>(W) * stride, 0);
  ws.offsets.assign(stride, outside_window);
  ws.window_lo.assign(coords, 0);
  ws.group_lo.resize(positions);
  ws.overflow.resize(coords);
  for (auto& o : ws.overflow) o.clear();
  ws.sums.setZero(d, k);
  ws.lowest.setConstant(d, k, std::numeric_limits<double>::infinity());
  ws.highest.setConstant(d, k, -std::numeric_limits<double>::infinity());
  const Eigen::Index chunk = G.chunk_size();
  int tallied = 0;  // groups in the byte tallies, at most a byte's largest value
  // Lines 1-7, first pass: the bin counts of every coordinate histogram, with each coordinate's sum and
  // range.
  for (Eigen::Index l0 = 0; l0 < m; l0 += chunk) {
    const Eigen::Index count = std::min(chunk, m - l0);
    const MatrixChunks::View V = G.get(l0, count);
    add_and_widen(V, k, ws);
    if (l0 == 0) {  // windows centred at each coordinate's median bin in the first chunk
      chunk_bins(V, w, ws.bins);
      std::vector<std::int64_t>& scratch = ws.scratch;
      for (std::size_t c = 0; c < coords; ++c) {
        scratch.clear();
        for (Eigen::Index l = 0; l < count; ++l)
          scratch.push_back(ws.bins[static_cast<std::size_t>(l) * coords + c]);
        const auto mid = scratch.begin() + static_cast<std::ptrdiff_t>(scratch.size() / 2);
        std::nth_element(scratch.begin(), mid, scratch.end());
        // Where the window lies changes only which bins are counted in it and which in the overflow.
        const auto limit = static_cast<std::int64_t>(max_window_start);
        ws.window_lo[c] = std::clamp(*mid - W / 2, -limit, limit);
      }
      for (std::size_t p = 0; p < positions; ++p)
        ws.group_lo[p] = static_cast<double>(ws.window_lo[p % coords]);
    }
    for (std::size_t l = 0; l < static_cast<std::size_t>(count); l += group) {
      const std::size_t n = std::min(group, static_cast<std::size_t>(count) - l) * coords;
      const auto value = [&](std::size_t p) {  // position p of the group
        const std::size_t c = p % coords, rows = static_cast<std::size_t>(d);
        return V(static_cast<Eigen::Index>(c % rows),
                 static_cast<Eigen::Index>((l + p / coords) * static_cast<std::size_t>(k) + c / rows));
      };
      std::uint64_t largest = 0;
      // Rarely undecided (a value near a bin's edge, or one that does not bin): then value by value.
      if (!group_offsets(V, l, n, k, w, ws, largest))
        for (std::size_t p = 0; p < n; ++p) {
          const std::uint64_t offset = window_offset(left_closed_bin(value(p), w), ws.window_lo[p % coords]);
          largest = std::max(largest, offset);
          ws.offsets[p] = static_cast<std::uint8_t>(offset);
        }
      if (largest >= W)
        for (std::size_t p = 0; p < n; ++p)
          if (ws.offsets[p] >= W) ws.overflow[p % coords].push_back(left_closed_bin(value(p), w));
      std::fill(ws.offsets.begin() + static_cast<std::ptrdiff_t>(n),
                ws.offsets.begin() + static_cast<std::ptrdiff_t>(positions),
                outside_window);  // a short last group
      tally_offsets(ws.offsets.data(), stride, ws.tallies.data());
      if (++tallied == std::numeric_limits<std::uint8_t>::max()) {
        flush_tallies(ws, coords, positions);
        tallied = 0;
      }
    }
  }
  flush_tallies(ws, coords, positions);
  // Lines 1-7, release: for j = 1..d, r = 1..k, the coordinate histogram and its left endpoint.
  for (Eigen::Index j = 0; j < d; ++j)
    for (Eigen::Index r = 0; r < k; ++r) {
      occupied_bins(static_cast<std::size_t>(r * d + j), ws);
      const StabilityHistogram hist = stability_histogram_from_counts(ws.counts, static_cast<std::size_t>(m),
                                                                      per_coordinate, step, ledger, rng);
      rep.noise_scale = hist.noise_scale;
      const auto best = largest_released_bin(hist);
      if (best) {
        ws.centers(j, r) = static_cast<double>(best->bin) * w;  // gbar_jr = l_jr (LEFT endpoint)
      } else {
        ws.centers(j, r) = 0.0;  // spec: dugler2026 ambiguity 2 (empty histogram: center 0)
        ++rep.empty_histograms;
      }
    }
  // Lines 8-16: clamp every entry to [gbar - R, gbar + R] and average. Where every coordinate's range lies
  // inside its interval the clamp moves nothing, and the first pass's sums are the clamped sums bit for bit
  // (the same values added in the same order). Lemma 11's R makes that the rule (probability >= 1 - zeta);
  // otherwise a second pass recomputes the matrices and clamps them. The first pass refused any value that
  // does not bin (NaN, infinite), so the ranges decide alone.
  const Eigen::MatrixXd lower = ws.centers.array() - R, upper = ws.centers.array() + R;  // once per call
  rep.clamp_pass = !((ws.lowest.array() >= lower.array()) && (ws.highest.array() <= upper.array())).all();
  if (!rep.clamp_pass) {
    mean = ws.sums / static_cast<double>(m);
    return rep;
  }
  mean.setZero();
  Eigen::Index truncated = 0;
  for (Eigen::Index l0 = 0; l0 < m; l0 += chunk) {
    const Eigen::Index count = std::min(chunk, m - l0);
    const MatrixChunks::View V = G.get(l0, count);
    for (Eigen::Index l = 0; l < count; ++l)
      for (Eigen::Index r = 0; r < k; ++r) {
        truncated += add_clamped(V.col(l * k + r).data(), lower.col(r).data(), upper.col(r).data(),
                                 mean.col(r).data(), d);
      }
  }
  rep.truncated_entries += truncated;
  mean /= static_cast<double>(m);
  return rep;
}

const FieldTable<TruncatedMeanParams>& truncated_mean_fields() {
  static const FieldTable<TruncatedMeanParams> fields = [] {
    using P = TruncatedMeanParams;
    const std::string ref = "dugler2026 Alg. 5, Lemma 11";
    FieldTable<P> t;
    t.real("Lhat", &P::Lhat, 0.0, std::nullopt,
           "range estimate (bin width sqrt(Lhat)); 0 = the oracle's lambda_1^2 gamma^2", ref)
        .real("R", &P::R, 0.0, std::nullopt,
              "truncation radius; 0 = radius_constant K sqrt(Lhat) log^a(m d k/zeta) (Lemma 11)", ref)
        .real("radius_constant", &P::radius_constant, 1e-12, std::nullopt, "the 3 of Lemma 11's radius", ref);
    radius_tail_fields(t, &P::K, &P::a, &P::zeta);
    calibration_field(t, &P::calibration, "Gaussian calibration at (eps/2, delta/2)", "dugler2026 ambiguity 14")
        .real("feasibility_margin", &P::feasibility_margin, 1.0, std::nullopt,
              "m >= margin x the coordinate histograms' threshold count", "dugler2026 ambiguity 2");
    return t;
  }();
  return fields;
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
  Eigen::MatrixXd buffer, kk;
  MatrixChunks G(S, 0, m, Q, /*tangent=*/false, buffer, kk);  // G_l = A_l Q, a chunk at a time
  TruncatedMeanWorkspace ws;
  Eigen::MatrixXd mean(d, k);
  Estimate e;
  // The clamp radius; the noise below is calibrated to R whatever it is.
  const double clamp_radius = p.truncate ? R : std::numeric_limits<double>::max();
  const TruncatedMeanReport rep =
      truncated_mean(G, clamp_radius, Lhat, half, "TRUNCATEDMEAN center histograms", e.ledger, mean, ws, rng);
  const double sensitivity = truncated_mean_sensitivity(R, d, k, m);
  const double sigma = gaussian_sigma(p.calibration, sensitivity, half.epsilon, half.delta);
  // Lemma 2 step 3: the Gaussian at (eps/2, delta/2) given the private centers. Without the clamp (the
  // mutant seam) one record moves the mean without bound: the ledger gets that true sensitivity.
  const double true_sensitivity = p.truncate ? sensitivity : std::numeric_limits<double>::infinity();
  const LedgerEntry noise = gaussian_entry("TRUNCATEDMEAN Gaussian mean", true_sensitivity, sigma,
                                           Privacy{half.epsilon, half.delta, Neighbours::replace});
  gaussian_mechanism(mean, noise, e.ledger, rng);
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
