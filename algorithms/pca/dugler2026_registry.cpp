// Registry entries of dugler2026 (Dügler & Sanyal, "Optimal Rates for Adaptive Private k-PCA").
#include <fmt/format.h>

#include "algorithms/function_estimator.hpp"
#include "algorithms/pca/dugler2026_oja.hpp"
#include "algorithms/pca/dugler2026_private_oja.hpp"
#include "algorithms/pca/dugler2026_private_range.hpp"
#include "algorithms/pca/dugler2026_truncated_mean.hpp"
#include "algorithms/pca/dugler2026_two_stage.hpp"
#include "algorithms/registrations.hpp"

namespace dpb::alg {
namespace {

using namespace dugler2026;

// Batch rule, learning rate and the adaptive constants: the parameters ADADPO and TADADPO share.
template <class Params>
FieldTable<Params> adaptive_schema(const std::string& radius_ref) {
  FieldTable<Params> t;
  t.nest(&Params::batch, batch_fields())
      .nest(&Params::lr, learning_rate_fields())
      .nest(&Params::adaptive, adaptive_fields(radius_ref));
  return t;
}

FieldTable<AdadpoParams> adadpo_fields() {
  FieldTable<AdadpoParams> t = adaptive_schema<AdadpoParams>("dugler2026 Alg. 2 line 4 (constant 3)");
  t.choice("log_argument", &AdadpoParams::proof_log_argument, {{"pseudo_code", false}, {"proof", true}},
           "R_t's log argument: pseudo_code Bdk/(2 zeta) (Alg. 2 line 4) or proof BdkT/zeta",
           "dugler2026 ambiguity 8");
  return t;
}

// TADADPO's parameters but its start (which the two-stage method's refinement does not offer).
FieldTable<TadadpoParams> tadadpo_fields() {
  return adaptive_schema<TadadpoParams>("dugler2026 Alg. 3 line 5 (C_R; 3 recommended, ambiguity 3)");
}

const std::string source = "Dügler, Sanyal 2026, Optimal Rates for Adaptive Private k-PCA";

AlgorithmEntry oja_entry() {
  FieldTable<OjaParams> fields;
  fields.nest(&OjaParams::lr, learning_rate_fields());
  return with_parameters({.id = "dugler2026.oja",
                          .summary = "Oja k-PCA: non-private reference, Q_t = QR(Q_{t-1} + eta_t A_t Q_{t-1})",
                          .source = source + ", Algorithm 7 (Huang et al. 2021)",
                          .needs = DataNeed::sample_matrices,
                          .oracle_quantities = learning_rate_oracle_quantities(),
                          .privacy = "not private (non-private reference)"},
                         fields, function_estimator(oja, [](const OjaParams&, const Input&) { return oja_claim(); }));
}

AlgorithmEntry private_oja_entry() {
  using P = PrivateOjaParams;
  FieldTable<P> fields;
  fields.nest(&P::batch, batch_fields())
      .nest(&P::lr, learning_rate_fields())
      .real("clip_radius", &P::clip_radius, 0.0, std::nullopt,
            "clip radius R; 0 = Thm 1's C lambda_1 sqrt(dk)(K gamma log^a(ndk/zeta) + 1) from the oracle",
            "dugler2026 §2.1, Thm 1")
      .real("C", &P::C, 1e-12, std::nullopt, "universal constant C of Thm 1's R (unspecified; 1 [inferred])",
            "dugler2026 §8 item 2");
  radius_tail_fields(fields, &P::K, &P::a, &P::zeta);
  calibration_field(fields, &P::calibration,
                    "Gaussian calibration: classical 2R sqrt(2 log(1.25/delta))/(B eps) (needs eps < 1) or analytic",
                    "dugler2026 ambiguity 14")
      .choice("mode", &P::project_onto_SQ, {{"corrected", true}, {"faithful", false}},
              "corrected projects the clipped mean onto S_Q (private for any input); faithful is the box as printed "
              "(private only for exactly symmetric A_i)",
              "dugler2026 ambiguity 12");
  return with_parameters(
      {.id = "dugler2026.private_oja",
       .summary = "Private Oja k-PCA: fixed clip radius R and GOE-symmetric noise Q N + Pi Z",
       .source = source + ", Algorithm 1",
       .needs = DataNeed::sample_matrices,
       .oracle_quantities = {"lambda1 (top eigenvalue of Sigma) and gamma2 for R when clip_radius = 0",
                             learning_rate_oracle_quantities()[0]},
       .privacy = "(eps, delta)-DP under replace-one neighbours (Definition 1, Theorem 4), worst case; classical "
                  "calibration needs eps < 1"},
      fields, function_estimator(private_oja, private_oja_claim));
}

AlgorithmEntry priv_range_entry() {
  return with_parameters(
      {.id = "dugler2026.priv_range",
       .summary = "PRIVRANGE: private block-level estimate of Lambda(Q) from A_i Q for a random frame Q",
       .source = source + ", Algorithm 4",
       .needs = DataNeed::sample_matrices,
       .oracle_quantities = {},
       .privacy = "(eps, delta)-DP under replace-one neighbours (Theorem 5, Lemma 12), worst case"},
      priv_range_fields(),
      function_estimator(priv_range, [](const PrivRangeParams&, const Input& in) { return priv_range_claim(in); }));
}

AlgorithmEntry truncated_mean_entry() {
  return with_parameters(
      {.id = "dugler2026.truncated_mean",
       .summary = "TRUNCATEDMEAN: private coordinatewise centers, clamp to center +- R, mean + Gaussian noise",
       .source = source + ", Algorithm 5 (released as in Algorithm 2 lines 5-7)",
       .needs = DataNeed::sample_matrices,
       .oracle_quantities = {"lambda1 and gamma2 for Lhat when Lhat = 0"},
       .privacy = "(eps, delta)-DP under replace-one neighbours (Lemma 2 steps 2-4), worst case"},
      truncated_mean_fields(), function_estimator(truncated_mean_release, truncated_mean_claim));
}

AlgorithmEntry adadpo_entry() {
  return with_parameters(
      {.id = "dugler2026.adadpo",
       .summary = "ADADPO: adaptive private Oja (PRIVRANGE + TRUNCATEDMEAN per batch, noise in S_Q)",
       .source = source + ", Algorithm 2",
       .needs = DataNeed::sample_matrices,
       .oracle_quantities = learning_rate_oracle_quantities(),
       .privacy = "(eps, delta)-DP under replace-one neighbours (Definition 1, Lemma 2), worst case, for every input"},
      adadpo_fields(),
      function_estimator([](const Input& in, const AdadpoParams& p, core::Rng& rng) { return adadpo(in, p, rng); },
                         adadpo_claim));
}

AlgorithmEntry tadadpo_entry() {
  FieldTable<TadadpoParams> fields = tadadpo_fields();
  fields.choice("start", &TadadpoParams::start, {{"random", TadadpoStart::random}, {"oracle", TadadpoStart::oracle}},
                "Q_0: Haar-random, or the oracle's target V_k (data-independent, simulation only)",
                "dugler2026 Alg. 3 input Q_0");
  return with_parameters(
      {.id = "dugler2026.tadadpo",
       .summary = "TADADPO: tangent adaptive private Oja (refinement on Pi A_i Q, noise in T_Q)",
       .source = source + ", Algorithm 3",
       .needs = DataNeed::sample_matrices,
       .oracle_quantities = {learning_rate_oracle_quantities()[0], "target (V_k) when start = oracle"},
       .privacy = "(eps, delta)-DP under replace-one neighbours (Lemma 13), worst case; the starting point must be "
                  "private and from disjoint records"},
      fields,
      function_estimator([](const Input& in, const TadadpoParams& q, core::Rng& rng) { return tadadpo(in, q, rng); },
                         tadadpo_claim));
}

AlgorithmEntry two_stage_entry() {
  using P = TwoStageParams;
  FieldTable<P> fields;
  fields
      .real("warm_fraction", &P::warm_fraction, 1e-6, 1 - 1e-6,
            "share of n for the ADADPO warm start; TADADPO refines on the rest", "dugler2026 ambiguity 15, §8 item 5")
      .nest(&P::warm, adadpo_fields(), "warm_")
      .nest(&P::refine, tadadpo_fields(), "refine_");
  return with_parameters(
      {.id = "dugler2026.two_stage",
       .summary = "Two-stage ADADPO: ADADPO warm start on a first part of the data, TADADPO refinement on the "
                  "disjoint rest",
       .source = source + ", Fig. 2 (two-stage / hybrid), Lemma 13",
       .needs = DataNeed::sample_matrices,
       .oracle_quantities = learning_rate_oracle_quantities(),
       .privacy = "(eps, delta)-DP under replace-one neighbours (Lemma 13, parallel composition over disjoint "
                  "parts), worst case"},
      fields, function_estimator(two_stage, two_stage_claim));
}

}  // namespace

void register_dugler2026(Registry& registry) {
  registry.add(oja_entry());
  registry.add(private_oja_entry());
  registry.add(priv_range_entry());
  registry.add(truncated_mean_entry());
  registry.add(adadpo_entry());
  registry.add(tadadpo_entry());
  registry.add(two_stage_entry());
}

}  // namespace dpb::alg
