#include "algorithms/pca/dugler2026_two_stage.hpp"

#include <fmt/format.h>
#include <cmath>

#include "core/errors.hpp"

namespace dpb::alg::dugler2026 {

Estimate two_stage(const Input& in, const TwoStageParams& p, core::Rng& rng) {
  const std::string owner = "dugler2026.two_stage";
  check_input(in, owner, /*is_private=*/true, 4);
  if (!(p.warm_fraction > 0 && p.warm_fraction < 1))
    throw InvalidArgument(
        fmt::format("{}: warm_fraction must lie in (0, 1), got {}", owner, p.warm_fraction));
  const Index n = in.samples->n();
  const Index n_warm = static_cast<Index>(std::floor(p.warm_fraction * static_cast<double>(n)));
  // Disjoint parts [0, n_warm) and [n_warm, n): parallel composition (Lemma 13).
  const SampleRange warm_samples(*in.samples, 0, n_warm), refine_samples(*in.samples, n_warm, n - n_warm);
  Input warm_in = in, refine_in = in;
  warm_in.samples = &warm_samples;
  refine_in.samples = &refine_samples;
  core::Rng warm_rng = rng.child("warm"), refine_rng = rng.child("refine");
  Estimate warm = adadpo(warm_in, p.warm, warm_rng, "warm.");
  Estimate e = tadadpo(refine_in, p.refine, refine_rng, &*warm.Q, "refine.");
  for (const auto& [name, value] : warm.diagnostics.counters) e.diagnostics.counters[name] = value;
  e.diagnostics.notes.insert(e.diagnostics.notes.begin(), warm.diagnostics.notes.begin(),
                             warm.diagnostics.notes.end());
  e.release_notes.insert(e.release_notes.begin(), warm.release_notes.begin(), warm.release_notes.end());
  // The warm stage's releases first, in the order they were made. The refine stage's parts are numbered
  // from its first record, n_warm in the whole data.
  Ledger ledger = std::move(warm.ledger);
  ledger.append(e.ledger, n_warm);
  e.ledger = std::move(ledger);
  e.diagnostics.counters["warm_samples"] = static_cast<double>(n_warm);
  e.diagnostics.counters["refine_samples"] = static_cast<double>(n - n_warm);
  e.claim = two_stage_claim(p, in);
  return e;
}

PrivacyClaim two_stage_claim(const TwoStageParams& p, const Input& in) {
  PrivacyClaim c = adadpo_claim(p.warm, in);
  c.conditions.push_back(
      "Lemma 13: ADADPO and TADADPO run on disjoint parts of the data (parallel composition)");
  if (p.refine.adaptive.calibration != p.warm.adaptive.calibration)
    c.conditions.push_back("refinement uses the other Gaussian calibration");
  return c;
}

}  // namespace dpb::alg::dugler2026
