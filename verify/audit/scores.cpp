#include "verify/audit/scores.hpp"

#include <fmt/format.h>
#include <cmath>
#include <limits>
#include <utility>

#include "core/errors.hpp"
#include "verify/audit/learned_score.hpp"
#include "verify/audit/neighbours.hpp"

namespace dpb::verify {
namespace {

// The score of a release that did not happen (liu2022 Alg. 4, dugler2026 PRIVRANGE return BOTTOM):
// an outcome of its own, ordered below every released number, so threshold tests still separate it.
constexpr double kBottom = std::numeric_limits<double>::lowest();

// An output that releases nothing at all is BOTTOM.
bool is_bottom(const alg::Estimate& e) {
  return !e.Q && !e.Sigma && !e.eigenvalues && !e.mean && !e.scalar && e.transcript.empty();
}

// Every score gives BOTTOM kBottom, so an algorithm that sometimes releases (PrivPCA's tests) is scored
// by what it releases otherwise.
ScoreFunction bottom_below_all(ScoreFunction score) {
  return [score = std::move(score)](const alg::Estimate& e, const ScoreContext& c) {
    return is_bottom(e) ? kBottom : score(e, c);
  };
}

template <class T>
const T& require(const std::optional<T>& part, const char* what, const char* score) {
  if (!part)
    throw InvalidArgument(
        fmt::format("score '{}' reads the output's {}, which this algorithm does not release; "
                    "choose another score (dpbounds audit --help lists them)",
                    score, what));
  return *part;
}

const alg::Estimate& reference_of(const ScoreContext& context) {
  if (!context.reference) throw InvalidArgument("score 'reference_distance' needs a reference output");
  return *context.reference;
}

// The distance between two outputs in the first part both release: projector distance for
// subspaces, Frobenius for covariances, Euclidean for means and scalars.
double output_distance(const alg::Estimate& a, const alg::Estimate& b) {
  if (a.Q && b.Q) return (*a.Q * a.Q->transpose() - *b.Q * b.Q->transpose()).norm();
  if (a.Sigma && b.Sigma) return (*a.Sigma - *b.Sigma).norm();
  if (a.mean && b.mean) return (*a.mean - *b.mean).norm();
  if (a.scalar && b.scalar) return std::abs(*a.scalar - *b.scalar);
  throw InvalidArgument("score 'reference_distance': the output and its reference share no released part");
}

// The entry (i, j) of a released covariance that a canary c u moves most, c^2 u_i u_j: on the diagonal
// i = j = argmax |u_i|; off it the pair i > j maximising |u_i u_j|. Reading one entry, not a quadratic
// form, keeps an entry released without noise from being mixed with the noisy ones.
std::pair<Eigen::Index, Eigen::Index> canary_diagonal(const Eigen::VectorXd& u) {
  const Eigen::Index i = heaviest_axis(u);
  return {i, i};
}

std::pair<Eigen::Index, Eigen::Index> canary_off_diagonal(const Eigen::VectorXd& u) {
  if (u.size() < 2) throw InvalidArgument("score 'canary_off_diagonal_entry' needs d >= 2");
  std::pair<Eigen::Index, Eigen::Index> best{1, 0};
  for (Eigen::Index i = 1; i < u.size(); ++i)
    for (Eigen::Index j = 0; j < i; ++j)
      if (std::abs(u(i) * u(j)) > std::abs(u(best.first) * u(best.second))) best = {i, j};
  return best;
}

// <upper(Sigma), upper(Delta)> / ||upper(Delta)||, Delta = x' x'^T - x x^T for the replaced records x (in D)
// and x' (in D'), upper = the triangle with the diagonal. When Sigma is a linear image of sum_i x_i x_i^T
// plus iid Gaussian noise on that triangle (Analyze Gauss with k = d), D and D' shift its mean by a multiple
// of upper(Delta) (up to clipping, which scales records of equal norm alike), and this projection is the
// log-likelihood ratio: by Neyman–Pearson its threshold tests are the most powerful ones.
//
// An algorithm that releases eigenpairs instead (DP-Gauss-1: the top k of the noisy matrix) is scored on
// the matrix they rebuild, Q diag(lambda) Q^T: the part of the release the eigenpairs keep.
Eigen::MatrixXd released_matrix(const alg::Estimate& e, const char* score) {
  if (e.Sigma) return *e.Sigma;
  if (e.Q && e.eigenvalues && e.eigenvalues->size() >= e.Q->cols())
    return *e.Q * e.eigenvalues->head(e.Q->cols()).asDiagonal() * e.Q->transpose();
  throw InvalidArgument(fmt::format("score '{}' reads the output's covariance Sigma or its eigenpairs (Q and "
                                    "eigenvalues), which this algorithm does not release; choose another "
                                    "score (dpbounds audit --help lists them)",
                                    score));
}

double second_moment_likelihood_ratio(const alg::Estimate& e, const ScoreContext& c) {
  const Eigen::MatrixXd Sigma = released_matrix(e, "second_moment_lr");
  if (c.record.size() != Sigma.rows() || c.record_prime.size() != Sigma.rows())
    throw InvalidArgument("score 'second_moment_lr' needs the replaced records of D and D'");
  const Eigen::MatrixXd delta = c.record_prime * c.record_prime.transpose() - c.record * c.record.transpose();
  double projection = 0, norm2 = 0;
  for (Eigen::Index j = 0; j < Sigma.cols(); ++j)
    for (Eigen::Index i = 0; i <= j; ++i) {
      projection += delta(i, j) * Sigma(i, j);
      norm2 += delta(i, j) * delta(i, j);
    }
  if (!(norm2 > 0)) throw InvalidArgument("score 'second_moment_lr': D and D' have the same second moment");
  return projection / std::sqrt(norm2);
}

// The mean one record adds to a release: scale clip(x x^T query), x x^T query = x (x^T query), never forming x x^T.
Eigen::MatrixXd record_term(const alg::GaussianRelease& release, const Eigen::VectorXd& x) {
  Eigen::MatrixXd term = release.scale * (x * (x.transpose() * release.query));
  const double norm = term.norm(), limit = release.scale * release.clip;
  if (norm > limit) term *= limit / norm;
  return term;
}

// <Y, shift> with the noise's own weights: iid noise weighs every entry alike; noise whose part in the query's
// span is a symmetric matrix of span_variance times the variance (dugler2026's GOE) weighs that part
// 1/span_variance, its symmetric part only (Y's part there is symmetric: the mean lies in S_Q).
double noise_weighted_inner(const alg::GaussianRelease& release, const Eigen::MatrixXd& shift) {
  if (release.span_variance == 1) return (release.value.array() * shift.array()).sum();
  const Eigen::MatrixXd& Q = release.query;
  const Eigen::MatrixXd in_span_value = Q.transpose() * release.value, in_span_shift = Q.transpose() * shift;
  const Eigen::MatrixXd symmetric_shift = (in_span_shift + in_span_shift.transpose()) / 2;
  const Eigen::MatrixXd across_value = release.value - Q * in_span_value, across_shift = shift - Q * in_span_shift;
  return (across_value.array() * across_shift.array()).sum() +
         (in_span_value.array() * symmetric_shift.array()).sum() / release.span_variance;
}

// sum_l <Y_l, m'_l - m_l> / sd_l^2 over the transcript's Gaussian releases Y_l that read the replaced record,
// m_l = scale clip(x x^T X_l) its term in D and m'_l that of x' in D'. The transcript's log-likelihood ratio
// of D' against D is sum_l <Y_l - (M_l + M'_l) / 2, m'_l - m_l> / sd_l^2, M_l the release's whole mean; this
// drops the term of the records D and D' share, which is the same under both and small when they carry
// little weight along the difference (the audit then uses low-variance data). Weighting each release by
// 1/sd_l^2 is what lets the sum see a loss that only the releases together reach; keeping only the releases
// that read the record is what lets it see one Oja step's loss among n.
double transcript_likelihood_ratio(const alg::Estimate& e, const ScoreContext& c) {
  if (e.transcript.empty())
    throw InvalidArgument(
        "score 'transcript_lr' reads the output's transcript of Gaussian sub-releases, which this algorithm "
        "does not expose; choose another score (dpbounds audit --help lists them)");
  const Eigen::Index d = e.transcript.front().query.rows();
  if (c.record.size() != d || c.record_prime.size() != d)
    throw InvalidArgument("score 'transcript_lr' needs the replaced records of D and D'");
  double statistic = 0;
  for (const alg::GaussianRelease& release : e.transcript) {
    if (!release.reads(c.index)) continue;
    if (!(release.noise_sd > 0))
      throw InvalidArgument(fmt::format("score 'transcript_lr': release '{}' has no noise (sd {}), so its "
                                        "likelihood ratio is undefined",
                                        release.step, release.noise_sd));
    const Eigen::MatrixXd shift = record_term(release, c.record_prime) - record_term(release, c.record);
    statistic += noise_weighted_inner(release, shift) / (release.noise_sd * release.noise_sd);
  }
  return statistic;
}

double covariance_entry(const alg::Estimate& e, std::pair<Eigen::Index, Eigen::Index> entry,
                        const char* score) {
  return require(e.Sigma, "covariance Sigma", score)(entry.first, entry.second);
}

}  // namespace

const std::vector<ScoreEntry>& score_registry() {
  static const std::vector<ScoreEntry> registry = [] {
    std::vector<ScoreEntry> entries = {
        {"subspace_energy", "u^T Q Q^T u: the share of the canary direction u inside the released subspace",
         false,
         [](const alg::Estimate& e, const ScoreContext& c) {
           return (require(e.Q, "subspace Q", "subspace_energy").transpose() * c.direction).squaredNorm();
         }},
        {"eigenvector_projection", "|<q_1, u>|: alignment of the top released eigenvector with u", false,
         [](const alg::Estimate& e, const ScoreContext& c) {
           return std::abs(require(e.Q, "subspace Q", "eigenvector_projection").col(0).dot(c.direction));
         }},
        {"covariance_quadratic", "u^T Sigma u: the released covariance's entry along u", false,
         [](const alg::Estimate& e, const ScoreContext& c) {
           return c.direction.dot(require(e.Sigma, "covariance Sigma", "covariance_quadratic") * c.direction);
         }},
        {"canary_diagonal_entry", "Sigma_ii, i = argmax |u_i|: the diagonal entry the canary moves most",
         false,
         [](const alg::Estimate& e, const ScoreContext& c) {
           return covariance_entry(e, canary_diagonal(c.direction), "canary_diagonal_entry");
         }},
        {"canary_off_diagonal_entry",
         "Sigma_ij, i > j maximising |u_i u_j|: the off-diagonal entry the canary moves most", false,
         [](const alg::Estimate& e, const ScoreContext& c) {
           return covariance_entry(e, canary_off_diagonal(c.direction), "canary_off_diagonal_entry");
         }},
        {"second_moment_lr",
         "<upper(Sigma), upper(x' x'^T - x x^T)>, x and x' the replaced records: the likelihood-ratio "
         "statistic for Sigma = f(sum_i x_i x_i^T) + iid Gaussian noise on the upper triangle; an output of "
         "eigenpairs is scored on the matrix Q diag(lambda) Q^T they rebuild",
         false, second_moment_likelihood_ratio},
        {kTranscriptScore,
         "sum_l <Y_l, m'_l - m_l> / sd_l^2 over the output's Gaussian sub-releases Y_l that read the replaced "
         "record (its transcript: the noisy power method's iterations, the Oja family's steps), m_l = scale "
         "clip(x x^T X_l) the record's term: their joint likelihood-ratio statistic when the shared records "
         "weigh little along the canaries",
         false, transcript_likelihood_ratio},
        {"top_eigenvalue", "the largest released eigenvalue; no release (BOTTOM) scores below every number",
         false,
         [](const alg::Estimate& e, const ScoreContext&) {
           return e.eigenvalues ? (*e.eigenvalues)(0) : kBottom;
         }},
        {"mean_projection", "<mean, u>: the released mean along u", false,
         [](const alg::Estimate& e, const ScoreContext& c) {
           return require(e.mean, "mean", "mean_projection").dot(c.direction);
         }},
        {"scalar",
         "the released scalar (a range, a variance, a rank); no release (BOTTOM) scores below every number",
         false, [](const alg::Estimate& e, const ScoreContext&) { return e.scalar.value_or(kBottom); }},
        {kLearnedScore,
         "w^T f(output): Fisher's linear discriminant over every number the output releases (f: Q Q^T, "
         "Q diag(lambda) Q^T, eigenvalues, Sigma, mean, scalar), fit on separate training runs of D and D'; "
         "needs no direction or statistic chosen by hand",
         false,
         [](const alg::Estimate& e, const ScoreContext& c) {
           const Eigen::VectorXd f = output_features(e);
           if (f.size() != c.weights.size())
             throw InvalidArgument(fmt::format("score '{}': {} weights for an output of {} numbers (fit first)",
                                               kLearnedScore, c.weights.size(), f.size()));
           return c.weights.dot(f);
         },
         true},
        {"reference_distance",
         "distance to a reference output (one extra run on D): projector distance for Q, Frobenius for "
         "Sigma, Euclidean for a mean or scalar",
         true,
         [](const alg::Estimate& e, const ScoreContext& c) { return output_distance(e, reference_of(c)); }},
    };
    for (auto& entry : entries) entry.score = bottom_below_all(std::move(entry.score));
    return entries;
  }();
  return registry;
}

const ScoreEntry& find_score(const std::string& name) {
  std::string known;
  for (const auto& entry : score_registry()) {
    if (entry.name == name) return entry;
    known += (known.empty() ? "" : ", ") + entry.name;
  }
  throw InvalidArgument(fmt::format("unknown score '{}' (known: {})", name, known));
}

std::string default_score(const alg::Estimate& estimate) {
  if (estimate.Q) return "subspace_energy";
  if (estimate.Sigma) return "covariance_quadratic";
  if (estimate.mean) return "mean_projection";
  if (estimate.eigenvalues && !estimate.scalar) return "top_eigenvalue";
  return "scalar";
}

}  // namespace dpb::verify
