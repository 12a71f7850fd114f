// kumar2025 Algorithm 4 (the exponential-mechanism support selection) as a registered estimator: its
// parameters, its diagnostics and its pure-DP claim.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "algorithms/sparse/exponential_support_selection.hpp"
#include "algorithms/sparse/kumar2025_adapter.hpp"

namespace dpb::alg::kumar2025 {
namespace {

constexpr const char* kId = "kumar2025.exp_mech_support";
using Release = ExpMechSupportParams::Release;

FieldTable<ExpMechSupportParams> fields() {
  using P = ExpMechSupportParams;
  FieldTable<P> t;
  t.real("tau", &P::tau, 0.0, std::nullopt, "clip level; 0 = sigma sqrt(2 log(2nd/beta))", "kumar2025 A26");
  sigma2_field(t, &P::sigma2, "kumar2025 A26");
  beta_field(t, &P::beta, "kumar2025 A26");
  t.real("max_supports", &P::max_supports, 1.0, std::nullopt, "refuse when C(d, k) exceeds this (exact enumeration)",
         "kumar2025 §2.5, §8.1 item 5")
      .fixed_choice("ties", "index_order", "supports are enumerated in lexicographic order", "kumar2025 A25")
      .choice("release", &P::release,
              {{"exponential_mechanism", Release::exponential_mechanism}, {"as_printed", Release::as_printed}},
              "exponential_mechanism: v on S_hat by the exponential mechanism on the k-sphere (private); "
              "as_printed: lines 12-13, the exact eigenvector on S_hat (NOT private)",
              "kumar2025 §2.5 lines 12-13; docs/papers/kumar2025.md")
      .real("selection_share", &P::selection_share, 1e-6, 1 - 1e-6,
            "share of eps for the support selection when release = exponential_mechanism", "docs/papers/kumar2025.md");
  return t;
}

class ExpMechSupportEstimator final : public Estimator {
 public:
  explicit ExpMechSupportEstimator(ExpMechSupportParams q) : q_(std::move(q)) {}

  Estimate run(const Input& in, core::Rng& rng) const override {
    validate_sparse_input(in.X, in.k, in.privacy, false, 1, kId);
    Estimate e;
    const ExpMechSupportResult r = exponential_support_selection(*in.X, in.k, in.privacy, params(in), e.ledger, rng);
    e.Q = r.v_hat;
    auto& diag = e.diagnostics;
    diag.counters = {{"tau", r.tau},
                     {"Delta_q", r.sensitivity},
                     {"supports", static_cast<double>(r.scores.size())},
                     {"support_rank", static_cast<double>(r.support_rank)},
                     {"clipped_coordinates", static_cast<double>(r.clipped_coordinates)}};
    diag.notes.push_back(fmt::format("selected support {}", r.support));
    if (r.proposals > 0) {
      diag.counters["proposals"] = static_cast<double>(r.proposals);
    } else {
      diag.notes.push_back("release=as_printed: v on S_hat is the data's exact eigenvector (NOT private)");
    }
    e.claim = claim(in);
    return e;
  }

  PrivacyClaim claim(const Input& in) const override {
    if (q_.release == Release::as_printed)
      return {in.privacy.epsilon,
              0,
              Neighbours::replace,
              ClaimScope::not_private,
              {"release=as_printed: Lemma 38 covers the support S_hat only; lines 12-13 release the top "
               "eigenvector of the clipped second moment on S_hat without noise (eps is the selection's)"}};
    return {in.privacy.epsilon,
            0,
            Neighbours::replace,
            ClaimScope::worst_case,
            {"pure eps-DP by basic composition: the support by Lemma 38 (Delta_q = 2 k tau^2 / n, exact "
             "Gumbel-max sampling) at selection_share * eps, the vector on it by the exponential mechanism on "
             "the k-sphere (sensitivity k tau^2, exact Bingham sampling) at the rest"}};
  }

 private:
  // The sub-Gaussian proxy enters only the default clip level.
  ExpMechSupportParams params(const Input& in) const {
    ExpMechSupportParams q = q_;
    if (!(q.tau > 0)) q.sigma2 = public_or_oracle(q.sigma2, in.oracle, "subgaussian_sigma2", "sigma2", kId);
    return q;
  }

  ExpMechSupportParams q_;
};

}  // namespace

AlgorithmEntry exponential_support_selection_entry() {
  return entry<ExpMechSupportEstimator>(
      {.id = kId,
       .summary = "Exponential-mechanism support: over all k-sparse supports, scored by the top eigenvalue of "
                  "the clipped moment",
       .source = std::string(kSource) + "Algorithm 4, Lemmas 37-39, Appendix F (spec §2.5, §3.4)",
       .needs = DataNeed::vectors,
       .oracle_quantities = {"subgaussian_sigma2 (when tau = 0 and sigma2 = 0)"},
       .privacy = "pure eps-DP (delta = 0), replace-one neighbours, worst case: the support (Lemmas 37-38) and "
                  "the vector on it (exponential mechanism on the sphere), basic composition; release=as_printed "
                  "claims no privacy"},
      fields());
}

}  // namespace dpb::alg::kumar2025
