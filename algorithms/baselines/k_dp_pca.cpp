#include "algorithms/baselines/k_dp_pca.hpp"

#include <fmt/format.h>

#include <optional>
#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "algorithms/pca/liu2022_fields.hpp"
#include "core/eigen_order.hpp"
#include "core/errors.hpp"

namespace dpb::alg {
namespace {
const std::string kOwner = "baseline.k_dp_pca";
}

Ledger block_ledger(const std::vector<Ledger>& blocks) {
  Ledger out;
  std::int64_t next = 0;  // parts of earlier blocks are 0..next-1
  for (std::size_t j = 0; j < blocks.size(); ++j) {
    const auto& entries = blocks[j].entries();
    const bool has_parts =
        std::any_of(entries.begin(), entries.end(), [](const LedgerEntry& e) { return e.part >= 0; });
    const std::int64_t whole_block = has_parts ? -1 : next++;
    std::map<std::int64_t, std::int64_t> renumbered;
    for (LedgerEntry e : entries) {
      // A part of block j is a batch of block j's records: disjoint from every other block's.
      if (e.part >= 0)
        e.part =
            renumbered.try_emplace(e.part, next + static_cast<std::int64_t>(renumbered.size())).first->second;
      else
        e.part = whole_block;
      e.step = fmt::format("component {}: {}", j + 1, e.step);
      out.record(e);
    }
    next += static_cast<std::int64_t>(renumbered.size());
  }
  return out;
}

DeflatedSampleRange::DeflatedSampleRange(const core::SampleMatrices& base, Eigen::Index offset,
                                         Eigen::Index count, const Eigen::MatrixXd& U)
    : base_(base), offset_(offset), count_(count), U_(U) {
  if (offset < 0 || count < 0 || offset + count > base.n())
    throw InvalidArgument(
        fmt::format("deflated samples: range [{}, {}) outside [0, {})", offset, offset + count, base.n()));
  if (U.rows() != base.d()) throw InvalidArgument("deflated samples: U must have d rows");
}

void DeflatedSampleRange::apply(Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                                Eigen::Ref<Eigen::MatrixXd> out) const {
  core::check_apply_shapes(*this, i, Q, out);
  if (U_.cols() == 0) return base_.apply(offset_ + i, Q, out);
  const Eigen::Index k = Q.cols();
  if (projected_.cols() != k) {
    projected_.resize(base_.d(), k);
    product_.resize(base_.d(), k);
    coefficients_.resize(U_.cols(), k);
  }
  // out = P A P Q with P = I - U U^T, without forming P or A. For one column (every Oja step) Eigen's
  // dispatch of the four small products cost more than their arithmetic: the same sums written out.
  if (k == 1 && core::remove_span_written_out(U_.rows(), U_.cols())) {
    core::remove_span_as_eigen(U_, Q.data(), coefficients_.data(), projected_.data());
    base_.apply(offset_ + i, projected_, out);
    core::remove_span_as_eigen(U_, out.data(), coefficients_.data(), out.data());
    return;
  }
  coefficients_.noalias() = U_.transpose() * Q;
  projected_ = Q;
  projected_.noalias() -= U_ * coefficients_;
  base_.apply(offset_ + i, projected_, product_);
  coefficients_.noalias() = U_.transpose() * product_;
  out = product_;
  out.noalias() -= U_ * coefficients_;
}

void DeflatedSampleRange::apply_range(Eigen::Index first, Eigen::Index count,
                                      const Eigen::Ref<const Eigen::MatrixXd>& Q,
                                      Eigen::Ref<Eigen::MatrixXd> out) const {
  if (first < 0 || count < 0 || first + count > count_)
    throw InvalidArgument(
        fmt::format("deflated samples: range [{}, {}) outside [0, {})", first, first + count, count_));
  if (U_.cols() == 0) return base_.apply_range(offset_ + first, count, Q, out);
  SampleMatrices::apply_range(first, count, Q, out);
}

Estimate deflate_components(const Input& in, const std::string& owner,
                            const std::function<Estimate(const Input& component, Eigen::Index j)>& solve) {
  if (!in.samples) throw InvalidArgument(fmt::format("{}: needs sample matrices (Input.samples)", owner));
  const Eigen::Index n = in.samples->n(), d = in.samples->d(), k = in.k;
  if (k < 1 || k > d)
    throw InvalidArgument(fmt::format("{}: needs 1 <= k <= d = {}, got k = {}", owner, d, k));
  const Eigen::Index block = n / k;
  if (block < 1)
    throw InvalidArgument(fmt::format("{}: n = {} samples cannot give k = {} fresh blocks", owner, n, k));
  Eigen::MatrixXd U(d, 0);
  Estimate est;
  std::vector<Ledger> ledgers;
  for (Eigen::Index j = 0; j < k; ++j) {
    const DeflatedSampleRange view(*in.samples, j * block, block, U);
    Input sub = in;
    sub.samples = &view;
    sub.X = nullptr;
    sub.k = 1;
    sub.oracle = nullptr;  // the deflated problem has other population quantities: pass them explicitly
    Estimate e = solve(sub, j);
    // Post-processing: project out the directions already found, normalise.
    Eigen::VectorXd w = e.Q->col(0);
    w -= U * (U.transpose() * w);
    Eigen::VectorXd unit(d);
    liu2022::normalize_into(w, unit, j + 1, owner);
    U.conservativeResize(d, j + 1);
    U.col(j) = unit;
    const std::string prefix = fmt::format("component {}: ", j + 1);
    for (const auto& [name, value] : e.diagnostics.counters) est.diagnostics.counters[prefix + name] = value;
    for (const auto& note : e.diagnostics.notes) est.diagnostics.notes.push_back(prefix + note);
    ledgers.push_back(std::move(e.ledger));
    // Its white-box releases (when asked for), renumbered to the records of the whole input. The auditor scores
    // them on the raw records, which is exact for the first component (no deflation yet).
    for (GaussianRelease& release : e.transcript) {
      if (release.end_record >= 0) {
        release.first_record += j * block;
        release.end_record += j * block;
      }
      est.transcript.push_back(std::move(release));
    }
  }
  // Component j read only block j; the deflation basis it saw is the earlier components' released output.
  est.ledger = block_ledger(ledgers);
  est.diagnostics.counters["unused_samples"] = static_cast<double>(n - k * block);
  est.Q = U;
  return est;
}

KDpPca::KDpPca(KDpPcaParams params) : params_(std::move(params)) {
  if (params_.schedule == KDpPcaParams::Schedule::inverse_time && !(params_.component.practical.c1 > 0))
    throw InvalidArgument(
        fmt::format("{}: step = inverse_time needs an explicit c1 > 0 (shared by every component)", kOwner));
  if (!(params_.b_mult > 0)) throw InvalidArgument(fmt::format("{}: b_mult must be > 0", kOwner));
  params_.component.schedule = DpPcaParams::Schedule::inverse_time;
  DpPca check(params_.component);  // validates the component parameters now
}

PrivacyClaim deflation_claim(const Input& in,
                             const std::function<PrivacyClaim(const Input& component)>& component_claim) {
  Input sub = in;
  sub.X = nullptr;
  sub.k = 1;
  sub.oracle = nullptr;
  const Eigen::MatrixXd none(in.samples ? in.samples->d() : 0, 0);
  std::optional<DeflatedSampleRange> block;
  if (in.samples && in.k >= 1 && in.samples->n() / in.k >= 1) {
    block.emplace(*in.samples, 0, in.samples->n() / in.k, none);
    sub.samples = &*block;
  }
  PrivacyClaim c = component_claim(sub);
  c.conditions.insert(
      c.conditions.begin(),
      "parallel composition (Lemma B.2, adaptive) over the k components: each runs on its own "
      "disjoint block of floor(n/k) samples; the deflation basis is a DP output");
  return c;
}

PrivacyClaim KDpPca::claim(const Input& in) const {
  return deflation_claim(in, [&](const Input& component) { return DpPca(params_.component).claim(component); });
}

Estimate KDpPca::run(const Input& in, core::Rng& rng) const {
  const Eigen::Index n = in.samples ? in.samples->n() : 0;
  if (in.samples && (in.k < 1 || in.k > in.samples->d()))
    throw InvalidArgument(
        fmt::format("{}: needs 1 <= k <= d = {}, got k = {}", kOwner, in.samples->d(), in.k));
  Eigen::VectorXd eigenvalues;
  double sigma = 0;
  if (params_.schedule == KDpPcaParams::Schedule::componentwise) {
    // dugler2026 §7 F.2: population eigenvalues and the noise level sigma (oracle; ambiguity 3 there)
    if (!in.oracle || in.oracle->eigenvalues.size() < in.k + 1)
      throw InvalidArgument(
          fmt::format("{}: step = componentwise reads lambda_1..lambda_(k+1) and sigma from the oracle "
                      "(simulation only); "
                      "give step = inverse_time with c1, c2 otherwise",
                      kOwner));
    eigenvalues = in.oracle->eigenvalues;
    const auto& prm = in.oracle->params;
    if (prm.count("sigma2"))
      sigma = std::sqrt(prm.at("sigma2"));
    else if (prm.count("sigma"))
      sigma = prm.at("sigma");
    else
      throw InvalidArgument(
          fmt::format("{}: step = componentwise needs the oracle's noise level sigma (or sigma2)", kOwner));
  }
  Estimate est = deflate_components(in, kOwner, [&](const Input& sub, Eigen::Index j) {
    DpPcaParams component = params_.component;
    if (params_.schedule == KDpPcaParams::Schedule::componentwise) {
      // eta^(j)_t = 1/(b_j + Delta_j t / log n) = c1/(c2 + t), c1 = log n / Delta_j, c2 = b_j log n / Delta_j
      const double log_n = std::log(static_cast<double>(n));
      const double gap = eigenvalues[j] - eigenvalues[j + 1];
      if (!(gap > 0))
        throw InvalidArgument(
            fmt::format("{}: component {} has no eigengap (lambda_j = lambda_(j+1)); use "
                        "step = inverse_time",
                        kOwner, j + 1));
      const double b = params_.b_mult * sigma * eigenvalues[j] *
                       (params_.b_times_d ? static_cast<double>(sub.samples->d()) : 1.0);
      component.practical.c1 = log_n / gap;
      component.practical.c2 = b * log_n / gap;
    }
    return DpPca(component).run(sub, rng);
  });
  est.claim = claim(in);
  return est;
}

FieldTable<KDpPcaParams> k_dp_pca_fields() {
  using P = DpPcaParams;
  FieldTable<P> sizes;
  sizes.integer("T", &P::T, 0.0, "DP-PCA steps per component; 0: ceil((log(n/k))^2) unless B is given", "liu2022 §8.1")
      .integer("B", &P::B, 0.0, "DP-PCA minibatch size per component; 0: floor((n/k)/T)", "dugler2026 §7 F.2");
  FieldTable<liu2022::PracticalScheduleParams> shared;
  shared.real("c1", &liu2022::PracticalScheduleParams::c1, 0.0, std::nullopt, "shared c1 (step = inverse_time; > 0)",
              "liu2022 §2.8")
      .real("c2", &liu2022::PracticalScheduleParams::c2, 0.0, std::nullopt, "shared c2 (step = inverse_time)",
            "liu2022 §2.8");
  FieldTable<TopEigenvalueOptions> top;
  top.real("C1", &TopEigenvalueOptions::C1, 1e-12, std::nullopt, "Alg. 4 subsets constant", "liu2022 ambiguity 13")
      .flag("halve_difference_scale", &TopEigenvalueOptions::halve_difference_scale, "Alg. 4 returns l/2",
            "liu2022 ambiguity 6");
  FieldTable<P> rest;
  rest.nest(&P::practical, shared);
  deflation_tail_fields(rest, &P::constants, &P::zeta)
      .nest(&P::top, top)
      .real("eig_multiplier_to_alg5", &P::eig_multiplier_to_alg5, 1e-12, std::nullopt, "Alg. 3 line 5 multiplier",
            "liu2022 ambiguity 7")
      .choice("bottom_policy", &P::bottom_policy, liu2022::bottom_policy_names(), "Alg. 4 BOTTOM fallback",
              "liu2022 §2.5")
      .real("lambda_min", &P::lambda_min, 0.0, std::nullopt, "floor for bottom_policy = floor", "liu2022 §2.5");
  FieldTable<KDpPcaParams> t;
  t.nest(&KDpPcaParams::component, sizes)
      .choice("step", &KDpPcaParams::schedule,
              {{"componentwise", KDpPcaParams::Schedule::componentwise},
               {"inverse_time", KDpPcaParams::Schedule::inverse_time}},
              "componentwise: 1/(b_j + Delta_j t/log n) with oracle lambda_j, sigma; inverse_time: shared c1/(c2 + t)",
              "dugler2026 §7 F.2, ambiguity 16")
      .real("b_mult", &KDpPcaParams::b_mult, 1e-12, std::nullopt, "b_j = b_mult sigma lambda_j", "dugler2026 §7 F.2")
      .flag("b_times_d", &KDpPcaParams::b_times_d, "b_j also times d (F.2's dimension-scaled variant)",
            "dugler2026 §7 F.2")
      .nest(&KDpPcaParams::component, rest);
  return t;
}

void register_k_dp_pca(Registry& r) {
  r.add(with_parameters(
      {.id = kOwner,
       .summary = "k-DP-PCA: deflation, liu2022 DP-PCA per component on fresh blocks of floor(n/k) samples",
       .source = "Dügler & Sanyal 2025 via dugler2026 §2.9 / §7 F.2; components: Liu et al. 2022 Algorithm 3",
       .needs = DataNeed::sample_matrices,
       .oracle_quantities = {"lambda_1..lambda_(k+1) and sigma (step = componentwise)"},
       .privacy = "(eps, delta)-DP, replace-one, worst case: parallel composition over disjoint blocks, each "
                  "liu2022 DP-PCA (eps < 0.9, delta <= k/n)"},
      k_dp_pca_fields(), construct<KDpPca>()));
}

}  // namespace dpb::alg
