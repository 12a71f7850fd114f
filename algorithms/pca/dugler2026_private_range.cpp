#include "algorithms/pca/dugler2026_private_range.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "algorithms/mechanisms/histogram.hpp"
#include "algorithms/pca/dugler2026_common.hpp"
#include "core/errors.hpp"

namespace dpb::alg::dugler2026 {
namespace {

// Geometric bin [2^{i/q}, 2^{(i+1)/q}) of x > 0, i = floor(q log2 x), or the bin [0, 0] (line 14).
// For q = 4 this is exactly log_bin of mechanisms/histogram; other q map x -> x^{q/4} onto it.
std::int64_t geometric_bin(double x, double q) { return log_bin(q == 4.0 ? x : std::pow(x, q / 4.0)); }
double geometric_bin_left(std::int64_t i, double q) {
  const double left = log_bin_left(i);
  return q == 4.0 ? left : std::pow(left, 4.0 / q);
}

}  // namespace

Eigen::Index private_range_blocks(const PrivateRangeSettings& s, const Budget& budget, double zeta) {
  validate(budget);
  if (!(zeta > 0 && zeta < 1))
    throw InvalidArgument(fmt::format("PRIVRANGE: zeta must lie in (0, 1), got {}", zeta));
  if (!(budget.delta > 0)) throw InvalidArgument("PRIVRANGE: needs delta in (0, 1)");
  // Line 5, spec: dugler2026 ambiguity 10 (m = ceil(.)).
  const double m = std::ceil(s.C1 * std::log(1.0 / (budget.delta * zeta)) / budget.epsilon);
  return std::max<Eigen::Index>(1, static_cast<Eigen::Index>(m));
}

Eigen::Index private_range_min_inputs(const PrivateRangeSettings& s, const Budget& budget, double zeta,
                                      Eigen::Index min_block_size) {
  return 2 * private_range_blocks(s, budget, zeta) * std::max<Eigen::Index>(1, min_block_size);
}

PrivateRangeReport private_range(const Eigen::Ref<const Eigen::MatrixXd>& G, Eigen::Index k,
                                 const Budget& budget, double zeta, const PrivateRangeSettings& s,
                                 const std::string& step, Ledger& ledger, PrivateRangeWorkspace& ws,
                                 core::Rng& rng) {
  if (k < 1 || G.cols() % k != 0) throw InvalidArgument("PRIVRANGE: G must hold B_in blocks of k columns");
  MatrixChunks chunks(G, k);
  return private_range(chunks, budget, zeta, s, step, ledger, ws, rng);
}

PrivateRangeReport private_range(MatrixChunks& G, const Budget& budget, double zeta,
                                 const PrivateRangeSettings& s, const std::string& step, Ledger& ledger,
                                 PrivateRangeWorkspace& ws, core::Rng& rng) {
  const Eigen::Index d = G.rows(), k = G.k(), B_in = G.size();
  PrivateRangeReport rep;
  rep.blocks = private_range_blocks(s, budget, zeta);  // line 5
  rep.block_size = B_in / (2 * rep.blocks);            // line 6: b = floor(B_in / (2m)), leftovers dropped
  if (rep.block_size < 1)
    throw InvalidArgument(
        fmt::format("PRIVRANGE: m = {} blocks need at least B_in = {} input matrices, got {}", rep.blocks,
                    2 * rep.blocks, B_in));
  const Eigen::Index m = rep.blocks, b = rep.block_size;
  ws.diff.resize(d, b);
  ws.maxima.assign(static_cast<std::size_t>(m), 0.0);
  for (Eigen::Index j = 0; j < m; ++j) {  // line 7
    // Block j holds the pairs j b .. (j + 1) b - 1, i.e. the inputs 2 j b .. 2 (j + 1) b - 1 (leftovers
    // past 2 m b are never produced).
    const MatrixChunks::View block = G.get(2 * j * b, 2 * b);
    for (Eigen::Index r = 0; r < k; ++r) {  // line 8
      // Lines 1-4 and 9: column r of the paired differences G_{2i} - G_{2i-1} of block j.
      for (Eigen::Index l = 0; l < b; ++l)
        ws.diff.col(l) = block.col((2 * l + 1) * k + r) - block.col(2 * l * k + r);
      // Line 10: lambda_max((1/(2b)) D D^T) = lambda_max(D^T D)/(2b), on D's smaller side (Lanczos on D, or
      // the smaller Gram matrix: core::largest_gram_eigenvalue).
      const double top = core::largest_gram_eigenvalue(ws.diff, ws.eigen);
      const double lam = std::max(0.0, top) / (2.0 * static_cast<double>(b));
      ws.maxima[static_cast<std::size_t>(j)] =
          std::max(ws.maxima[static_cast<std::size_t>(j)], lam);  // line 12
    }
  }
  // Lines 14-15: the (eps, delta) stability histogram over geometric bins of the m block maxima (a
  // replaced record moves one maximum: replace-one neighbours of the histogram's input, Theorem 5).
  ws.bins.resize(static_cast<std::size_t>(m));
  for (std::size_t j = 0; j < ws.maxima.size(); ++j)
    ws.bins[j] = geometric_bin(ws.maxima[j], s.bins_per_octave);
  const StabilityHistogram hist = stability_histogram(
      ws.bins, Privacy{budget.epsilon, budget.delta, Neighbours::replace}, step, ledger, rng, s.release);
  rep.occupied_bins = hist.occupied;
  rep.released_bins = hist.released.size();
  rep.noise_scale = hist.noise_scale;
  const auto best = largest_released_bin(hist);  // line 19 (ties: smallest bin, mechanisms/histogram)
  if (!best) return rep;                         // lines 16-18: BOTTOM
  rep.Lhat = s.safety * geometric_bin_left(best->bin, s.bins_per_octave);  // line 20
  return rep;
}

const FieldTable<PrivateRangeSettings>& range_fields() {
  static const FieldTable<PrivateRangeSettings> fields = [] {
    using S = PrivateRangeSettings;
    FieldTable<S> t;
    t.real("C1", &S::C1, 1e-9, std::nullopt, "PRIVRANGE blocks m = ceil(C1 log(1/(delta zeta'))/eps)",
           "dugler2026 Alg. 4 line 5, ambiguity 10")
        .real("range_safety", &S::safety, 1.0, std::nullopt, "safety factor of Lhat = 2 l", "dugler2026 Alg. 4 line 20")
        .real("range_bins_per_octave", &S::bins_per_octave, 1e-3, std::nullopt,
              "PRIVRANGE bin ratio 2^{1/q}; q = 4 in the paper", "dugler2026 Alg. 4 line 14");
    return t;
  }();
  return fields;
}

const FieldTable<PrivRangeParams>& priv_range_fields() {
  static const FieldTable<PrivRangeParams> fields = [] {
    using P = PrivRangeParams;
    FieldTable<P> t;
    zeta_field(t, &P::zeta)
        .nest(&P::range, range_fields())
        .choice("tangent", &P::tangent, {{"no", false}, {"yes", true}},
                "estimate from Pi A_i Q (TADADPO's target g_Q^2) instead of A_i Q (Lambda(Q))",
                "dugler2026 Alg. 3 line 4");
    return t;
  }();
  return fields;
}

Estimate priv_range(const Input& in, const PrivRangeParams& p, core::Rng& rng) {
  const std::string owner = "dugler2026.priv_range";
  check_input(in, owner, /*is_private=*/true);
  const core::SampleMatrices& S = *in.samples;
  const Eigen::Index d = S.d(), k = in.k, n = S.n();
  const Budget budget{in.privacy.epsilon, in.privacy.delta};
  const Eigen::Index need = private_range_min_inputs(p.range, budget, p.zeta, 1);
  if (n < need)
    throw InvalidArgument(
        fmt::format("{}: m = {} blocks of paired differences need n >= {} sample matrices, got {}", owner,
                    private_range_blocks(p.range, budget, p.zeta), need, n));
  const Eigen::MatrixXd Q = random_start(d, k, rng);
  Eigen::MatrixXd buffer, kk(k, k);
  MatrixChunks G(S, 0, n, Q, p.tangent, buffer, kk);  // G_i = A_i Q (or Pi A_i Q), a block at a time
  PrivateRangeWorkspace ws;
  Estimate e;
  const PrivateRangeReport rep =
      private_range(G, budget, p.zeta, p.range, "PRIVRANGE histogram", e.ledger, ws, rng);
  if (rep.Lhat) {
    e.scalar = *rep.Lhat;
    e.scalar_estimand = p.tangent ? "g_Q2" : "Lambda_Q";  // Theorem 5's target (Alg. 3's g_Q^2 when tangent)
  }
  auto& c = e.diagnostics.counters;
  c["blocks"] = static_cast<double>(rep.blocks);
  c["block_size"] = static_cast<double>(rep.block_size);
  c["occupied_bins"] = static_cast<double>(rep.occupied_bins);
  c["released_bins"] = static_cast<double>(rep.released_bins);
  c["histogram_noise_scale"] = rep.noise_scale;
  c["bottom"] = rep.Lhat ? 0 : 1;
  if (!rep.Lhat) e.diagnostics.notes.push_back("PRIVRANGE returned BOTTOM: no bin released (no estimate)");
  e.claim = priv_range_claim(in);
  return e;
}

PrivacyClaim priv_range_claim(const Input& in) {
  PrivacyClaim c;
  c.epsilon = in.privacy.epsilon;
  c.delta = in.privacy.delta;
  c.conditions = {"Theorem 5: one record changes at most one block maximum; stability histogram (Lemma 12)",
                  "the frame Q is drawn independently of the data"};
  return c;
}

}  // namespace dpb::alg::dugler2026
