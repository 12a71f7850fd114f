#include "verify/audit/neighbour_search.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "algorithms/mechanisms/accountant.hpp"
#include "core/errors.hpp"
#include "verify/audit/estimators.hpp"
#include "verify/checks/sample_statistics.hpp"
#include "verify/audit/learned_score.hpp"
#include "verify/audit/scores.hpp"
#include "verify/distributed/spread.hpp"
#include "verify/runner/trial_input.hpp"

namespace dpb::verify {
namespace {

constexpr const char* kFirstRole = "search first";
constexpr const char* kRoleD = "search D";
constexpr const char* kRoleDPrime = "search D'";

// Every construction a search may try, in the order it tries them (ties go to the earlier).
constexpr NeighbourKind kSearchKinds[] = {NeighbourKind::huge_norm,       NeighbourKind::sign_flip,
                                          NeighbourKind::axis_flip,       NeighbourKind::corner,
                                          NeighbourKind::orthogonal_axes, NeighbourKind::opposed_at_start,
                                          NeighbourKind::log_ladder};

bool admits(NeighbourKind kind, bool flat, const AuditSpec& spec, int k) {
  switch (kind) {
    case NeighbourKind::orthogonal_axes:
      return spec.d >= 2;
    case NeighbourKind::opposed_at_start:
      return spec.d >= 2 && k < spec.d;  // with k = d the start frame holds e_b too
    case NeighbourKind::log_ladder:
      if (flat) return false;  // the ladder replaces every record: flat data would repeat it
      try {
        check_ladder(spec.n, spec.index);
        return true;
      } catch (const InvalidArgument&) {
        return false;
      }
    default:
      return true;
  }
}

// What every score gives a release that did not happen (BOTTOM), and a score for a number the output lacks.
constexpr double kBottom = std::numeric_limits<double>::lowest();

// A score a pilot can compute: it needs nothing the pilot does not build (a reference, training runs).
bool pilot_can_use(const ScoreEntry& score) { return !score.needs_reference && !score.learned; }

// The scores a pilot tries on `first`: the named one (unless the pilot cannot compute it: a learned or reference
// score is computed on the chosen pair only), else every score that reads a number this output holds (not
// BOTTOM for an output that released something: `top_eigenvalue` of an output without eigenvalues).
std::vector<const ScoreEntry*> pilot_scores(const AuditSpec& spec, const alg::Estimate& first,
                                            const ScoreContext& context) {
  if (!spec.score.empty() && pilot_can_use(find_score(spec.score))) return {&find_score(spec.score)};
  const bool released = output_features(first).size() > 0;
  std::vector<const ScoreEntry*> scores;
  for (const ScoreEntry& score : score_registry()) {
    if (!pilot_can_use(score)) continue;
    try {
      const double value = score.score(first, context);
      if (!std::isnan(value) && !(released && value == kBottom)) scores.push_back(&score);
    } catch (const InvalidArgument&) {
      // the output lacks what this score reads
    }
  }
  return scores;
}

}  // namespace

AuditedPrivacy audited_privacy(const alg::PrivacyClaim& claim) {
  if (claim.neighbours != alg::Neighbours::add_remove) return {claim.epsilon, claim.delta};
  return {2 * claim.epsilon, (1 + std::exp(claim.epsilon)) * claim.delta};
}

bool gaussian_ledger(const alg::Ledger& ledger, alg::Neighbours neighbours) {
  const auto& entries = ledger.entries();
  return !entries.empty() && std::all_of(entries.begin(), entries.end(), [&](const alg::LedgerEntry& e) {
           return alg::gaussian_tradeoff(e, neighbours);
         });
}

std::vector<SearchCandidate> search_candidates(const AuditSpec& spec, const std::string& algorithm_id, int k) {
  WorstCase worst = worst_case_construction(algorithm_id);
  if (!admits(worst.kind, worst.flat, spec, k)) worst = random_query_worst_case(worst);
  std::vector<SearchCandidate> candidates{{worst, spec.canary_scale}};
  for (const NeighbourKind kind : kSearchKinds)
    for (const bool flat : {false, true})
      for (const double multiple : kSearchScales) {
        if (!admits(kind, flat, spec, k)) continue;
        if (kind == worst.kind && flat == worst.flat && multiple == 1) continue;  // the worst case, tried first
        candidates.push_back({WorstCase{kind, {}, flat, {}}, spec.canary_scale * multiple});
      }
  return candidates;
}

namespace {

// A candidate the algorithm accepted, ready for pilot runs.
struct Prepared {
  NeighbourPair pair;
  std::vector<const ScoreEntry*> scores;
  bool gaussian = false;      // the Gaussian-DP fit may join (as in the audit's verdict)
  double audited_delta = 0;
  std::size_t candidate = 0;                // its index in search_candidates: its streams
  std::optional<std::size_t> plain_score;  // the score a plain audit of this pair would use, in `scores`
};

// The inputs of a pair's runs. They point into the data and the pair, so they are built in place and never moved.
struct PilotInputs {
  PilotInputs(const NeighbourPair& pair, const alg::AlgorithmEntry& entry, const AuditSpec& spec, int k,
              const core::Model& model)
      : data_d(trial_data_from_vectors(pair.X)),
        data_d_prime(trial_data_from_vectors(pair.X_prime)),
        in_d(make_input(entry, data_d, k, spec.privacy, &model.info())),
        in_d_prime(make_input(entry, data_d_prime, k, spec.privacy, &model.info())),
        context(score_context(pair)) {
    in_d.record_transcript = in_d_prime.record_transcript = true;  // so that transcript_lr can be tried
    if (pair.start.size() > 0) in_d.start = in_d_prime.start = &pair.start;
  }
  PilotInputs(const PilotInputs&) = delete;
  PilotInputs& operator=(const PilotInputs&) = delete;

