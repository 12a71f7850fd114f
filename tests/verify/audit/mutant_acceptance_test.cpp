// Acceptance of the mutant zoo (docs/mutants.md): at the default audit budget (1000 runs on each of D and
// D', confidence 0.95) the auditor flags every mutant as a VIOLATION, and does not flag the real algorithm
// it breaks, run in the configuration the mutant claims for, on the same neighbours, score and seed.
//
// Why 1000 runs suffice. The verdict uses the Clopper–Pearson bound eps_lb = log((TPR_lo - delta) / FPR_up)
// on 500 held-out runs per side; at 95% (Bonferroni over both directions) perfect separation shows about
// eps = 4.7, and a tail event of probability p under one dataset and 0 under the other shows roughly
// log(p 500/6).
// Each case below is built so that the mutant's leak along the canary is far beyond its claim:
//  - no clipping / no truncation, and bounds taken from the data: the canary (norm canary_scale x the
//    typical record norm) moves the output, or the noise scale, by a factor of canary_scale^2 or more over
//    what the claim allows, so the two samples barely overlap (eps_lb of 2 to 4.7 against claims <= 1.5);
//  - budget 1/eps: the noise shrinks by tens of times at eps = 1/10 and ~1000x at eps = 1/50, so the
//    shift the canary causes is several noise sds instead of a small fraction of one;
//  - noise sd halved: the true privacy loss only doubles (mu-GDP with 2 mu), so the audit is made as
//    sharp as it can be: orthogonal_axes neighbours attain the sqrt(2)/n replace sensitivity the claim
//    is restated for (on the upper triangle Analyze Gauss perturbs), second_moment_lr is the
//    likelihood-ratio statistic for that shift, and delta = 0.05 puts the Gaussian mechanism's privacy
//    loss on events frequent enough for 500 held-out runs: the claim (1.72, 0.05) is mu = 1.06 GDP, the
//    mutant is 2.12-GDP, whose expected eps_lb at 500 held-out runs is ~2.8. Over seeds 1-20 the
//    mutant's eps_lb ranged 2.35-3.52 and the real one's 0.50-1.44. At delta = 1e-5 the expected bound
//    crosses the claim only at ~8000 held-out runs per side (docs/mutants.md).
//  - budget not split over the noisy power method's L iterations: each release alone stays within the
//    claim, so the audit reads all of them (transcript_lr, their joint likelihood ratio) on data whose
//    shared records weigh ~1e-4 of the canary; orthogonal_axes with k = d = 2 attain the sensitivity
//    sqrt(2) beta^2 in every iteration. The claim (1, 1e-3) is one mu-GDP release, the mutant is
//    sqrt(L) mu = sqrt(40) mu: over seeds 1-10 its eps_lb ranged 2.89-4.00, the real one's 0.03-0.34.
//  - symmetric noise without its diagonal, or not mirrored: the entry the canary moves most
//    (canary_diagonal_entry, canary_off_diagonal_entry; with k = d the released Sigma is s (A + N) itself)
//    carries no noise, so D and D' give two fixed values: perfect separation, eps_lb ~ 4.7. The same
//    entry of the real release carries noise of sd tau, against which one clipped canary is a shift the
//    claim covers.
//  - Wishart: in d = 2, P(chi^2_3 < 2 eps/3) ~ 0.12 of the runs on D land below u^T C' u, where D' puts
//    probability 0 (its noise is PSD), giving eps_lb ~ log(0.12 x 500/6) ~ 2.2 against the claimed 1.
//  - histogram without the threshold (liu2022 Alg. 4, PRIVRANGE): C1 = 0.1 makes few subsets (k = 4 of one
//    pair each at n = 8; m = 2 blocks at n = 4), and log_ladder puts each in a log bin of its own, the
//    audited record's pair on top. Released unthresholded, that top bin wins ~1/k of the runs on D, and
//    D' (where the pair's difference is 0) never occupies it: eps_lb ~ log(500/(6k)), 3.1-3.3 and 3.8-4.0
//    over seeds 1-20 against the claimed 1. The real histogram releases a singleton bin with probability
//    delta/4, so it returns BOTTOM on both: eps_lb 0.
// The real algorithms clip the canary to the sensitivity their noise is calibrated for or, for cai2024
// (whose claim holds under the model only, and which does not clip), add at eps = 1/50 noise that hides
// even the unclipped canary: their eps_lb stays below the claim.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "algorithms/mechanisms/accountant.hpp"
#include "verify/audit/auditor.hpp"

