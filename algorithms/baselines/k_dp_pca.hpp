#pragma once
// baseline.k_dp_pca (dugler2026 §2.9, "k-DP-PCA", Dügler & Sanyal 2025): deflation. Component j runs
// liu2022's DP-PCA (Algorithm 3) on its own fresh block of floor(n/k) samples, seen through the
// deflated matrices P A_i P with P = I - U U^T projecting out the directions found so far. Built from
// liu2022 components, so it is registered from algorithms/pca/liu2022_registry.cpp.
#include <functional>
#include <string>
#include <vector>

#include "algorithms/param_fields.hpp"
#include "algorithms/pca/dp_pca.hpp"

namespace dpb::alg {

// Samples offset..offset+count-1 of `base`, deflated: A'_i = P A_{offset+i} P, P = I - U U^T (U d x r
// orthonormal, r may be 0). apply allocates only on its first call for a given k.
class DeflatedSampleRange final : public core::SampleMatrices {
 public:
  DeflatedSampleRange(const core::SampleMatrices& base, Eigen::Index offset, Eigen::Index count,
                      const Eigen::MatrixXd& U);
  Eigen::Index n() const override { return count_; }
  Eigen::Index d() const override { return base_.d(); }
  void apply(Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q,
             Eigen::Ref<Eigen::MatrixXd> out) const override;
  // Before any direction is deflated (U has no columns) P = I: the base's products of the range, the same
  // bits as projecting by an empty U. The first component, and all of k = 1, runs at the base's speed.
  void apply_range(Eigen::Index first, Eigen::Index count, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                   Eigen::Ref<Eigen::MatrixXd> out) const override;
  // The base's hint for its sample (a shuffled pass reads the samples in random order).
  void prefetch(Eigen::Index i) const override { base_.prefetch(offset_ + i); }

 private:
  const core::SampleMatrices& base_;
  Eigen::Index offset_, count_;
  const Eigen::MatrixXd& U_;
  mutable Eigen::MatrixXd projected_, product_, coefficients_;
};

// The deflation loop both k_dp_pca and k_dp_ojas use: k components on disjoint blocks of floor(n/k)
// samples; `solve(component_input, j)` returns a unit vector estimate (Q, d x 1) for the deflated
// problem; it is projected onto the complement of the directions found so far and normalised
// (post-processing). Diagnostics of component j are merged with the prefix "component j: ", and the
// components' ledgers by block_ledger.
Estimate deflate_components(const Input& in, const std::string& owner,
                            const std::function<Estimate(const Input& component, Eigen::Index j)>& solve);

// The ledger of runs on disjoint blocks of records (parallel composition, liu2022 Lemma B.2), block j's
// steps named "component j+1: ...". Every part (disjoint batch, Ledger::set_part) of every block becomes a
// part of its own; a block that uses no parts becomes one part. A block that mixes parts with steps on
// any of its records has those steps composed with everything (sound, not tight): one level of parts
// cannot say that they read block j only.
Ledger block_ledger(const std::vector<Ledger>& blocks);

// The claim of a deflation run: `component_claim` of the input component 1 sees (k = 1, its block of
// floor(n/k) samples, no oracle), with the parallel-composition condition of the deflation prepended.
PrivacyClaim deflation_claim(const Input& in,
                             const std::function<PrivacyClaim(const Input& component)>& component_claim);

struct KDpPcaParams {
  enum class Schedule {
    componentwise,  // eta^(j)_t = 1/(b_j + Delta_j t / log n), b_j = b_mult sigma lambda_j (x d) (dugler2026
                    // §7 F.2)
    inverse_time,   // eta_t = c1/(c2 + t), the same for every component (c1 > 0 required)
  };
  Schedule schedule = Schedule::componentwise;
  double b_mult = 20;
  bool b_times_d = false;  // F.2's "dimension-scaled" variant
  DpPcaParams component;   // per-component DP-PCA (T or B per component, constants, flags); K = a = 1
  KDpPcaParams() {
    component.constants.K = 1;  // dugler2026 §7: K = 1, a = 1 for k-DP-PCA
    component.constants.a = 1;
  }
};

class KDpPca final : public Estimator {
 public:
  explicit KDpPca(KDpPcaParams params);
  Estimate run(const Input& in, core::Rng& rng) const override;
  PrivacyClaim claim(const Input& in) const override;

 private:
  KDpPcaParams params_;
};

// K, a (dugler2026 §7: 1) and zeta of a deflation baseline's liu2022 components.
template <class P>
FieldTable<P>& deflation_tail_fields(FieldTable<P>& table, liu2022::ModelConstantParams P::*constants, double P::*zeta) {
  using C = liu2022::ModelConstantParams;
  FieldTable<C> tail;
  tail.real("K", &C::K, 1e-12, std::nullopt, "A.4 K (dugler2026 §7: 1)", "dugler2026 §7")
      .real("a", &C::a, 1e-12, std::nullopt, "A.4 a (dugler2026 §7: 1)", "dugler2026 §7");
  return table.nest(constants, tail).real("zeta", zeta, 1e-12, 0.5, "failure probability", "dugler2026 §7");
}

void register_k_dp_pca(Registry& registry);

}  // namespace dpb::alg
