#include "algorithms/mechanisms/oneshot_top_k.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "algorithms/sparse/sparse_matrix_ops.hpp"
#include "core/errors.hpp"
#include "core/samplers.hpp"

namespace dpb::alg {
namespace {

void require_positive(const char* what, double value) {
  if (!(value > 0) || !std::isfinite(value))
    throw InvalidArgument(fmt::format("one-shot top-k: {} must be finite and > 0, got {}", what, value));
}

}  // namespace

double oneshot_top_k_coupling_sensitivity(Eigen::Index m, Eigen::Index k, double score_sensitivity,
                                          bool with_values) {
  const double kk = static_cast<double>(k);
  const double selection = k < m ? 2 * kk * score_sensitivity : 0.0;  // k = m: the set is always [m]
  return selection + (with_values ? kk * score_sensitivity : 0.0);
}

LedgerEntry oneshot_top_k_entry(std::string step, Eigen::Index m, Eigen::Index k, double score_sensitivity,
                                double scale, bool with_values, const Privacy& budget) {
  if (k < 1 || k > m)
    throw InvalidArgument(fmt::format("one-shot top-k: need 1 <= k <= m, got m = {}, k = {}", m, k));
  require_positive("score sensitivity", score_sensitivity);
  require_positive("Laplace scale", scale);
  return laplace_entry(std::move(step),
                       oneshot_top_k_coupling_sensitivity(m, k, score_sensitivity, with_values), scale,
                       budget);
}

OneshotTopK oneshot_top_k_mechanism(const Eigen::Ref<const Eigen::VectorXd>& scores, Eigen::Index k,
                                    bool with_values, const LedgerEntry& entry, Ledger& ledger,
                                    core::Rng& rng) {
  if (entry.mechanism != Mechanism::laplace)
    throw InvalidArgument(fmt::format("'{}': the one-shot top-k needs a laplace ledger entry", entry.step));
  const double b = entry.noise_scale;
  require_positive("Laplace scale", b);
  ledger.record(entry);
  OneshotTopK out;
  // Line 7: the selection noise, one draw per score in index order.
  Eigen::VectorXd noisy(scores.size());
  for (Eigen::Index j = 0; j < scores.size(); ++j) {
    const double z = core::laplace(rng, b);
    out.max_abs_noise = std::max(out.max_abs_noise, std::abs(z));
    noisy[j] = scores[j] + z;
  }
  out.support = top_k_support(noisy, k, &out.tie);  // line 8: by magnitude (spec: kumar2025 §2.1)
  // Line 9: fresh noise, drawn for the k released values only (the other m - k would never be released).
  if (with_values) {
    out.values.resize(k);
    for (Eigen::Index a = 0; a < k; ++a) {
      const double z = core::laplace(rng, b);
      out.max_abs_noise = std::max(out.max_abs_noise, std::abs(z));
      out.values[a] = scores[out.support[static_cast<std::size_t>(a)]] + z;
    }
  }
  if (LedgerProbe* probe = active_probe()) {
    // The probe sees the scores on the selected set (keyed by index, a set that depends on the data): their
    // realised change is at most k s, within the declared coupling distance.
    std::vector<double> statistic;
    std::vector<std::int64_t> keys;
    for (Eigen::Index j : out.support) {
      statistic.push_back(scores[j]);
      keys.push_back(static_cast<std::int64_t>(j));
    }
    std::vector<double> release;
    if (with_values) {
      release.assign(out.values.data(), out.values.data() + out.values.size());
    } else {
      for (Eigen::Index j : out.support) release.push_back(static_cast<double>(j));
    }
    probe->observe(entry, statistic, keys, release, with_values ? ProbedRelease::drawn : ProbedRelease::selected);
    if (with_values) {
      out.values = Eigen::Map<const Eigen::VectorXd>(release.data(), k);
    } else {
      for (std::size_t a = 0; a < out.support.size(); ++a)
        out.support[a] = static_cast<Eigen::Index>(release.at(a));
    }
  }
  return out;
}

}  // namespace dpb::alg
