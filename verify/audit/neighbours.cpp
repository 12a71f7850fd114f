#include "verify/audit/neighbours.hpp"

#include <fmt/format.h>
#include <cmath>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "verify/audit/scores.hpp"

namespace dpb::verify {
namespace {

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

// Puts `in_d` at column `index` of D and `in_d_prime` at the same column of D'.
void plant(NeighbourPair& pair, const Eigen::VectorXd& in_d, const Eigen::VectorXd& in_d_prime) {
  pair.X.col(pair.index) = in_d;
  pair.X_prime = pair.X;
  pair.X_prime.col(pair.index) = in_d_prime;
}

// The ladder rung of record i (see log_ladder in neighbours.hpp): the pair holding `index` on top,
// `index` above its partner; the other pairs below in index order, even record above odd.
Eigen::Index ladder_rung(Eigen::Index i, Eigen::Index index) {
  if (i == index) return 0;
  if (i == (index ^ 1)) return 1;
  const Eigen::Index pair = i / 2, rank = pair < index / 2 ? pair + 1 : pair;
  return 2 * rank + (i & 1);
}

}  // namespace

void check_ladder(Eigen::Index n, Eigen::Index index) {
  if (n > kMaxLadderRecords)
    throw InvalidArgument(fmt::format(
        "neighbours: log_ladder needs n <= {} (its smallest rung is c {:g}^-(n-1)), got n = {}",
        kMaxLadderRecords, kLadderRatio, n));
  if ((index ^ 1) >= n)
    throw InvalidArgument(fmt::format(
        "neighbours: log_ladder copies the pair partner index ^ 1 = {} of index {}, which needs n > {} "
        "(use an even n or another index)",
        index ^ 1, index, index ^ 1));
}

WorstCase worst_case_construction(const std::string& id) {
  if (id == "baseline.dp_gauss_1")
    return {NeighbourKind::orthogonal_axes,
            "dugler2026 §2.9: on flat data, two records at the trace-clip radius on orthogonal axes move the "
            "clipped sum by its sensitivity sqrt(2) beta^2; the likelihood ratio of the matrix the eigenpairs "
            "rebuild is the most powerful test; every eigenpair released (k = d), so they rebuild the whole matrix",
            true, "second_moment_lr", true};
  if (id == "baseline.dp_gauss")
    return {NeighbourKind::orthogonal_axes,
            "cai2024 §6 DP-Gauss (Analyze Gauss on the scaled second moment): on flat data, two records on "
            "orthogonal axes beyond the clip radius (clip = on) move the clipped sum by its sensitivity; the "
            "likelihood ratio of the released Sigma is the most powerful test, and with every eigenpair (k = d) "
            "Sigma is the whole noisy matrix. Without clipping (clip = off, a claim under the model) the "
            "canaries break the model's norm bound",
            true, "second_moment_lr", true};
  if (id == "baseline.noisy_power_method")
    return {NeighbourKind::orthogonal_axes,
            "dugler2026 §2.9 (Hardt & Price 2014): on flat data, two records beyond the clip radius on orthogonal "
            "axes move S X_l by the sensitivity in every iteration when X_l spans every axis (k = d: every "
            "eigenvector; with k < d only its share along the two axes); the likelihood ratio of the "
            "transcript of L releases is the most powerful test",
            true, kTranscriptScore, true};
  if (id == "liu2022.private_oja" || id == "liu2022.minibatch_private_oja" || id == "baseline.k_dp_ojas" ||
      id == "dugler2026.private_oja")
    return {NeighbourKind::opposed_at_start,
            "liu2022 §3.7, dugler2026 §3: a step's term clip(x x^T w) = clip((x . w) x) lies on w's side, so two "
            "records move it by 2 beta only where both are nearly orthogonal to the query w; white-box, the "
            "audit fixes the public start w_0 = e_a and plants lean c e_a +- c e_b, whose clipped terms at w_0 "
            "are nearly +-beta e_b (with a random start, a fixed pair reaches sqrt(2) beta at most); the "
            "transcript's likelihood ratio reads the step that reads them (flat data: a batch's other records "
            "weigh nothing)",
            true, kTranscriptScore};
  if (id == "baseline.gaussian_mean")
    return {NeighbourKind::sign_flip,
            "Dwork & Roth App. A: records +c u and -c u beyond the clip radius move the mean by its sensitivity "
            "2C/n along u, and the released mean along u is the likelihood ratio of the Gaussian noise",
            false, {}};
  if (id == "baseline.laplace_mean")
    return {NeighbourKind::axis_flip,
            "Dwork & Roth Thm 3.6: records +c e_a and -c e_a beyond the l1 clip radius put the whole l1 "
            "sensitivity 2C/n on one coordinate, whose Laplace tail then carries the full privacy loss",
            false, {}};
  if (id == "liu2022.private_mean")
    return {NeighbourKind::corner,
            "liu2022 §3.7 Alg. 5: one record at the opposite truncation corner, the largest shift (2 r "
            "sqrt(d)/B) "
            "of the Gaussian part", false, {}};
  if (id == "dugler2026.truncated_mean")
    return {NeighbourKind::corner,
            "dugler2026 §3 (Lemma 14): box corners attain the truncated mean's sensitivity 2 r sqrt(dk)/m", false, {}};
  if (starts_with(id, "kumar2025."))
    // Not `corner`: opposite corners have the same x x^T, and every kumar2025 algorithm reads only
    // second moments, so D and D' would look identical to it.
    return {NeighbourKind::huge_norm,
            "kumar2025 §4.6: a typical point replaced by one with every coordinate at +-R (the "
            "canary c u, truncated to +-R wherever |c u_i| > R)", false, {}};
  if (starts_with(id, "liu2022."))
    return {NeighbourKind::huge_norm,
            "liu2022 §3.7 Alg. 2-4: a huge record is clipped to beta, the most one record can move a step "
            "(A = c I vs -c I is no x x^T, so the rank-one canary c^2 u u^T stands in)", false, {}};
  if (starts_with(id, "dugler2026."))
    return {NeighbourKind::huge_norm,
            "dugler2026 §3 (Thm 4, Lemma 9): a record with ||A_i Q|| far above R is clipped to R, the 2R/B "
            "sensitivity", false, {}};
  if (starts_with(id, "cai2024."))
    return {
        NeighbourKind::huge_norm,
        "cai2024 §3.6: Algorithm 1 does not clip, so a huge record moves the output beyond the sensitivity "
        "its claim assumes; the claim is made only for fresh draws from the model", false, {}};
  return {NeighbourKind::huge_norm, "generic: a huge-norm canary along a fixed direction", false, {}};
}

ScoreContext score_context(const NeighbourPair& pair) {
  ScoreContext context;
  context.direction = pair.direction;
  context.record = pair.X.col(pair.index);
  context.record_prime = pair.X_prime.col(pair.index);
  context.index = pair.index;
  return context;
}

Eigen::Index heaviest_axis(const Eigen::VectorXd& u) {
  Eigen::Index a = 0;
  u.cwiseAbs().maxCoeff(&a);  // the first of ties
  return a;
}

std::pair<Eigen::Index, Eigen::Index> heaviest_axes(const Eigen::VectorXd& u) {
  if (u.size() < 2) throw InvalidArgument("neighbours: orthogonal_axes and opposed_at_start need d >= 2");
  Eigen::Index a = 0, b = 1;
  if (std::abs(u(b)) > std::abs(u(a))) std::swap(a, b);
  for (Eigen::Index i = 2; i < u.size(); ++i) {
    if (std::abs(u(i)) > std::abs(u(a))) {
      b = a;
      a = i;
    } else if (std::abs(u(i)) > std::abs(u(b))) {
      b = i;
    }
  }
  return {a, b};
}

Eigen::VectorXd canary_direction(const core::ModelInfo& info) {
  return core::symmetric_eigenpairs(info.Sigma).vectors.col(0);  // ascending: the smallest eigenvalue's
}

WorstCase random_query_worst_case(const WorstCase& at_start) {
  WorstCase worst = at_start;
  worst.kind = NeighbourKind::orthogonal_axes;
  worst.reason = "the records are read at a random step, whose query is unknown when the neighbours are built: two "
                 "records far beyond the clip radius on orthogonal axes move that step by sqrt(2) beta, the most a "
                 "fixed pair of records x x^T can at a random query; the transcript's likelihood ratio reads it "
                 "(flat data: a batch's other records weigh nothing)";
  return worst;
}

namespace {

// Builds D and D' by `kind`; `worst`, when given, is the worst case `canary` resolved to.
NeighbourPair build_neighbours(NeighbourKind kind, const WorstCase* worst, const std::string& algorithm_id,
                               const core::Model& model, Eigen::Index n, Eigen::Index index, double canary_scale,
                               core::Rng& rng) {
  if (index < 0 || index >= n)
    throw InvalidArgument(fmt::format("neighbours: index = {} must lie in 0..n-1 = {}", index, n - 1));
  if (!(std::isfinite(canary_scale) && canary_scale > 0))
    throw InvalidArgument(
        fmt::format("neighbours: canary_scale must be a finite number > 0, got {}", canary_scale));
  std::string reason;
  bool flat = false;
  NeighbourPair pair;
  if (worst) {
    kind = worst->kind;
    flat = worst->flat;
    pair.score = worst->score;
    const std::string flat_note = flat ? fmt::format("flat data x{:g}", kFlatScale) : "";
    if (!worst->reason.empty())
      reason = fmt::format(" ({}{}worst case for {}: {})", flat_note, flat ? "; " : "", algorithm_id, worst->reason);
    else if (flat)
      reason = fmt::format(" ({})", flat_note);
  }
  const core::ModelInfo& info = model.info();
  pair.X = model.sample(n, rng);
  if (flat) pair.X *= kFlatScale;
  pair.index = index;
  pair.kind = kind;
  pair.direction = canary_direction(info);
  const double norm = canary_scale * std::sqrt(info.Sigma.trace());
  const Eigen::Index d = pair.X.rows();
  switch (kind) {
    case NeighbourKind::fresh:
      plant(pair, pair.X.col(index), model.sample(1, rng).col(0));
      pair.description = fmt::format("record {} replaced by a fresh draw from the model", index);
      break;
    case NeighbourKind::huge_norm:
      pair.canary_norm = norm;
      plant(pair, pair.X.col(index), norm * pair.direction);
      pair.description = fmt::format("record {} replaced by a canary of norm {:.4g} along u", index, norm);
      break;
    case NeighbourKind::sign_flip:
      pair.canary_norm = norm;
      plant(pair, norm * pair.direction, -norm * pair.direction);
      pair.description = fmt::format("record {} is +c u in D and -c u in D', c = {:.4g}", index, norm);
      break;
    case NeighbourKind::axis_flip: {
      pair.canary_norm = norm;
      pair.direction = Eigen::VectorXd::Unit(d, heaviest_axis(pair.direction));
      plant(pair, norm * pair.direction, -norm * pair.direction);
      pair.description = fmt::format("record {} is +c e_a in D and -c e_a in D', c = {:.4g}", index, norm);
      break;
    }
    case NeighbourKind::corner: {
      const Eigen::VectorXd signs = pair.direction.unaryExpr([](double x) { return x < 0 ? -1.0 : 1.0; });
      pair.direction = signs / std::sqrt(double(d));
      pair.canary_norm = norm;
      plant(pair, -norm * pair.direction, norm * pair.direction);
      pair.description = fmt::format(
          "record {} at opposite corners -c s/sqrt(d) in D and +c s/sqrt(d) in D', c = {:.4g}, s = sign(u)",
          index, norm);
      break;
    }
    case NeighbourKind::orthogonal_axes: {
      // Two records of equal norm c on orthogonal axes: x x^T changes by c^2 (e_b e_b^T - e_a e_a^T), whose
      // Frobenius norm sqrt(2) c^2 is the replace-one sensitivity of a sum of clipped PSD terms
      // (psd_sum_sensitivity), and which, having no off-diagonal part, is as large on the upper triangle
      // that Analyze Gauss perturbs: the neighbours that make its privacy loss tight.
      const auto [a, b] = heaviest_axes(pair.direction);
      pair.canary_norm = norm;
      pair.direction = Eigen::VectorXd::Unit(d, b);
      plant(pair, norm * Eigen::VectorXd::Unit(d, a), norm * pair.direction);
      pair.description = fmt::format(
          "record {} is c e_{} in D and c e_{} in D' (orthogonal axes), c = {:.4g}", index, a, b, norm);
      break;
    }
    case NeighbourKind::opposed_at_start: {
      // The start is public: e_a first, then the other axes, e_b last, so e_b lies outside the first k < d
      // columns and the two records' clipped terms differ in the tangent direction the step's noise covers.
      const auto [a, b] = heaviest_axes(pair.direction);
      pair.canary_norm = norm;
      pair.direction = Eigen::VectorXd::Unit(d, b);
      const Eigen::VectorXd lean = kStartLean * norm * Eigen::VectorXd::Unit(d, a);
      plant(pair, lean + norm * pair.direction, lean - norm * pair.direction);
      pair.start = Eigen::MatrixXd::Zero(d, d);
      Eigen::Index column = 0;
      pair.start(a, column++) = 1;
      for (Eigen::Index i = 0; i < d; ++i)
        if (i != a && i != b) pair.start(i, column++) = 1;
      pair.start(b, column) = 1;
      pair.description = fmt::format(
          "record {} is {:g} c e_{} + c e_{} in D and {:g} c e_{} - c e_{} in D', c = {:.4g}; the runs start at "
          "e_{} (public)",
          index, kStartLean, a, b, kStartLean, a, b, norm, a);
      break;
    }
    case NeighbourKind::log_ladder: {
      check_ladder(n, index);
      pair.canary_norm = norm;
      for (Eigen::Index i = 0; i < n; ++i)
        pair.X.col(i) = norm * std::pow(kLadderRatio, -double(ladder_rung(i, index))) * pair.direction;
      plant(pair, pair.X.col(index), pair.X.col(index ^ 1));
      pair.description = fmt::format(
          "records on a geometric ladder c {:g}^-rung u, c = {:.4g}, record {} on top; D' replaces it by a "
          "copy of its pair partner {}, so their paired difference is 0",
          kLadderRatio, norm, index, index ^ 1);
      break;
    }
    case NeighbourKind::canary:
      break;  // resolved above
    case NeighbourKind::search:
      throw InvalidArgument("neighbours: 'search' is resolved by the auditor's pilot runs (neighbour_search.hpp)");
  }
  pair.description += reason;
  return pair;
}

}  // namespace

NeighbourPair make_neighbours(NeighbourKind kind, const std::string& algorithm_id, const core::Model& model,
                              Eigen::Index n, Eigen::Index index, double canary_scale, core::Rng& rng) {
  if (kind != NeighbourKind::canary)
    return build_neighbours(kind, nullptr, algorithm_id, model, n, index, canary_scale, rng);
  const WorstCase worst = worst_case_construction(algorithm_id);
  return build_neighbours(kind, &worst, algorithm_id, model, n, index, canary_scale, rng);
}

NeighbourPair make_neighbours(const WorstCase& worst, const std::string& algorithm_id, const core::Model& model,
                              Eigen::Index n, Eigen::Index index, double canary_scale, core::Rng& rng) {
  return build_neighbours(NeighbourKind::canary, &worst, algorithm_id, model, n, index, canary_scale, rng);
}

}  // namespace dpb::verify
