#include "algorithms/pca/liu2022_fields.hpp"

namespace dpb::alg::liu2022 {
namespace {

// Alg. 4's C1 and halve_difference_scale, shared with DP-PCA.
FieldTable<TopEigenvalueOptions> top_eigenvalue_option_fields() {
  using O = TopEigenvalueOptions;
  FieldTable<O> t;
  t.real("C1", &O::C1, 1e-12, std::nullopt, "k = ceil(C1 log(1/(delta zeta))/eps) + 2 subsets", "liu2022 ambiguity 13")
      .flag("halve_difference_scale", &O::halve_difference_scale,
            "return l/2 (Thm 6.1 holds); false = the paper's faithful l (about 2 lambda1^2 ||H_u||)",
            "liu2022 ambiguity 6");
  return t;
}

// Alg. 5's bin width, truncation and noise multipliers, shared with DP-PCA (K and a are the owner's).
FieldTable<PrivateMeanOptions> private_mean_option_fields() {
  using O = PrivateMeanOptions;
  FieldTable<O> t;
  t.real("tau_log_argument", &O::tau_log_argument, 1.0001, std::nullopt,
         "bin width tau = 2^(1/4) K sqrt(Lambda_hat) log^a(this)", "liu2022 §2.6 line 1")
      .real("truncation_multiplier", &O::truncation_multiplier, 1e-12, std::nullopt,
            "half-width r = this K sqrt(Lambda_hat) log^a(Bd/zeta)", "liu2022 §2.6 line 5")
      .real("noise_multiplier", &O::noise_multiplier, 1e-12, std::nullopt,
            "sigma = this K sqrt(Lambda_hat) log^a(Bd/zeta) sqrt(2d log(2.5/delta))/(eps B); >= 4 x truncation",
            "liu2022 §2.6 line 7");
  return t;
}

// The theory schedules' constants of App. D.3 / Eq. (60).
template <class P>
FieldTable<P>& theory_constant_fields(FieldTable<P>& t, double P::*lr_log_constant, double P::*C2, double P::*C3,
                                      const std::string& lr_doc, const std::string& lr_ref, const std::string& C2_doc,
                                      const std::string& C3_doc, const std::string& ref) {
  return t.real("lr_log_constant", lr_log_constant, 1e-12, std::nullopt, lr_doc, lr_ref)
      .real("C2", C2, 0.0, std::nullopt, C2_doc, ref)
      .real("C3", C3, 0.0, std::nullopt, C3_doc, ref);
}

}  // namespace

std::vector<std::pair<std::string, PrivateOjaParams::NoiseCalibration>> noise_calibration_names() {
  using C = PrivateOjaParams::NoiseCalibration;
  return {{"proven", C::proven},
          {"lemma3_1", C::lemma3_1},
          {"shuffling_bound", C::shuffling_bound},
          {"no_amplification", C::no_amplification}};
}

std::vector<std::pair<std::string, DpPcaParams::BottomPolicy>> bottom_policy_names() {
  return {{"skip", DpPcaParams::BottomPolicy::skip}, {"floor", DpPcaParams::BottomPolicy::floor}};
}

FieldTable<PrivateOjaParams>& oja_step_field(FieldTable<PrivateOjaParams>& table,
                                             std::vector<std::pair<std::string, OjaStep>> names, std::string doc,
                                             std::string spec_ref) {
  using P = PrivateOjaParams;
  return table.choice_by<OjaStep>(
      "step",
      [](const P& p) {
        if (p.schedule == P::Schedule::theory) return OjaStep::theory;
        switch (p.practical.kind) {
          case PracticalSchedule::constant: return OjaStep::constant;
          case PracticalSchedule::constant_half_over_n: return OjaStep::constant_half_over_n;
          case PracticalSchedule::inverse_time: break;
        }
        return OjaStep::inverse_time;
      },
      [](P& p, OjaStep step) {
        p.schedule = step == OjaStep::theory         ? P::Schedule::theory
                     : step == OjaStep::inverse_time ? P::Schedule::inverse_time
                                                     : P::Schedule::constant;
        p.practical.kind = step == OjaStep::constant               ? PracticalSchedule::constant
                           : step == OjaStep::constant_half_over_n ? PracticalSchedule::constant_half_over_n
                                                                   : PracticalSchedule::inverse_time;
      },
      std::move(names), std::move(doc), std::move(spec_ref));
}

FieldTable<OjaParams> oja_fields() {
  using P = OjaParams;
  FieldTable<P> t;
  t.choice("step", &P::schedule, {{"inverse_time", P::Schedule::inverse_time}, {"theory", P::Schedule::theory}},
           "inverse_time: eta_t = c1/(c2 + t); theory: Thm 2.2's alpha/((lambda1 - lambda2)(xi + t)) (oracle)",
           "liu2022 §2.1, §8.1")
      .real("lr_mult", &P::lr_mult, 1e-12, std::nullopt,
            "alpha of Thm 2.2 (> 1/2 for theory); c1 = lr_mult/(lambda1 - lambda2) when c1 = 0", "liu2022 §2.1");
  inverse_time_fields(t, &P::c1, &P::c2);
  return zeta_and_constants(t, &P::zeta, &P::constants, true);
}

FieldTable<PrivateOjaParams> private_oja_fields() {
  using P = PrivateOjaParams;
  FieldTable<P> t;
  t.choice("preset", &P::preset, {{"none", P::Preset::none}, {"cai2024_dp_oja", P::Preset::cai2024_dp_oja}},
           "cai2024_dp_oja: cai2024 §6's DP-Oja (clip_constant 0.2, eta = 0.5/n, C' = 1, K = 4, a = 1, gamma = 1, "
           "zeta = 0.01); overrides those parameters",
           "cai2024 §2.8");
  oja_step_field(t,
                 {{"inverse_time", OjaStep::inverse_time},
                  {"theory", OjaStep::theory},
                  {"constant", OjaStep::constant},
                  {"constant_half_over_n", OjaStep::constant_half_over_n}},
                 "inverse_time: c1/(c2 + t); theory: App. D.3 h/((lambda1 - lambda2)(xi + t)), h = c log n (oracle); "
                 "constant: eta (0 = 0.5/n); constant_half_over_n: 0.5/n",
                 "liu2022 §2.2, §8.1")
      .real("clip_constant", &P::clip_constant, 1e-12, std::nullopt,
            "C in beta = C lambda1 sqrt(d)(K gamma log^a(.) + 1) (Lemma 3.2: 1)", "liu2022 §2.2 line 3")
      .real("noise_constant", &P::noise_constant, 1e-12, std::nullopt,
            "C' in alpha = C' log(n/delta)/(eps sqrt n) (unspecified in the paper)", "liu2022 §2.2 line 2")
      .choice("noise_calibration", &P::calibration, noise_calibration_names(),
              "proven: the smaller alpha of the explicit shuffling bound and the exact Gaussian one (each sample used "
              "once), a guarantee proven at the run's (n, eps, delta); lemma3_1: line 2 with C' as printed "
              "(asymptotic; the claim is the eps its noise proves); shuffling_bound: smallest alpha meeting the "
              "explicit shuffling bound; no_amplification: sqrt(2 log(1.25/delta))/eps (eps < 1)",
              "liu2022 §3.1, §3.2; cai2024 §2.8", ChoiceOrder::default_first)
      .flag("shuffle", &P::shuffle, "uniform permutation of the samples (line 1); false needs no_amplification",
            "liu2022 §2.2 line 1")
      .choice("mode", &P::faithful, {{"corrected", false}, {"faithful", true}},
              "corrected: log^a(2nd/zeta) in beta (A.4 read as <= 2); faithful: the printed log^a(nd/zeta)",
              "liu2022 ambiguity 1");
  theory_constant_fields(t, &P::lr_log_constant, &P::C2, &P::C3, "c in h = c log n (theory schedule)",
                         "liu2022 §2.2 D.3", "C2 of V~ (exactly 1)", "C3 of M~", "liu2022 §2.2 D.3")
      .nest(&P::practical, practical_schedule_fields(true));
  return zeta_and_constants(t, &P::zeta, &P::constants, true);
}

FieldTable<MinibatchPrivateOjaParams> minibatch_private_oja_fields() {
  using P = MinibatchPrivateOjaParams;
  FieldTable<P> t;
  t.integer("T", &P::T, 0.0, "number of steps; 0: ceil((log n)^2); B = floor(n/T)", "liu2022 §2.3, §8.1")
      .choice("composition", &P::composition,
              {{"serial", P::Composition::serial}, {"parallel", P::Composition::parallel}},
              "serial: alpha = T sqrt(2 log(1.25T/delta))/eps; parallel: alpha = sqrt(2 log(1.25/delta))/eps",
              "liu2022 §2.3, ambiguity 4")
      .choice("mode", &P::faithful, {{"corrected", false}, {"faithful", true}},
              "corrected: B terms per minibatch and log^a(2nd/zeta); faithful: the printed upper limit Bt - 1 (B - 1 "
              "terms) and log^a(nd/zeta); the noise coefficient is 2 in both",
              "liu2022 ambiguity 4")
      .real("clip_constant", &P::clip_constant, 1e-12, std::nullopt, "C in Alg. 2's beta", "liu2022 §2.2 line 3");
  FieldTable<PracticalScheduleParams> schedule;
  schedule
      .choice("step", &PracticalScheduleParams::kind,
              {{"inverse_time", PracticalSchedule::inverse_time}, {"constant", PracticalSchedule::constant}},
              "inverse_time: c1/(c2 + t); constant: eta", "liu2022 §2.8")
      .append(practical_schedule_fields(true));
  t.nest(&P::practical, schedule);
  return zeta_and_constants(t, &P::zeta, &P::constants, false);
}

FieldTable<MinibatchGradientsParams> minibatch_gradients_fields() {
  FieldTable<MinibatchGradientsParams> t;
  t.integer("batch", &MinibatchGradientsParams::batch, 2.0, "minibatch size B (Figure 1: 400)", "liu2022 §6");
  return t;
}

FieldTable<PrivateTopEigenvalueParams> private_top_eigenvalue_fields() {
  using P = PrivateTopEigenvalueParams;
  FieldTable<P> t;
  t.nest(&P::options, top_eigenvalue_option_fields())
      .real("zeta", &P::zeta, 1e-12, 0.5, "failure probability", "liu2022 §2.5");
  return t;
}

FieldTable<PrivateMeanParams> private_mean_fields() {
  using P = PrivateMeanParams;
  FieldTable<P> options = FieldTable<P>().nest(&P::options, private_mean_option_fields());
  FieldTable<PrivateMeanOptions> tail;
  tail.real("K", &PrivateMeanOptions::K, 1e-12, std::nullopt, "A.4 K", "liu2022 §1.2")
      .real("a", &PrivateMeanOptions::a, 1e-12, std::nullopt, "A.4 a", "liu2022 §1.2");
  options
      .real("lambda_hat", &P::lambda_hat, 0.0, std::nullopt,
            "approximate top eigenvalue of Cov(g); 0 reads the oracle's lambda1 (simulation, vector data)",
            "liu2022 §2.6")
      .nest(&P::options, tail)
      .real("zeta", &P::zeta, 1e-12, 0.5, "failure probability", "liu2022 §2.6");
  return options;
}

FieldTable<DpPcaParams> dp_pca_fields() {
  using P = DpPcaParams;
  FieldTable<P> t;
  t.integer("T", &P::T, 0.0,
            "number of minibatches; 0: ceil((log n)^2), lowered to the largest T whose minibatches Alg. 4 can use "
            "(floor(B/2) >= 2k), unless B is given",
            "liu2022 §2.4, §8.1")
      .integer("B", &P::B, 0.0, "minibatch size; 0: floor(n/T). Give T or B, not both", "liu2022 §2.4, §8.1")
      .choice("step", &P::schedule, {{"inverse_time", P::Schedule::inverse_time}, {"theory", P::Schedule::theory}},
              "inverse_time: c1/(c2 + t) (practical); theory: Eq. (60) with alpha = c log n (oracle; vacuous at "
              "simulable n)",
              "liu2022 §2.4, ambiguity 16");
  theory_constant_fields(t, &P::lr_log_constant, &P::C2, &P::C3, "c in alpha = c log n (theory)", "liu2022 §2.4",
                         "C2 of Eq. (60)", "C3 of Eq. (60)", "liu2022 ambiguity 16")
      .real("eig_multiplier_to_alg5", &P::eig_multiplier_to_alg5, 1e-12, std::nullopt,
            "line 5 passes this x Lambda_hat_t to Alg. 5", "liu2022 ambiguity 7")
      .choice("bottom_policy", &P::bottom_policy, bottom_policy_names(),
              "Alg. 4 BOTTOM or [0,0]: skip the step, or floor Lambda_hat at lambda_min", "liu2022 §2.5, ambiguity 15")
      .real("lambda_min", &P::lambda_min, 0.0, std::nullopt, "Lambda_hat floor (bottom_policy = floor needs > 0)",
            "liu2022 §2.5")
      .fixed_choice("split", "halves", "first half of each minibatch to Alg. 4, second to Alg. 5", "liu2022 §8.1")
      .nest(&P::practical, practical_schedule_fields(false))
      .nest(&P::top, top_eigenvalue_option_fields())
      .nest(&P::mean, private_mean_option_fields());
  return zeta_and_constants(t, &P::zeta, &P::constants, true);
}

}  // namespace dpb::alg::liu2022