  TrialData data_d, data_d_prime;
  alg::Input in_d, in_d_prime;
  ScoreContext context;
};

// What one pilot shows. Candidates are ranked by `rank`: where the Gaussian-DP fit would join the verdict, the
// scores' separation |mean' - mean| / sd (for a Gaussian release scored linearly, the mechanism's mu seen through
// the score; from every run, without the held-out split and its chosen threshold, so with the least noise, and it
// grows with the separation even where eps at a small delta is still 0 on a pilot's few runs); else eps.
struct PilotMeasure {
  double epsilon = std::numeric_limits<double>::quiet_NaN();  // NaN: the score could not read every output
  double mu = 0;
  double rank = 0;
};

// |mean(b) - mean(a)| / sd, with the two samples' pooled sd (+inf for distinct constants, 0 for equal ones); NaN
// when a score is BOTTOM or infinite (no moments: the pilot is ranked by its eps instead).
double separation(const std::vector<double>& a, const std::vector<double>& b) {
  const auto moment_free = [](double v) { return v == kBottom || !std::isfinite(v); };
  if (std::any_of(a.begin(), a.end(), moment_free) || std::any_of(b.begin(), b.end(), moment_free))
    return std::numeric_limits<double>::quiet_NaN();
  // The pooled sd: both samples' squared deviations from their own means, over all the runs.
  const auto squares = [](const std::vector<double>& x) {
    const double sd = sample_sd(x);
    return double(x.size() - 1) * sd * sd;
  };
  const double shift = std::abs(sample_mean(b) - sample_mean(a)),
               sd = std::sqrt((squares(a) + squares(b)) / double(a.size() + b.size()));
  if (sd > 0) return shift / sd;
  return shift > 0 ? std::numeric_limits<double>::infinity() : 0.0;
}

// `runs` pilot runs per side of a prepared candidate in `round` (streams of their own), and what each of its scores
// shows.
std::vector<PilotMeasure> pilot_measures(const Prepared& c, const std::vector<const ScoreEntry*>& scores,
                                         const PilotInputs& inputs, const alg::Estimator& estimator,
                                         const AuditSpec& spec, long runs, int round) {
  const std::size_t count = scores.size();
  // Run j of candidate c in round r has the streams (r << 48) + (c << 32) + j: no two pilots share one.
  const std::uint64_t base = (std::uint64_t(round) << 48) + (std::uint64_t(c.candidate) << 32);
  const auto rows = ranks::spread(std::size_t(runs), [&](std::size_t j) {
    core::Rng rng_d = audit_stream(spec, base + j, kRoleD), rng_d_prime = audit_stream(spec, base + j, kRoleDPrime);
    const alg::Estimate on_d = estimator.run(inputs.in_d, rng_d),
                        on_d_prime = estimator.run(inputs.in_d_prime, rng_d_prime);
    std::vector<double> row(2 * count);
    for (std::size_t s = 0; s < count; ++s) {
      try {
        row[2 * s] = scores[s]->score(on_d, inputs.context);
        row[2 * s + 1] = scores[s]->score(on_d_prime, inputs.context);
      } catch (const InvalidArgument&) {  // an output this score cannot read: the score drops out
        row[2 * s] = row[2 * s + 1] = std::numeric_limits<double>::quiet_NaN();
      }
    }
    return row;
  });
  std::vector<PilotMeasure> measures(count);
  for (std::size_t s = 0; s < count; ++s) {
    std::vector<double> on_d, on_d_prime;
    for (const auto& row : rows) {
      on_d.push_back(row[2 * s]);
      on_d_prime.push_back(row[2 * s + 1]);
    }
    const auto nan = [](double x) { return std::isnan(x); };
    if (std::any_of(on_d.begin(), on_d.end(), nan) || std::any_of(on_d_prime.begin(), on_d_prime.end(), nan))
      continue;
    PrivacyLossEstimate loss;
    try {
      loss = estimate_privacy_loss(on_d, on_d_prime, c.audited_delta, kSearchConfidence);
    } catch (const InvalidArgument&) {  // scores it cannot bound (infinite ones): the score drops out
      continue;
    }
    PilotMeasure& m = measures[s];
    m.epsilon = c.gaussian ? std::max(loss.epsilon_lower, loss.gdp_epsilon_lower) : loss.epsilon_lower;
    m.mu = separation(on_d, on_d_prime);
    m.rank = c.gaussian && !std::isnan(m.mu) ? m.mu : m.epsilon;
  }
  return measures;
}

}  // namespace

NeighbourSearch search_neighbours(const AuditSpec& spec, const alg::AlgorithmEntry& entry,
                                  const alg::Estimator& estimator, const core::Model& model, int k,
                                  const std::string& algorithm_id) {
  const std::vector<SearchCandidate> candidates = search_candidates(spec, algorithm_id, k);
  NeighbourSearch search;
  std::vector<Prepared> prepared;
  std::string first_refusal;
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    core::Rng data_rng = audit_stream(spec, 0, kAuditDataRole);  // every candidate starts from the audit's D
    Prepared p;
    p.candidate = c;
    alg::Estimate first;
    try {  // a construction the model or size does not admit, or an input the algorithm refuses: left out
      p.pair = make_neighbours(candidates[c].construction, algorithm_id, model, spec.n, spec.index,
                               candidates[c].canary_scale, data_rng);
      const PilotInputs inputs(p.pair, entry, spec, k, model);
      core::Rng first_rng = audit_stream(spec, c, kFirstRole);
      first = estimator.run(inputs.in_d, first_rng);
    } catch (const InvalidArgument& e) {
      if (first_refusal.empty()) first_refusal = e.what();
      continue;
    }
    const PilotInputs inputs(p.pair, entry, spec, k, model);
    const alg::PrivacyClaim claim = estimator.claim(inputs.in_d);
    p.gaussian = gaussian_ledger(first.ledger, claim.neighbours);
    p.audited_delta = audited_privacy(claim).delta;
    p.scores = pilot_scores(spec, first, inputs.context);
    const std::string plain = !p.pair.score.empty() ? p.pair.score : default_score(first);
    for (std::size_t s = 0; s < p.scores.size(); ++s)
      if (p.scores[s]->name == plain) p.plain_score = s;
    search.runs += 1;
    prepared.push_back(std::move(p));  // `inputs` is not used past here: it points into p.pair
  }
  if (prepared.empty())
    throw InvalidArgument(fmt::format("audit: the search found no pair of neighbours {} accepts: {}", spec.algorithm,
                                      first_refusal));

