#pragma once
// Noise probes (docs/privacy.md "Noise probes"): the accountant proves a claim from what the ledger says each
// mechanism drew, so the probe checks that the noise really drawn is the noise declared. It runs an algorithm
// many times with the test-only seam alg::LedgerProbe active and, for every ledger entry that adds noise,
// standardises release - statistic by the entry's declared scale and tests the pooled draws against the
// declared law: Gaussian (mean z^2 = 1), Laplace (mean |z| = 1), bounded Laplace (its truncated mean, never
// beyond the bound), the stability histogram's bins far above the threshold (Laplace) and every released bin
// (occupied, at or above the declared threshold). A defect that draws less noise than its entry declares
// (x0.8 in a mechanism, a diagonal left unnoised) spends more than the ledger shows; this is where it shows.
// Selections (alg::ProbedRelease::selected: exponential mechanism, Bingham draws, top-k supports without their
// values) add no noise to a value and are listed as unchecked.
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "verify/audit/audit_spec.hpp"

namespace dpb::verify {

// One ledger step's pooled noise against its declared law.
struct NoiseCheck {
  std::string step;       // the ledger entry
  std::string mechanism;  // alg::to_string(Mechanism)
  std::size_t draws = 0;  // noise coordinates pooled (histograms: bins far above the threshold)
  double measured = 0;    // mean z^2 (Gaussian), mean |z| (Laplace, histogram), z = noise / declared scale;
                          // bounded Laplace: mean |noise| (its law is tested through its own moments)
  double expected = 0;    // its value under the declared law
  bool tested = false;    // enough draws to test (NoiseProbeOptions::min_checked_draws)
  double z_score = 0;     // (measured - expected) / its standard error under that law, where tested
  std::string problem;    // empty when the draws fit the declared law; else what is wrong
};

struct NoiseProbeReport {
  std::size_t runs = 0;
  std::vector<NoiseCheck> checks;       // one per (step, mechanism), in the order first seen
  std::vector<std::string> unchecked;   // steps whose mechanism selects rather than adds noise
  bool not_private = false;             // the claim promises nothing: nothing was probed
  std::vector<NoiseCheck> failures() const;
};

struct NoiseProbeOptions {
  std::size_t min_draws = 20000;  // runs go on until every additive entry has pooled this many draws...
  int max_runs = 2000;             // ... or this many runs are done
  // A check fails beyond this many standard errors: a pooled mean of >= 1000 draws is near normal, though a
  // mean of chi^2_1 draws is right-skewed (its upper 6-SE tail ~2e-8 at 1000 draws, not 1e-9), so ~100 checks
  // over the registry flag a correct mechanism with probability ~1e-6 (and the seeds are fixed); noise x0.8
  // sits 6 standard errors out at 560 Gaussian or 900 Laplace draws.
  double z_limit = 6;
  std::size_t min_checked_draws = 1000;  // fewer pooled draws: reported, not tested
  std::uint64_t seed = 1;
};

// Probes spec.algorithm (from `registry`) on one draw of spec's model at spec's n, d, k and budget.
// Throws dpb::InvalidArgument when the algorithm refuses the input.
NoiseProbeReport probe_noise(const AuditSpec& spec, const alg::Registry& registry,
                             const NoiseProbeOptions& options = {});

// The mean and the second moment of |X| for X bounded Laplace with scale lambda and bound tau (kumar2025 §1.3):
// |X| is exponential with mean lambda truncated to [0, tau].
std::pair<double, double> bounded_laplace_abs_moments(double lambda, double tau);

}  // namespace dpb::verify
