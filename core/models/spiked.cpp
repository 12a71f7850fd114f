#include "core/models/spiked.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/memory.hpp"
#include "core/models/support.hpp"
#include "core/samplers.hpp"

namespace dpb::core {

using namespace model_support;

namespace {

// liu2022 A.3 for A = x x^T, exactly. Write x = B y with B = [U Lambda^{1/2}, sigma I] and y of iid
// standardized entries with excess kurtosis k4. Then E[y y^T M y y^T] = tr(M) I + 2M + k4 Diag(M), so
//   E[(A - Sigma)^2] = E[|x|^2 x x^T] - Sigma^2
//                    = tr(Sigma) Sigma + Sigma^2 + k4 (U Lambda^2 U^T + sigma^4 I),
// whose eigenvectors are those of Sigma. For k4 = 0 this is liu2022 §4.4's V = tr(Sigma)/lambda1 + 1.
double exact_V(const Eigen::VectorXd& spikes, Eigen::Index d, double sigma2, double k4) {
  const Eigen::Index r = spikes.size();
  const double trace = spikes.sum() + static_cast<double>(d) * sigma2;
  const auto moment_eigenvalue = [&](double spike) {  // along a spike direction, or 0 across them
    const double e = spike + sigma2;
    return trace * e + e * e + k4 * (spike * spike + sigma2 * sigma2);
  };
  double top = r < d ? moment_eigenvalue(0.0) : 0.0;
  for (Eigen::Index k = 0; k < r; ++k) top = std::max(top, moment_eigenvalue(spikes[k]));
  const double lambda1 = spikes[0] + sigma2;
  return top / (lambda1 * lambda1);
}

// The r spikes from `lambdas`, or from `lambda` (the largest spike) with `spacing` and `condition`
// (spec: cai2024 §7 "Spikes"; the geometric profile is Corollary 1's kappa0 = lambda_1/lambda_r).
Eigen::VectorXd read_spikes(const ParamMap& params, Eigen::Index d, const std::string& owner) {
  if (params.has("lambdas")) {
    for (const char* other : {"lambda", "spacing", "condition"})
      if (params.has(other))
        throw InvalidArgument(
            fmt::format("{}: give the spikes either as 'lambdas' or as 'lambda' (+ spacing, condition), "
                        "not both ('{}' was given with 'lambdas')",
                        owner, other));
    return read_spike_list(params, "lambdas", "r", d, owner);
  }
  const Eigen::Index r = read_int_in(params, "r", 1, 1, d, owner);
  const double lambda = read_positive(params, "lambda", 10.0, owner);
  const std::string spacing = params.get_string("spacing", "equal", owner);
  const double condition = params.get_real("condition", 1.0, owner);
  if (!(condition >= 1) || !std::isfinite(condition))
    throw InvalidArgument(
        fmt::format("{}: 'condition' (largest / smallest spike) must be >= 1, got {}", owner, condition));
  if (spacing != "equal" && spacing != "linear" && spacing != "geometric")
    throw InvalidArgument(
        fmt::format("{}: 'spacing' must be one of equal, linear, geometric; got '{}'", owner, spacing));
  if (condition != 1 && (spacing == "equal" || r == 1))
    throw InvalidArgument(fmt::format(
        "{}: 'condition' != 1 needs spacing linear or geometric and r >= 2 (got spacing {}, r = {})", owner,
        spacing, r));
  if (condition == 1) return Eigen::VectorXd::Constant(r, lambda);
  const double smallest = lambda / condition;
  Eigen::VectorXd spikes(r);
  for (Eigen::Index k = 0; k < r; ++k) {
    const double t = static_cast<double>(r - 1 - k) / static_cast<double>(r - 1);  // 1 at k = 0, 0 at k = r-1
    spikes[k] = spacing == "linear" ? smallest + (lambda - smallest) * t : smallest * std::pow(condition, t);
  }
  return spikes;
}

std::unique_ptr<Model> make_spiked(const std::string& id, EntryNoise kind, const ParamMap& params, Rng& rng) {
  std::vector<std::string> allowed = {"d", "p", "r", "lambda", "lambdas", "spacing", "condition", "sigma2"};
  if (kind == EntryNoise::student_t) allowed.push_back("nu");
  params.require_known(allowed, id);
  const Eigen::Index d = read_dimension(params, 50, id);
  const Eigen::VectorXd spikes = read_spikes(params, d, id);
  const double sigma2 = read_positive(params, "sigma2", 1.0, id);
  StandardizedEntries entries{kind, 0.0};
  if (kind == EntryNoise::student_t) {
    entries.nu = params.get_real("nu", 5.0, id);
    if (!(entries.nu > 2) || !std::isfinite(entries.nu))
      throw InvalidArgument(fmt::format("{}: 'nu' must be > 2 (finite variance), got {}", id, entries.nu));
  }
  return std::make_unique<SpikedModel>(id, haar_frame(rng, d, spikes.size()), spikes, sigma2, entries);
}

struct Variant {
  const char* id;
  EntryNoise kind;
  const char* summary;
};

}  // namespace

double StandardizedEntries::draw(Rng& rng) const {
  switch (kind) {
    case EntryNoise::gaussian:
      return standard_normal(rng);
    case EntryNoise::rademacher:
      return rademacher(rng);
    case EntryNoise::uniform:
      return uniform(rng, -std::sqrt(3.0), std::sqrt(3.0));
    case EntryNoise::student_t:
      break;
  }
  return std::sqrt((nu - 2.0) / nu) * student_t(rng, nu);
}

void StandardizedEntries::fill(Rng& rng, std::span<double> out) const {
  switch (kind) {
    case EntryNoise::gaussian:
      return fill_standard_normal(rng, out);
    case EntryNoise::rademacher:
      return fill_rademacher(rng, out);
    case EntryNoise::uniform:
    case EntryNoise::student_t:
      break;
  }
  for (double& v : out) v = draw(rng);
}

std::optional<double> StandardizedEntries::excess_kurtosis() const {
  switch (kind) {
    case EntryNoise::gaussian:
      return 0.0;
    case EntryNoise::rademacher:
      return -2.0;  // E y^4 = 1
    case EntryNoise::uniform:
      return -1.2;  // E y^4 = 9/5
    case EntryNoise::student_t:
      break;
  }
  if (nu <= 4) return std::nullopt;
  return 6.0 / (nu - 4.0);  // kurtosis of t_nu is 3 + 6/(nu - 4), unchanged by scaling
}

SpikedModel::SpikedModel(const std::string& id, const Eigen::MatrixXd& U, const Eigen::VectorXd& spikes,
                         double sigma2, StandardizedEntries entries)
    : info_(low_rank_plus_identity_info(id, U, spikes, sigma2)),
      loadings_(U * spikes.cwiseSqrt().asDiagonal()),
      sigma_(std::sqrt(sigma2)),
      entries_(entries) {
  const Eigen::Index d = U.rows(), r = U.cols();
  const double lambda = spikes[0];
  // spec: cai2024 §1.3 rbar = (r lambda + p sigma^2)/(lambda + sigma^2), with lambda the largest spike
  // (cai2024's "signal strength"; all spikes are equal in its experiments).
  info_.effective_rank =
      (static_cast<double>(r) * lambda + static_cast<double>(d) * sigma2) / (lambda + sigma2);
  if (const auto k4 = entries.excess_kurtosis()) info_.V = exact_V(spikes, d, sigma2, *k4);
  // spec: liu2022 §4.4 [computed]: gamma^2 = 2 for any Gaussian Sigma. No closed form otherwise.
  if (entries.kind == EntryNoise::gaussian) info_.gamma2 = 2.0;
  info_.params["lambda"] = lambda;
  info_.params["kappa0"] = lambda / spikes[r - 1];  // cai2024 Corollary 1: lambda_1 / lambda_r of the spikes
  info_.params["sigma2"] = sigma2;
  if (entries.kind == EntryNoise::student_t) info_.params["nu"] = entries.nu;
  publish_closed_forms(info_);
}

Eigen::MatrixXd SpikedModel::sample(Eigen::Index n, Rng& rng) const {
  require_sample_count(n, info_.model);
  const Eigen::Index d = loadings_.rows(), r = loadings_.cols();
  Eigen::MatrixXd X(d, n);
  advise_huge_pages(X.data(), sizeof(double) * static_cast<std::size_t>(X.size()));  // before its first touch
  // Draw order, per sample i: the r entries of g_i, then the d entries of w_i; so column i of the (r + d) x n
  // draw is (g_i, w_i). It is drawn a block of columns at a time, in cache and never whole (the whole draw is
  // larger than X: fresh pages the kernel must fault in and zero, every trial). Fills continue one stream, so
  // the numbers are those of one fill. The products give the bits of the whole one's too: every block has at
  // least kMinBlockColumns columns, so Eigen takes its matrix product (not the coefficient-wise path for tiny
  // ones), and every block but the last is a multiple of kColumnGroup columns, so each column falls in the
  // same place of the kernel's column groups (Eigen 3.4 sums a group's tail of fewer than 4 columns, 8 with
  // AVX-512, in another order).
  constexpr Eigen::Index kBlockDoubles = Eigen::Index{1} << 15;  // 256 KiB of draws
  constexpr Eigen::Index kMinBlockColumns = 32, kColumnGroup = 8;
  const Eigen::Index block =
      std::max(kMinBlockColumns, kBlockDoubles / (r + d) / kColumnGroup * kColumnGroup);
  Eigen::MatrixXd draws(r + d, std::min(n, block + kMinBlockColumns));
  for (Eigen::Index first = 0; first < n;) {
    // The last block takes a short tail with it.
    const Eigen::Index cols = n - first < block + kMinBlockColumns ? n - first : block;
    auto drawn = draws.leftCols(cols);
    entries_.fill(rng, {drawn.data(), static_cast<std::size_t>(drawn.size())});
    auto out = X.middleCols(first, cols);
    out.noalias() = sigma_ * drawn.bottomRows(d);
    out.noalias() += loadings_ * drawn.topRows(r);
    first += cols;
  }
  return X;
}

std::vector<ModelEntry> spiked_entries() {
  const std::vector<Variant> variants = {
      {"spiked_gaussian", EntryNoise::gaussian, "Gaussian g_i, w_i: X_i ~ N(0, Sigma)"},
      {"spiked_rademacher", EntryNoise::rademacher, "Rademacher entries in g_i and w_i (sub-Gaussian)"},
      {"spiked_uniform", EntryNoise::uniform, "uniform[-sqrt3, sqrt3] entries in g_i and w_i (sub-Gaussian)"},
      {"spiked_student_t", EntryNoise::student_t,
       "Student-t(nu) entries scaled to unit variance in g_i and w_i (heavier tails)"},
  };
  std::vector<ModelEntry> out;
  for (const auto& v : variants) {
    std::vector<ModelParamDoc> params = {
        {"d", "50", "dimension (>= 2)"},
        {"p", "= d", "alias of d (cai2024's name)"},
        {"r", "1", "number of spikes, 1 <= r <= d (cai2024's experiments need 2r <= d)"},
        {"lambda", "10",
         "largest spike lambda_1 (cai2024's signal strength); all spikes when spacing = equal"},
        {"lambdas", "none", "explicit spikes, non-increasing, > 0 (replaces lambda, spacing, condition)"},
        {"spacing", "equal",
         "equal | linear | geometric: the spike profile from lambda down to lambda/condition"},
        {"condition", "1", "lambda_1/lambda_r of the spikes (cai2024 Cor. 1 kappa0), >= 1; needs r >= 2"},
        {"sigma2", "1", "noise variance sigma^2 > 0"},
    };
    if (v.kind == EntryNoise::student_t)
      params.push_back({"nu", "5", "degrees of freedom, > 2 (V is finite only for nu > 4)"});
    const std::string id = v.id;
    const EntryNoise kind = v.kind;
    out.push_back(
        {id,
         fmt::format("Spiked covariance Sigma = U Lambda U^T + sigma2 I, U Haar, X = U Lambda^(1/2) g "
                     "+ sigma w; {}",
                     v.summary),
         "Cai, Xia, Zha 2024, eq. (1), eq. (4) and the §7 recipes (cai2024 spec §1.2, §1.3, §7); "
         "Liu et al. 2022 Remark 3.4 (liu2022 spec §4.4, §7.1)",
         params, [id, kind](const ParamMap& p, Rng& rng) { return make_spiked(id, kind, p, rng); }});
  }
  return out;
}

}  // namespace dpb::core