  // Round 1: every candidate, every score.
  struct Ranked {
    std::size_t prepared, score;
    PilotMeasure measure;
    bool confirmed = false;
  };
  std::vector<Ranked> ranked;
  for (std::size_t i = 0; i < prepared.size(); ++i) {
    const PilotInputs inputs(prepared[i].pair, entry, spec, k, model);
    std::vector<PilotMeasure> measures;
    try {
      measures = pilot_measures(prepared[i], prepared[i].scores, inputs, estimator, spec, spec.search_trials, 1);
    } catch (const InvalidArgument&) {  // an input the algorithm refuses in a later run: the candidate drops out
      continue;
    }
    search.runs += 2 * spec.search_trials;
    for (std::size_t s = 0; s < measures.size(); ++s)
      if (!std::isnan(measures[s].epsilon)) ranked.push_back({i, s, measures[s]});
  }
  if (ranked.empty())
    throw InvalidArgument(fmt::format("audit: no score reads the output of {} on every pilot run", spec.algorithm));
  // The plain audit's own choice: the worst case (candidate 0) with the score a plain audit of it would use.
  const auto is_plain = [&](const Ranked& r) {
    const Prepared& c = prepared[r.prepared];
    return c.candidate == 0 && c.plain_score == r.score;
  };
  // Confirmed first, then by rank; ties go to the plain audit's choice, then the earlier candidate and score.
  const auto better = [&](const Ranked& a, const Ranked& b) {
    if (a.confirmed != b.confirmed) return a.confirmed;
    if (a.measure.rank != b.measure.rank) return a.measure.rank > b.measure.rank;
    if (is_plain(a) != is_plain(b)) return is_plain(a);
    return std::pair{a.prepared, a.score} < std::pair{b.prepared, b.score};
  };
  std::sort(ranked.begin(), ranked.end(), better);
  // Round 2: the best few again, on kSearchConfirmRatio times the runs of fresh streams. The largest of many noisy
  // pilots is biased up (the winner's curse); ranking the finalists on runs that chose nothing shrinks the bias to
  // that of the largest of a few. The worst case with the plain audit's score is always a finalist, and wins ties:
  // where no pilot can see the loss (an event rarer than 1 in search_trials), the search audits that pair.
  std::size_t finalists = std::min(kSearchFinalists, ranked.size());
  const auto plain = std::find_if(ranked.begin(), ranked.end(), is_plain);
  if (plain != ranked.end() && plain - ranked.begin() >= std::ptrdiff_t(finalists)) {
    std::rotate(ranked.begin() + std::ptrdiff_t(finalists), plain, plain + 1);
    ++finalists;
  }
  for (std::size_t f = 0; f < finalists; ++f) {
    Ranked& r = ranked[f];
    const Prepared& c = prepared[r.prepared];
    const PilotInputs inputs(c.pair, entry, spec, k, model);
    const long runs = kSearchConfirmRatio * spec.search_trials;
    // Each finalist has round 2 + f: a pair that is a finalist with two scores draws fresh runs for each.
    r.measure = pilot_measures(c, {c.scores[r.score]}, inputs, estimator, spec, runs, 2 + int(f)).front();
    if (std::isnan(r.measure.epsilon)) r.measure.rank = -1;  // a score that failed on the fresh runs ranks last
    r.confirmed = true;
    search.runs += 2 * runs;
  }
  std::sort(ranked.begin(), ranked.end(), better);

  search.candidates = prepared.size();
  const Ranked& best = ranked.front();
  search.pair = prepared[best.prepared].pair;
  search.score = search.pair.score = prepared[best.prepared].scores[best.score]->name;
  for (const Ranked& r : ranked)
    search.ranked.push_back({prepared[r.prepared].pair.description, prepared[r.prepared].scores[r.score]->name,
                             r.measure.epsilon,
                             prepared[r.prepared].gaussian && !std::isnan(r.measure.mu) ? r.measure.mu : -1,
                             r.confirmed});
  return search;
}

}  // namespace dpb::verify
