#include "verify/audit/neighbour_search.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "algorithms/mechanisms/accountant.hpp"
#include "core/errors.hpp"
#include "verify/audit/estimators.hpp"
#include "verify/audit/scores.hpp"
#include "verify/distributed/spread.hpp"
#include "verify/trial_input.hpp"

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

// The scores a pilot tries on `first`: the named one (unless learned: that one is fit on the chosen pair), else
// every score that reads this output and needs nothing the pilot does not build (a reference, training runs).
std::vector<const ScoreEntry*> pilot_scores(const AuditSpec& spec, const alg::Estimate& first,
                                            const ScoreContext& context) {
  if (!spec.score.empty() && !find_score(spec.score).learned) return {&find_score(spec.score)};
  std::vector<const ScoreEntry*> scores;
  for (const ScoreEntry& score : score_registry()) {
    if (score.needs_reference || score.learned) continue;
    try {
      if (!std::isnan(score.score(first, context))) scores.push_back(&score);
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
  std::size_t candidate = 0;      // its index in search_candidates: its streams
  std::size_t plain_score = 0;    // the score a plain audit of this pair would use, in `scores`
};

// The inputs of a pair's runs. They point into the data and the pair, so they are built in place and never moved.
struct PilotInputs {
  PilotInputs(const NeighbourPair& pair, const alg::AlgorithmEntry& entry, const AuditSpec& spec, int k,
              const core::Model& model)
      : data_d(trial_data_from_vectors(pair.X)),
        data_d_prime(trial_data_from_vectors(pair.X_prime)),
        in_d(make_input(entry, data_d, k, spec.privacy, &model.info())),
        in_d_prime(make_input(entry, data_d_prime, k, spec.privacy, &model.info())) {
    in_d.record_transcript = in_d_prime.record_transcript = true;  // so that transcript_lr can be tried
    if (pair.start.size() > 0) in_d.start = in_d_prime.start = &pair.start;
    context.direction = pair.direction;
    context.record = pair.X.col(pair.index);
    context.record_prime = pair.X_prime.col(pair.index);
    context.index = pair.index;
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

// |mean(b) - mean(a)| / sd, with the two samples' pooled sd (+inf for distinct constants, 0 for equal ones).
double separation(const std::vector<double>& a, const std::vector<double>& b) {
  const auto moments = [](const std::vector<double>& x) {
    double mean = 0, square = 0;
    for (double v : x) mean += v;
    mean /= double(x.size());
    for (double v : x) square += (v - mean) * (v - mean);
    return std::pair{mean, square};
  };
  const auto [mean_a, square_a] = moments(a);
  const auto [mean_b, square_b] = moments(b);
  const double shift = std::abs(mean_b - mean_a), sd = std::sqrt((square_a + square_b) / double(a.size() + b.size()));
  if (sd > 0) return shift / sd;
  return shift > 0 ? std::numeric_limits<double>::infinity() : 0.0;
}

// `runs` pilot runs per side of a prepared candidate in `round` (streams of their own), and what each of its scores
// shows.
std::vector<PilotMeasure> pilot_measures(const Prepared& c, const PilotInputs& inputs, const alg::Estimator& estimator,
                                   const AuditSpec& spec, long runs, int round) {
  const std::size_t count = c.scores.size();
  // Run j of candidate c in round r has the streams (r << 48) + (c << 32) + j: no two pilots share one.
  const std::uint64_t base = (std::uint64_t(round) << 48) + (std::uint64_t(c.candidate) << 32);
  const auto rows = ranks::spread(std::size_t(runs), [&](std::size_t j) {
    core::Rng rng_d = audit_stream(spec, base + j, kRoleD), rng_d_prime = audit_stream(spec, base + j, kRoleDPrime);
    const alg::Estimate on_d = estimator.run(inputs.in_d, rng_d),
                        on_d_prime = estimator.run(inputs.in_d_prime, rng_d_prime);
    std::vector<double> row(2 * count);
    for (std::size_t s = 0; s < count; ++s) {
      try {
        row[2 * s] = c.scores[s]->score(on_d, inputs.context);
        row[2 * s + 1] = c.scores[s]->score(on_d_prime, inputs.context);
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
    const PrivacyLossEstimate loss = estimate_privacy_loss(on_d, on_d_prime, c.audited_delta, kSearchConfidence);
    PilotMeasure& m = measures[s];
    m.epsilon = c.gaussian ? std::max(loss.epsilon_lower, loss.gdp_epsilon_lower) : loss.epsilon_lower;
    m.mu = separation(on_d, on_d_prime);
    // A score that puts a release that did not happen (BOTTOM) at the lowest double has no finite moments.
    m.rank = c.gaussian && std::isfinite(m.mu) ? m.mu : m.epsilon;
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
    p.pair = make_neighbours(candidates[c].construction, algorithm_id, model, spec.n, spec.index,
                             candidates[c].canary_scale, data_rng);
    const PilotInputs inputs(p.pair, entry, spec, k, model);
    alg::Estimate first;
    try {
      core::Rng first_rng = audit_stream(spec, c, kFirstRole);
      first = estimator.run(inputs.in_d, first_rng);
    } catch (const InvalidArgument& e) {
      if (first_refusal.empty()) first_refusal = e.what();
      continue;
    }
    const alg::PrivacyClaim claim = estimator.claim(inputs.in_d);
    p.gaussian = gaussian_ledger(first.ledger, claim.neighbours);
    p.audited_delta = audited_privacy(claim).delta;
    p.scores = pilot_scores(spec, first, inputs.context);
    const std::string plain = !p.pair.score.empty() ? p.pair.score : default_score(first);
    for (std::size_t s = 0; s < p.scores.size(); ++s)
      if (p.scores[s]->name == plain) p.plain_score = s;
    search.runs += 1;
    prepared.push_back(std::move(p));
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
    const std::vector<PilotMeasure> measures =
        pilot_measures(prepared[i], inputs, estimator, spec, spec.search_trials, 1);
    search.runs += 2 * spec.search_trials;
    for (std::size_t s = 0; s < measures.size(); ++s)
      if (!std::isnan(measures[s].epsilon)) ranked.push_back({i, s, measures[s]});
  }
  if (ranked.empty())
    throw InvalidArgument(fmt::format("audit: no score reads the output of {} on every pilot run", spec.algorithm));
  // Confirmed first, then by rank; ties go to the earlier candidate (the worst case first), then the earlier score.
  const auto better = [](const Ranked& a, const Ranked& b) {
    if (a.confirmed != b.confirmed) return a.confirmed;
    if (a.measure.rank != b.measure.rank) return a.measure.rank > b.measure.rank;
    return std::pair{a.prepared, a.score} < std::pair{b.prepared, b.score};
  };
  std::sort(ranked.begin(), ranked.end(), better);
  // Round 2: the best few again, on kSearchConfirmRatio times the runs of fresh streams. The largest of many noisy
  // pilots is biased up (the winner's curse); ranking the finalists on runs that chose nothing removes the bias.
  // The plain audit's pair and score (the worst case) is always a finalist, and wins ties: where no pilot can see
  // the loss (an event rarer than 1 in search_trials), the search audits what the plain audit would.
  std::size_t finalists = std::min(kSearchFinalists, ranked.size());
  const auto plain = std::find_if(ranked.begin(), ranked.end(), [&](const Ranked& r) {
    return prepared[r.prepared].candidate == 0 && r.score == prepared[r.prepared].plain_score;
  });
  if (plain != ranked.end() && plain - ranked.begin() >= std::ptrdiff_t(finalists)) {
    std::rotate(ranked.begin() + std::ptrdiff_t(finalists), plain, plain + 1);
    ++finalists;
  }
  for (std::size_t f = 0; f < finalists; ++f) {
    Ranked& r = ranked[f];
    const Prepared& c = prepared[r.prepared];
    Prepared alone = {c.pair, {c.scores[r.score]}, c.gaussian, c.audited_delta, c.candidate};
    const PilotInputs inputs(c.pair, entry, spec, k, model);
    const long runs = kSearchConfirmRatio * spec.search_trials;
    // Each finalist has round 2 + f: a pair that is a finalist with two scores draws fresh runs for each.
    r.measure = pilot_measures(alone, inputs, estimator, spec, runs, 2 + int(f)).front();
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
                             prepared[r.prepared].gaussian && std::isfinite(r.measure.mu) ? r.measure.mu : -1,
                             r.confirmed});
  return search;
}

}  // namespace dpb::verify