namespace {

using namespace dpb;

struct AcceptanceCase {
  std::string mutant;
  core::ParamMap real_params;  // the configuration the mutant claims for (its pinned parameters)
  std::string score;
  std::string model;
  core::ParamMap model_params;
  long n;
  int d, k;
  double epsilon, delta;
  double canary_scale;
  verify::NeighbourKind neighbours = verify::NeighbourKind::huge_norm;
  core::ParamMap params = {};  // given to both the mutant and the real algorithm
  // A defect too subtle for 1000 runs (noise x0.8): flagged by its ledger, which spends more than the
  // claim, while the audit must still not flag the real algorithm.
  bool ledger_flags = false;
  long trials = 1000;
  long index = 0;  // the replaced record
};

verify::AuditSpec audit_of(const AcceptanceCase& c, const std::string& algorithm,
                           const core::ParamMap& params) {
  verify::AuditSpec spec;  // default budget: 1000 runs per dataset, confidence 0.95, seed 1
  spec.algorithm = algorithm;
  spec.params = c.params;
  for (const auto& [name, value] : params.values()) spec.params.set(name, value);
  spec.model = c.model;
  spec.model_params = c.model_params;
  spec.privacy = {c.epsilon, c.delta, alg::Neighbours::replace};
  spec.n = c.n;
  spec.d = c.d;
  spec.k = c.k;
  spec.neighbours = c.neighbours;
  spec.score = c.score;
  spec.canary_scale = c.canary_scale;
  spec.trials = c.trials;
  spec.index = c.index;
  return spec;
}

const core::ParamMap kOneSpike = {{"r", 1.0}};
// Analyze Gauss's mutants break it clipped (a worst-case claim) with the paper's noise (mode = faithful).
const core::ParamMap kClipOn = {{"clip", std::string("on")}, {"mode", std::string("faithful")}};
const core::ParamMap kAnalytic = {{"calibration", std::string("analytic")}};
const core::ParamMap kInOrder = {{"shuffle", std::string("false")}};  // Private Oja reads record 0 first
const core::ParamMap kSparseSpike = {{"k", 1.0}};
const core::ParamMap kFewSubsets = {{"C1", 0.1}};
constexpr auto kAxes = verify::NeighbourKind::orthogonal_axes;
constexpr auto kOpposed = verify::NeighbourKind::opposed_at_start;
// Records of norm ~2.4e-3 against clip radii 1 (the canary clipped to beta = 1): the records D and D' share
// weigh ~1e-4 of the canary along its axes, the term transcript_lr leaves out. L = 40 iterations.
const core::ParamMap kFlatData = {{"r", 1.0}, {"lambda", 1e-6}, {"sigma2", 1e-6}};
const core::ParamMap kPowerRadii = {{"beta", 1.0}, {"alpha", 1.0}, {"iterations", 40.0}};
const core::ParamMap kUnitClip = {{"clip_radius", 1.0}};  // dugler2026 Private Oja's R, public
constexpr auto kLadder = verify::NeighbourKind::log_ladder;

// One case per row.
// clang-format off
std::vector<AcceptanceCase> cases() {
  const std::string spiked = "spiked_gaussian", sparse = "sparse_block_spike";
  return {
    // mutant                                   real config score                        model   model params  n     d  k  eps   delta canary
    {"mutant.dp_gauss_no_clipping",             kClipOn,   "covariance_quadratic",      spiked, kOneSpike,    50,   3, 3, 1,    1e-5, 30},
    {"mutant.dp_gauss_data_scale",              kClipOn,   "covariance_quadratic",      spiked, kOneSpike,    50,   3, 3, 1,    1e-5, 10},
    {"mutant.dp_gauss_inverted_eps",            kClipOn,   "covariance_quadratic",      spiked, kOneSpike,    50,   3, 3, 0.1,  1e-5, 10},
    {"mutant.dp_gauss_halved_noise",            kClipOn,   "second_moment_lr",          spiked, kOneSpike,    50,   3, 3, 1,    5e-2, 10, kAxes},
    // x0.7 on Analyze Gauss's worst case (every eigenpair: Sigma is the whole noisy matrix), at the CLI's
    // n, d and budget: eps_lb 1.71-1.91 over seeds 1-8 against the claim 1.465; the real one 0.63-1.30
    {"mutant.dp_gauss_noise_x07",               kClipOn,   "",                          spiked, {},           200,  5, 5, 1,    1e-5, 30, verify::NeighbourKind::canary, {}, false, 20000},
    {"mutant.dp_gauss_noise_without_diagonal",  kClipOn,   "canary_diagonal_entry",     spiked, kOneSpike,    50,   3, 3, 1,    1e-5, 10},
    {"mutant.dp_gauss_noise_not_mirrored",      kClipOn,   "canary_off_diagonal_entry", spiked, kOneSpike,    50,   3, 3, 1,    1e-5, 10},
    {"mutant.dp_gauss_1_noise_x07",             {},        "",                          spiked, kOneSpike,    50,   3, 3, 1,    5e-2, 10, verify::NeighbourKind::canary, {}, false, 4000},
    {"mutant.dp_gauss_1_add_remove_sensitivity", {},       "",                          spiked, kOneSpike,    50,   3, 3, 1,    5e-2, 10, verify::NeighbourKind::canary, {}, false, 4000},
    {"mutant.dp_gauss_1_clip_radius_doubled",   {},        "",                          spiked, kOneSpike,    50,   3, 3, 1,    5e-2, 10, verify::NeighbourKind::canary},
    // The last record left unclipped: invisible at index 0 (there the mutant is the real algorithm); the
    // canary at index n - 1 enters unclipped, ~100x the clipped trace, and separates D and D' perfectly
    {"mutant.dp_gauss_1_last_record_unclipped", {},        "",                          spiked, kOneSpike,    50,   3, 3, 1,    5e-2, 10, verify::NeighbourKind::canary, {}, false, 1000, 49},
    {"mutant.dp_gauss_1_noise_x08",             {},        "",                          spiked, kOneSpike,    50,   3, 3, 1,    5e-2, 10, verify::NeighbourKind::canary, {}, true},
    // x0.7 on every iteration: the transcript's likelihood ratio at the sharp settings, 20000 runs per side
    // (seeds 1-8: eps_lb 1.01-1.42 against the claim 1; the real one 0.70-0.92)
    {"mutant.noisy_power_method_noise_x07",     {},        "transcript_lr",             spiked, kFlatData,    50,   2, 2, 1,    1e-3, 1000, kAxes, kPowerRadii, false, 20000},
    {"mutant.noisy_power_method_budget_not_split", {},    "transcript_lr",             spiked, kFlatData,    50,   2, 2, 1,    1e-3, 1000, kAxes, kPowerRadii},
    {"mutant.wishart",                          kClipOn,   "covariance_quadratic",      spiked, kOneSpike,    50,   2, 2, 1,    1e-5, 10},
    {"mutant.private_mean_no_truncation",       {},        "mean_projection",           spiked, kOneSpike,    200,  3, 1, 0.5,  1e-5, 1e5},
    {"mutant.private_mean_data_scale",          {},        "mean_projection",           spiked, kOneSpike,    200,  3, 1, 0.5,  1e-5, 1e3},
    {"mutant.truncated_mean_no_truncation",     {},        "mean_projection",           spiked, kOneSpike,    1000, 2, 1, 1,    1e-5, 1e4},
    {"mutant.truncated_mean_data_radius",       {},        "mean_projection",           spiked, kOneSpike,    1000, 2, 1, 1,    1e-5, 10},
    {"mutant.gaussian_mechanism_inverted_eps",  kAnalytic, "subspace_energy",           spiked, kOneSpike,    200,  5, 1, 0.02, 1e-5, 20},
    {"mutant.private_spike_inverted_eps",       kAnalytic, "scalar",                    spiked, kOneSpike,    200,  5, 1, 0.02, 1e-5, 20},
    {"mutant.priv_cov_data_truncation",         {},        "covariance_quadratic",      sparse, kSparseSpike, 200,  5, 1, 1,    1e-5, 10},
    {"mutant.exp_mech_support_data_clip",       {},        "subspace_energy",           sparse, kSparseSpike, 2000, 5, 1, 1,    0,    30},
    // Private Oja x0.7 from the public start (opposed_at_start): the first step moves by 0.97 of the 2 beta the
    // claim allows, so the white-box audit shows mu 1.39x the claim's (20000 runs per side: eps_lb 1.54 of 1)
    {"mutant.private_oja_noise_x07",            kInOrder,  "transcript_lr",             spiked, kOneSpike,    50,   3, 1, 1,    5e-2, 1000, kOpposed, {}, false, 4000},
    {"mutant.dugler2026_private_oja_noise_x07", kAnalytic, "transcript_lr",             spiked, kFlatData,    50,   3, 1, 1,    5e-2, 1e5,  kOpposed, kUnitClip, false, 4000},
    {"mutant.top_eigenvalue_no_threshold",      {},        "scalar",                    spiked, kOneSpike,    8,    2, 1, 1,    1e-5, 1, kLadder, kFewSubsets},
    // A halved threshold releases the top subset's singleton bin w.p. ~1.2e-3 (the real one: delta/4): 1e5 runs
    {"mutant.top_eigenvalue_threshold_halved",  {},        "scalar",                    spiked, kOneSpike,    8,    2, 1, 1,    1e-5, 1, kLadder, kFewSubsets, false, 100000},
    {"mutant.priv_range_no_threshold",          {},        "scalar",                    spiked, kOneSpike,    4,    2, 1, 1,    1e-5, 1, kLadder, kFewSubsets},
  };
}
// clang-format on

}  // namespace

