// Registry entries of dugler2026 (Dügler & Sanyal, "Optimal Rates for Adaptive Private k-PCA").
#include <fmt/format.h>

#include "algorithms/pca/dugler2026_oja.hpp"
#include "algorithms/pca/dugler2026_private_oja.hpp"
#include "algorithms/pca/dugler2026_private_range.hpp"
#include "algorithms/pca/dugler2026_truncated_mean.hpp"
#include "algorithms/pca/dugler2026_two_stage.hpp"
#include "algorithms/registrations.hpp"
#include "core/errors.hpp"

namespace dpb::alg {
namespace {

using namespace dugler2026;

class FunctionEstimator final : public Estimator {
 public:
  using RunFn = std::function<Estimate(const Input&, core::Rng&)>;
  using ClaimFn = std::function<PrivacyClaim(const Input&)>;
  FunctionEstimator(RunFn run, ClaimFn claim) : run_(std::move(run)), claim_(std::move(claim)) {}
  Estimate run(const Input& in, core::Rng& rng) const override { return run_(in, rng); }
  PrivacyClaim claim(const Input& in) const override { return claim_(in); }

 private:
  RunFn run_;
  ClaimFn claim_;
};

template <class Params, class Run, class Claim>
std::unique_ptr<Estimator> make_estimator(Params p, Run run, Claim claim) {
  return std::make_unique<FunctionEstimator>(
      [p, run](const Input& in, core::Rng& rng) { return run(in, p, rng); },
      [p, claim](const Input& in) { return claim(p, in); });
}

void append(std::vector<ParamSpec>& to, std::vector<ParamSpec> more) {
  for (auto& s : more) to.push_back(std::move(s));
}

const std::string log_argument_doc =
    "R_t's log argument: pseudo_code Bdk/(2 zeta) (Alg. 2 line 4) or proof BdkT/zeta";

// Batch rule, learning rate and the adaptive constants: the schema ADADPO and TADADPO share.
std::vector<ParamSpec> adaptive_schema(const std::string& p, const std::string& radius_ref) {
  std::vector<ParamSpec> s = batch_params(p, BatchSettings{});
  append(s, learning_rate_params(p, LearningRateSettings{}));
  append(s, adaptive_params(p, AdaptiveSettings{}, radius_ref));
  return s;
}

template <class Params>
Params read_adaptive_schema(const core::ParamMap& m, const std::string& p, const std::string& owner) {
  Params a;
  a.batch = read_batch(m, p, BatchSettings{}, owner);
  a.lr = read_learning_rate(m, p, LearningRateSettings{}, owner);
  a.adaptive = read_adaptive(m, p, AdaptiveSettings{}, owner);
  return a;
}

std::vector<ParamSpec> adadpo_schema(const std::string& p) {
  std::vector<ParamSpec> s = adaptive_schema(p, "dugler2026 Alg. 2 line 4 (constant 3)");
  s.push_back(choice_param(p + "log_argument", "pseudo_code", {"pseudo_code", "proof"}, log_argument_doc,
                           "dugler2026 ambiguity 8"));
  return s;
}

AdadpoParams read_adadpo(const core::ParamMap& m, const std::string& p, const std::string& owner) {
  auto a = read_adaptive_schema<AdadpoParams>(m, p, owner);
  a.proof_log_argument = m.get_string(p + "log_argument", "pseudo_code", owner) == "proof";
  return a;
}

std::vector<ParamSpec> tadadpo_schema(const std::string& p) {
  return adaptive_schema(p, "dugler2026 Alg. 3 line 5 (C_R; 3 recommended, ambiguity 3)");
}

TadadpoParams read_tadadpo(const core::ParamMap& m, const std::string& p, const std::string& owner) {
  return read_adaptive_schema<TadadpoParams>(m, p, owner);
}

const std::string source = "Dügler, Sanyal 2026, Optimal Rates for Adaptive Private k-PCA";

AlgorithmEntry oja_entry() {
  return {"dugler2026.oja",
          "Oja k-PCA: non-private reference, Q_t = QR(Q_{t-1} + eta_t A_t Q_{t-1})",
          source + ", Algorithm 7 (Huang et al. 2021)",
          learning_rate_params("", LearningRateSettings{}),
          DataNeed::sample_matrices,
          learning_rate_oracle_quantities(),
          "not private (non-private reference)",
          [](const core::ParamMap& m) {
            OjaParams p{read_learning_rate(m, "", LearningRateSettings{}, "dugler2026.oja")};
            return make_estimator(p, oja, [](const OjaParams&, const Input&) { return oja_claim(); });
          }};
}

AlgorithmEntry private_oja_entry() {
  const std::string ref = "dugler2026 §2.1, Thm 1";
  std::vector<ParamSpec> s = batch_params("", BatchSettings{});
  append(s, learning_rate_params("", LearningRateSettings{}));
  s.push_back(real_param("clip_radius", 0, 0.0, {},
                         "clip radius R; 0 = Thm 1's C lambda_1 sqrt(dk)(K gamma log^a(ndk/zeta) + 1) "
                         "from the oracle",
                         ref));
  s.push_back(real_param("C", 1, 1e-12, {}, "universal constant C of Thm 1's R (unspecified; 1 [inferred])",
                         "dugler2026 §8 item 2"));
  s.push_back(real_param("K", 1, 1e-12, {}, "sub-Weibull tail constant K", "dugler2026 §7"));
  s.push_back(real_param("a", 1, 0.5, {}, "sub-Weibull exponent a", "dugler2026 §7"));
  s.push_back(real_param("zeta", 0.01, 1e-12, 0.5, "failure probability zeta (in R)", "dugler2026 §7"));
  s.push_back(gaussian_calibration_param(
      kDugler2026Calibration,
      "Gaussian calibration: classical 2R sqrt(2 log(1.25/delta))/(B eps) (needs eps < 1) or analytic",
      "dugler2026 ambiguity 14"));
  s.push_back(choice_param(
      "mode", "corrected", {"corrected", "faithful"},
      "corrected projects the clipped mean onto S_Q (private for any input); faithful is the box as "
      "printed (private only for exactly symmetric A_i)",
      "dugler2026 ambiguity 12"));
  return {"dugler2026.private_oja",
          "Private Oja k-PCA: fixed clip radius R and GOE-symmetric noise Q N + Pi Z",
          source + ", Algorithm 1",
          s,
          DataNeed::sample_matrices,
          {"lambda1 (top eigenvalue of Sigma) and gamma2 for R when clip_radius = 0",
           learning_rate_oracle_quantities()[0]},
          "(eps, delta)-DP under replace-one neighbours (Definition 1, Theorem 4), worst case; classical "
          "calibration "
          "needs eps < 1",
          [](const core::ParamMap& m) {
            const std::string o = "dugler2026.private_oja";
            PrivateOjaParams p;
            p.batch = read_batch(m, "", BatchSettings{}, o);
            p.lr = read_learning_rate(m, "", LearningRateSettings{}, o);
            p.clip_radius = m.get_real("clip_radius", 0, o);
            p.C = m.get_real("C", 1, o);
            p.K = m.get_real("K", 1, o);
            p.a = m.get_real("a", 1, o);
            p.zeta = m.get_real("zeta", 0.01, o);
            p.calibration = read_gaussian_calibration(m, kDugler2026Calibration, o);
            p.project_onto_SQ = m.get_string("mode", "corrected", o) == "corrected";
            return make_estimator(p, private_oja, private_oja_claim);
          }};
}

AlgorithmEntry priv_range_entry() {
  std::vector<ParamSpec> s;
  for (auto& spec : adaptive_params("", AdaptiveSettings{}, ""))
    if (spec.name == "C1" || spec.name == "range_safety" || spec.name == "range_bins_per_octave" ||
        spec.name == "zeta")
      s.push_back(spec);
  s.push_back(choice_param("tangent", "no", {"no", "yes"},
                           "estimate from Pi A_i Q (TADADPO's target g_Q^2) instead of A_i Q (Lambda(Q))",
                           "dugler2026 Alg. 3 line 4"));
  return {"dugler2026.priv_range",
          "PRIVRANGE: private block-level estimate of Lambda(Q) from A_i Q for a random frame Q",
          source + ", Algorithm 4",
          s,
          DataNeed::sample_matrices,
          {},
          "(eps, delta)-DP under replace-one neighbours (Theorem 5, Lemma 12), worst case",
          [](const core::ParamMap& m) {
            return make_estimator(priv_range_params(m), priv_range,
                                  [](const PrivRangeParams&, const Input& in) { return priv_range_claim(in); });
          }};
}

AlgorithmEntry truncated_mean_entry() {
  const std::string ref = "dugler2026 Alg. 5, Lemma 11";
  std::vector<ParamSpec> s = {
      real_param("Lhat", 0, 0.0, {},
                 "range estimate (bin width sqrt(Lhat)); 0 = the oracle's lambda_1^2 gamma^2", ref),
      real_param("R", 0, 0.0, {},
                 "truncation radius; 0 = radius_constant K sqrt(Lhat) log^a(m d k/zeta) (Lemma 11)", ref),
      real_param("radius_constant", 3, 1e-12, {}, "the 3 of Lemma 11's radius", ref),
      real_param("K", 1, 1e-12, {}, "sub-Weibull tail constant K", "dugler2026 §7"),
      real_param("a", 1, 0.5, {}, "sub-Weibull exponent a", "dugler2026 §7"),
      real_param("zeta", 0.01, 1e-12, 0.5, "failure probability zeta (in R)", "dugler2026 §7"),
      gaussian_calibration_param(kDugler2026Calibration, "Gaussian calibration at (eps/2, delta/2)",
                                 "dugler2026 ambiguity 14"),
      real_param("feasibility_margin", 2, 1.0, {}, "m >= margin x the coordinate histograms' threshold count",
                 "dugler2026 ambiguity 2"),
  };
  return {"dugler2026.truncated_mean",
          "TRUNCATEDMEAN: private coordinatewise centers, clamp to center +- R, mean + Gaussian noise",
          source + ", Algorithm 5 (released as in Algorithm 2 lines 5-7)",
          s,
          DataNeed::sample_matrices,
          {"lambda1 and gamma2 for Lhat when Lhat = 0"},
          "(eps, delta)-DP under replace-one neighbours (Lemma 2 steps 2-4), worst case",
          [](const core::ParamMap& m) {
            return make_estimator(truncated_mean_params(m), truncated_mean_release, truncated_mean_claim);
          }};
}

AlgorithmEntry adadpo_entry() {
  return {"dugler2026.adadpo",
          "ADADPO: adaptive private Oja (PRIVRANGE + TRUNCATEDMEAN per batch, noise in S_Q)",
          source + ", Algorithm 2",
          adadpo_schema(""),
          DataNeed::sample_matrices,
          learning_rate_oracle_quantities(),
          "(eps, delta)-DP under replace-one neighbours (Definition 1, Lemma 2), worst case, for every input",
          [](const core::ParamMap& m) {
            return make_estimator(
                read_adadpo(m, "", "dugler2026.adadpo"),
                [](const Input& in, const AdadpoParams& p, core::Rng& rng) { return adadpo(in, p, rng); },
                adadpo_claim);
          }};
}

AlgorithmEntry tadadpo_entry() {
  std::vector<ParamSpec> s = tadadpo_schema("");
  s.push_back(choice_param("start", "random", {"random", "oracle"},
                           "Q_0: Haar-random, or the oracle's target V_k (data-independent, simulation only)",
                           "dugler2026 Alg. 3 input Q_0"));
  return {"dugler2026.tadadpo",
          "TADADPO: tangent adaptive private Oja (refinement on Pi A_i Q, noise in T_Q)",
          source + ", Algorithm 3",
          s,
          DataNeed::sample_matrices,
          {learning_rate_oracle_quantities()[0], "target (V_k) when start = oracle"},
          "(eps, delta)-DP under replace-one neighbours (Lemma 13), worst case; the starting point must be "
          "private and from disjoint records",
          [](const core::ParamMap& m) {
            const std::string o = "dugler2026.tadadpo";
            TadadpoParams p = read_tadadpo(m, "", o);
            p.start =
                m.get_string("start", "random", o) == "oracle" ? TadadpoStart::oracle : TadadpoStart::random;
            return make_estimator(
                p,
                [](const Input& in, const TadadpoParams& q, core::Rng& rng) { return tadadpo(in, q, rng); },
                tadadpo_claim);
          }};
}

AlgorithmEntry two_stage_entry() {
  std::vector<ParamSpec> s = {real_param("warm_fraction", 0.5, 1e-6, 1 - 1e-6,
                                         "share of n for the ADADPO warm start; TADADPO refines on the rest",
                                         "dugler2026 ambiguity 15, §8 item 5")};
  append(s, adadpo_schema("warm_"));
  append(s, tadadpo_schema("refine_"));
  return {
      "dugler2026.two_stage",
      "Two-stage ADADPO: ADADPO warm start on a first part of the data, TADADPO refinement on the disjoint rest",
      source + ", Fig. 2 (two-stage / hybrid), Lemma 13",
      s,
      DataNeed::sample_matrices,
      learning_rate_oracle_quantities(),
      "(eps, delta)-DP under replace-one neighbours (Lemma 13, parallel composition over disjoint parts), "
      "worst case",
      [](const core::ParamMap& m) {
        const std::string o = "dugler2026.two_stage";
        TwoStageParams p;
        p.warm_fraction = m.get_real("warm_fraction", 0.5, o);
        p.warm = read_adadpo(m, "warm_", o);
        p.refine = read_tadadpo(m, "refine_", o);
        return make_estimator(p, two_stage, two_stage_claim);
      }};
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
