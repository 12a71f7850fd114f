#include "verify/audit/auditor.hpp"

#include <fmt/format.h>
#include <chrono>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <vector>

#include "core/errors.hpp"
#include "core/models/model.hpp"
#include "verify/audit/learned_score.hpp"
#include "verify/audit/neighbour_search.hpp"
#include "verify/audit/scores.hpp"
#include "verify/distributed/ranks.hpp"
#include "verify/distributed/spread.hpp"
#include "verify/runner/trial_input.hpp"

namespace dpb::verify {
namespace {

// Stream roles (audit_stream).
constexpr const char* kModelRole = "model";
constexpr const char* kReferenceRole = "reference";
constexpr const char* kPilotRole = "pilot";
constexpr const char* kRoleD = "D";
constexpr const char* kRoleDPrime = "D'";
constexpr const char* kTrainingRoleD = "training D";
constexpr const char* kTrainingRoleDPrime = "training D'";

bool model_takes(const core::ModelEntry& entry, const std::string& name) {
  for (const auto& p : entry.params)
    if (p.name == name) return true;
  return false;
}

// The spec's model parameters, with d (and r = k, when the model has spikes) filled in unless given.
core::ParamMap model_params(const AuditSpec& spec) {
  const core::ModelEntry& entry = core::find_model(spec.model);
  core::ParamMap params = spec.model_params;
  if (model_takes(entry, "d") && !params.has("d") && !params.has("p")) params.set("d", double(spec.d));
  if (model_takes(entry, "r") && !params.has("r")) params.set("r", double(spec.k.value_or(1)));
  return params;
}

// k when given; else 1, or d where the algorithm's worst case releases every eigenpair.
int audited_k(const AuditSpec& spec, const std::string& construction_for) {
  if (spec.k) return *spec.k;
  const bool every = (spec.neighbours == NeighbourKind::canary || spec.neighbours == NeighbourKind::search) &&
                     worst_case_construction(construction_for).every_eigenpair;
  return every ? spec.d : 1;
}

// Whether the step that reads the audited record first queries the public start, in two pilot runs on D (streams
// of their own): an algorithm that shuffles its records reads it at a random step (both pilots agree by chance
// with probability 1/n^2).
bool reads_record_at_start(const alg::Estimator& estimator, const alg::AlgorithmEntry& entry,
                           const NeighbourPair& pair, int k, const AuditSpec& spec, const core::ModelInfo& oracle) {
  const TrialData data = trial_data_from_vectors(pair.X);
  alg::Input in = make_input(entry, data, k, spec.privacy, &oracle);
  in.record_transcript = true;
  in.start = &pair.start;
  for (std::uint64_t pilot = 0; pilot < 2; ++pilot) {
    core::Rng rng = audit_stream(spec, pilot, kPilotRole);
    const alg::Estimate e = estimator.run(in, rng);
    // Named records only: a release that may read any record (end_record < 0, a secret order) does not count,
    // so such an algorithm falls back too.
    const auto reads = [&](const alg::GaussianRelease& r) { return r.end_record >= 0 && r.reads(pair.index); };
    const auto first = std::find_if(e.transcript.begin(), e.transcript.end(), reads);
    if (first == e.transcript.end() || !first->query.col(0).isApprox(pair.start.col(0))) return false;
  }
  return true;
}

// At most this many runs of the noise probe beside an audit (fewer when the audit itself runs fewer): enough for
// noise x0.8 to show on any entry that releases a few values per run.
constexpr int kNoiseProbeRuns = 1000;

// The noise probe beside the audit, on the model's data at the audit's n, d, k and budget (its own streams, after
// the audit's runs, so it changes none of their numbers). An algorithm that refuses the model's own data (a
// construction made the audit's D acceptable) is reported as not probed.
void probe_noise_beside(AuditResult& result, const alg::Registry& registry) {
  NoiseProbeOptions options;
  options.max_runs = static_cast<int>(std::min<long>(kNoiseProbeRuns, std::max<long>(result.spec.trials, 1)));
  options.seed = result.spec.seed;
  try {
    const NoiseProbeReport noise = probe_noise(result.spec, registry, options);
    result.noise_checks = noise.checks;
    for (const std::string& step : noise.unchecked)
      result.noise_unchecked.push_back(fmt::format("'{}': a selection, no noise to test", step));
    result.noise_runs = noise.runs;
  } catch (const InvalidArgument& e) {
    result.noise_unchecked = {fmt::format("not probed: {}", e.what())};
  }
}

std::string interpret(const AuditResult& r) {
  const double eps_lb = r.epsilon_lower(), claimed = r.audited_epsilon;
  if (r.verdict == AuditVerdict::not_private)
    return fmt::format(
        "The algorithm claims no privacy, so nothing is audited; eps_lb = {:.3g} only measures how "
        "much it leaks between these neighbours.",
        eps_lb);
  const bool model_scope = r.claim.scope == alg::ClaimScope::under_model_assumptions;
  const bool fresh = r.construction == NeighbourKind::fresh;
  if (r.verdict == AuditVerdict::violation) {
    if (!model_scope)
      return fmt::format(
          "The claim is worst case, so these neighbours are within its scope: the mechanism leaks "
          "more (eps >= {:.3g}) than it claims ({:g}); a bug or a wrong calibration.",
          eps_lb, claimed);
    if (fresh)
      return fmt::format(
          "Fresh draws from the model are the neighbours this claim is made for: eps >= {:.3g} "
          "contradicts the claim ({:g}) itself.",
          eps_lb, claimed);
    return fmt::format(
        "The claim holds only for data drawn from the model; the canary breaks that assumption. "
        "eps >= {:.3g} > {:g} shows the guarantee does not extend to worst-case neighbours (as its "
        "scope says), not that the implementation is wrong; audit with --neighbours fresh for the "
        "claim itself.",
        eps_lb, claimed);
  }
  std::string text = fmt::format(
      "No evidence against the claim: eps_lb = {:.3g} <= {:g}. A lower bound can refute "
      "a claim but never prove it",
      eps_lb, claimed);
  if (r.loss.max_detectable_epsilon <= claimed)
    return text + fmt::format(
                      "; these runs could not have shown a violation at all (largest detectable eps "
                      "{:.3g} <= {:g}): use more trials.",
                      r.loss.max_detectable_epsilon, claimed);
  if (model_scope && !fresh)
    return text +
           "; the canary breaks the model assumption the claim rests on, yet did not show a leak here.";
  if (model_scope) return text + "; fresh neighbours are the ones this claim is made for.";
  return text + ".";
}

}  // namespace

double adaptive_look_confidence(double confidence, int look) {
  // Look j gets (6 / pi^2) / j^2 of half the error: the shares sum to 1.
  const double share = 6 / (std::numbers::pi * std::numbers::pi) / (double(look) * double(look));
  return 1 - (1 - confidence) / 2 * share;
}

double adaptive_final_confidence(double confidence) { return 1 - (1 - confidence) / 2; }

AuditResult run_audit(const AuditSpec& spec, const alg::Registry& registry) {
  validate(spec);
  const alg::AlgorithmEntry& entry = registry.find(spec.algorithm);
  const auto estimator = registry.make(spec.algorithm, spec.params);
  const auto model = audit_model(spec);
  core::Rng data_rng = audit_stream(spec, 0, kAuditDataRole);
  // A mutant is audited with the worst case of the algorithm it breaks.
  const std::string& construction_for = entry.breaks.empty() ? entry.id : entry.breaks;
  const int k = audited_k(spec, construction_for);
  std::optional<NeighbourSearch> search;
  if (spec.neighbours == NeighbourKind::search)
    search = search_neighbours(spec, entry, *estimator, *model, k, construction_for);
  NeighbourPair pair = search ? search->pair
                              : make_neighbours(spec.neighbours, construction_for, *model, spec.n, spec.index,
                                                spec.canary_scale, data_rng);
  // With k = d the start frame holds e_b too, so the two records differ inside it: no better than orthogonal.
  if (pair.kind == NeighbourKind::opposed_at_start && spec.neighbours == NeighbourKind::canary &&
      (k >= spec.d || !reads_record_at_start(*estimator, entry, pair, k, spec, model->info()))) {
    core::Rng again = audit_stream(spec, 0, kAuditDataRole);  // the same D, other canaries
    pair = make_neighbours(random_query_worst_case(worst_case_construction(construction_for)), construction_for,
                           *model, spec.n, spec.index, spec.canary_scale, again);
  }

  // D and D' are built once; the runs below differ only in their noise streams.
  const TrialData data_d = trial_data_from_vectors(pair.X),
                  data_d_prime = trial_data_from_vectors(pair.X_prime);
  alg::Input in_d = make_input(entry, data_d, k, spec.privacy, &model->info());
  alg::Input in_d_prime = make_input(entry, data_d_prime, k, spec.privacy, &model->info());
  // The Oja family records its per-step releases only when a score reads them.
  const std::string& named_score = !spec.score.empty() ? spec.score : pair.score;
  in_d.record_transcript = in_d_prime.record_transcript = named_score == kTranscriptScore;
  // White-box: the runs start where the neighbours were built for (opposed_at_start).
  if (pair.start.size() > 0) in_d.start = in_d_prime.start = &pair.start;

  AuditResult result;
  result.spec = spec;
  result.spec.k = k;
  result.claim = estimator->claim(in_d);
  const AuditedPrivacy audited = audited_privacy(result.claim);
  result.audited_epsilon = audited.epsilon;
  result.audited_delta = audited.delta;
  result.neighbours = pair.description;
  if (search) {
    result.search = search->ranked;
    result.search_candidates = search->candidates;
    result.search_runs = search->runs;
  }
  result.construction = pair.kind;
  result.canary_norm = pair.canary_norm;

  // The first run on D: its ledger, and what it releases picks the score unless one is named.
  core::Rng first_rng = audit_stream(spec, 0, kRoleD);
  const alg::Estimate first = estimator->run(in_d, first_rng);
  result.ledger = alg::describe_ledger(first.ledger, result.claim);
  result.spent = alg::account(first.ledger, result.claim.delta, result.claim.neighbours);
  result.gaussian_ledger = gaussian_ledger(first.ledger, result.claim.neighbours);
  const ScoreEntry& score = find_score(!spec.score.empty() ? spec.score
                                       : !pair.score.empty() ? pair.score
                                                             : default_score(first));
  result.score = score.name;
  ScoreContext context = score_context(pair);
  if (score.needs_reference) {
    core::Rng reference_rng = audit_stream(spec, 0, kReferenceRole);
    context.reference = estimator->run(in_d, reference_rng);
  }
  // A learned score is fit on `trials` runs per side of streams of their own, never reused below: the audit's
  // threshold tests then see weights independent of their runs. Outputs that release nothing are left out.
  long training_runs = 0;
  if (score.learned) {
    training_runs = spec.trials;
    const auto features = ranks::spread(std::size_t(training_runs), [&](std::size_t run) {
      core::Rng rng_d = audit_stream(spec, run, kTrainingRoleD), rng_d_prime = audit_stream(spec, run, kTrainingRoleDPrime);
      const Eigen::VectorXd f = output_features(estimator->run(in_d, rng_d)),
                            f_prime = output_features(estimator->run(in_d_prime, rng_d_prime));
      std::vector<double> both{double(f.size())};  // f's length, then f, then f'
      both.insert(both.end(), f.begin(), f.end());
      both.insert(both.end(), f_prime.begin(), f_prime.end());
      return both;
    });
    std::vector<Eigen::VectorXd> on_d, on_d_prime;
    for (const auto& both : features) {
      const auto split = both.begin() + 1 + static_cast<std::ptrdiff_t>(both.front());
      if (split != both.begin() + 1) on_d.push_back(Eigen::Map<const Eigen::VectorXd>(&both[1], split - both.begin() - 1));
      if (split != both.end()) on_d_prime.push_back(Eigen::Map<const Eigen::VectorXd>(&*split, both.end() - split));
    }
    context.weights = fisher_direction(on_d, on_d_prime);
  }

  // Runs [done, target) on each side; under mpirun spread over the ranks, on each rank over its threads.
  // Each run's scores depend only on its streams, so the scores are the same however they are spread.
  std::vector<double> scores_d, scores_d_prime;
  const auto run_batch = [&](long done, long target) {
    const auto scores = ranks::spread(std::size_t(target - done), [&](std::size_t j) -> std::vector<double> {
      const std::uint64_t run = std::uint64_t(done) + j;
      core::Rng rng_d = audit_stream(spec, run, kRoleD), rng_d_prime = audit_stream(spec, run, kRoleDPrime);
      return {score.score(estimator->run(in_d, rng_d), context),
              score.score(estimator->run(in_d_prime, rng_d_prime), context)};
    });
    for (const auto& pair_of_scores : scores) {
      scores_d.push_back(pair_of_scores[0]);
      scores_d_prime.push_back(pair_of_scores[1]);
    }
  };
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  long done = 0;
  // Where the Gaussian-DP fit joins the verdict, the verdict is the larger of two bounds, each a statement at its
  // confidence: each gets half the error, so that the verdict holds at `confidence` (Bonferroni).
  const double bounds_in_verdict = result.gaussian_ledger ? 2 : 1;
  const auto estimate = [&](double confidence) {
    result.confidence = confidence;
    result.loss = estimate_privacy_loss(scores_d, scores_d_prime, result.audited_delta,
                                        1 - (1 - confidence) / bounds_in_verdict);
  };
  for (int look = 1;; ++look) {
    run_batch(done, done == 0 ? spec.trials : std::min(done + done / 2, spec.max_trials));
    done = long(scores_d.size());
    if (spec.seconds <= 0 || done >= spec.max_trials) {
      estimate(spec.confidence);
      break;
    }
    // Stop once a violation shows (more runs only tighten it) or the next look would overrun the budget: its
    // batch costs about half of everything so far, and the final estimate on 1.5 times the runs about 1.5 times
    // this look's. The root decides, so every rank stops at the same batch.
    const double before_estimate = elapsed();
    estimate(adaptive_look_confidence(spec.confidence, look));
    const double now = elapsed(), estimate_seconds = now - before_estimate;
    std::string stop = result.epsilon_lower() > result.audited_epsilon        ? "violation"
                       : 1.5 * now + 1.5 * estimate_seconds > spec.seconds ? "budget"
                                                                            : "";
    ranks::broadcast(stop);
    if (stop == "budget") estimate(adaptive_final_confidence(spec.confidence));
    if (!stop.empty()) break;
  }
  result.runs_per_side = done;
  // The first run, the reference and the training runs count too.
  result.runs = 2 * done + 1 + (score.needs_reference ? 1 : 0) + 2 * training_runs + result.search_runs;
  const double seconds = elapsed();
  result.runs_per_second = seconds > 0 ? double(2 * done) / seconds : 0.0;

  if (result.claim.scope == alg::ClaimScope::not_private)
    result.verdict = AuditVerdict::not_private;
  else
    result.verdict = result.epsilon_lower() > result.audited_epsilon ? AuditVerdict::violation : AuditVerdict::pass;
  result.interpretation = interpret(result);
  if (result.claim.scope != alg::ClaimScope::not_private) {
    probe_noise_beside(result, registry);
    if (spec.per_entry) result.entry_audit = audit_entries(spec, entry, *estimator, pair, k, *model, spec.trials);
  }
  return result;
}

AuditResult run_audit(const AuditSpec& spec) { return run_audit(spec, alg::algorithm_registry()); }

std::unique_ptr<core::Model> audit_model(const AuditSpec& spec) {
  core::Rng model_rng = audit_stream(spec, 0, kModelRole);
  return core::make_model(spec.model, model_params(spec), model_rng);
}

std::string to_string(AuditVerdict verdict) {
  switch (verdict) {
    case AuditVerdict::pass:
      return "PASS";
    case AuditVerdict::violation:
      return "VIOLATION";
    case AuditVerdict::not_private:
      return "NOT PRIVATE";
  }
  return "unknown";
}

}  // namespace dpb::verify