TEST_CASE("every mutant has an acceptance case", "[audit][mutants]") {
  std::set<std::string> covered;
  for (const auto& c : cases()) covered.insert(c.mutant);
  for (const auto& e : alg::algorithm_registry().entries())
    if (e.mutant) {
      INFO(e.id);
      CHECK(covered.count(e.id) == 1);
    }
}

TEST_CASE("the auditor flags every mutant and passes the real algorithm it breaks", "[audit][mutants][slow]") {
  const auto& registry = alg::algorithm_registry();
  for (const auto& c : cases()) {
    const std::string real = registry.find(c.mutant).breaks;
    INFO(c.mutant << " breaks " << real);
    const verify::AuditResult mutant = verify::run_audit(audit_of(c, c.mutant, {}));
    INFO("mutant: eps_lb = " << mutant.epsilon_lower() << ", claimed " << mutant.claim.epsilon << ", ledger spends "
                             << mutant.spent.epsilon);
    if (c.ledger_flags)
      CHECK_FALSE(alg::within_claim(mutant.spent, mutant.claim));
    else
      CHECK(mutant.verdict == verify::AuditVerdict::violation);
    const verify::AuditResult honest = verify::run_audit(audit_of(c, real, c.real_params));
    INFO("real: eps_lb = " << honest.epsilon_lower() << ", claimed " << honest.claim.epsilon);
    CHECK(honest.verdict == verify::AuditVerdict::pass);
    // The mutant claims what the real algorithm claims (the Wishart mechanism: pure eps-DP at the same eps).
    CHECK(mutant.claim.epsilon <= honest.claim.epsilon);
  }
}

TEST_CASE("baseline.dp_gauss_star, scaled by the data's largest norm, shows its leak under a canary", "[audit][mutants]") {
  // DP-Gauss* sets its scale s = max ||X_i||^2 from the data: the canary (10x the typical norm) sets s on D,
  // so D's noise is ~100x D''s and u^T Sigma u separates them. It claims no privacy, so the verdict is
  // NOT PRIVATE; the bound must still show more than the eps its noise is nominally calibrated to.
  verify::AuditSpec spec;
  spec.algorithm = "baseline.dp_gauss_star";
  spec.model_params = kOneSpike;
  spec.privacy = {1, 1e-5, alg::Neighbours::replace};
  spec.n = 50;
  spec.d = 3;
  spec.k = 3;
  spec.neighbours = verify::NeighbourKind::huge_norm;
  spec.score = "covariance_quadratic";
  spec.canary_scale = 10;
  const verify::AuditResult result = verify::run_audit(spec);
  CHECK(result.verdict == verify::AuditVerdict::not_private);
  CHECK(result.loss.epsilon_lower > 2 * spec.privacy.epsilon);  // measured 3.98 (seed 1)
}
