#pragma once
// Pieces shared by the liu2022 (Liu, Kong, Jain, Oh 2022, "DP-PCA") Oja-family algorithms: input
// validation, the Assumption-1 model constants (given explicitly or read from the oracle), the step
// schedules, the clipping threshold of Lemma 3.2 and a small observer seam through which tests see the
// noise-free and the noisy iterate of every step.
#include <Eigen/Dense>
#include <functional>
#include <limits>
#include <string>

#include "algorithms/param_fields.hpp"
#include "algorithms/registry.hpp"

namespace dpb::alg::liu2022 {

// One step of an Oja-type update, as the observer sees it: w'_t = noise_free + (noise), before
// normalisation. `noise_std` is the per-coordinate standard deviation the algorithm meant to add (NaN
// for the non-private Oja); tests measure noisy - noise_free against the spec's formula themselves.
struct StepRecord {
  Eigen::Index t = 0;  // 1-based step number, as in the pseudo-code boxes
  double eta = 0;
  const Eigen::VectorXd& w_prev;
  const Eigen::VectorXd& noise_free;                             // w_{t-1} + eta_t * (noise-free gradient)
  const Eigen::VectorXd& noisy;                                  // w'_t, the vector that is then normalised
  double lambda_hat = std::numeric_limits<double>::quiet_NaN();  // DP-PCA: the Lambda_hat_t used
};
// Called once per step when set (tests only; the hot loops do no extra work when it is empty).
using StepObserver = std::function<void(const StepRecord&)>;

// Throws dpb::InvalidArgument unless the input carries sample matrices with n >= 1 and d >= 2, k == 1
// (every liu2022 algorithm estimates the top eigenvector only), valid privacy parameters and
// replace-one neighbours (spec: liu2022 ambiguity 2: every sensitivity in the paper is replace-one).
void validate_oja_input(const Input& in, const std::string& owner, bool is_private);

// The worst-case replace-one claim at the requested (eps, delta) every private liu2022 algorithm makes
// (spec: liu2022 ambiguity 2), with its conditions.
PrivacyClaim replace_one_claim(const Privacy& privacy, std::vector<std::string> conditions);

// Assumption-1 constants (spec: liu2022 §1.2). Real-valued parameters whose value 0 means "read the
// oracle"; K and a have the paper's Gaussian defaults (Remark 3.4: K = 4, a = 1).
struct ModelConstantParams {
  double lambda1 = 0;  // 0: oracle eigenvalues[0]
  double lambda2 = 0;  // 0: oracle eigenvalues[1]
  double M = 0;        // 0: the Gaussian high-probability bound of ambiguity 32 (oracle Sigma)
  double V = 0;        // 0: oracle V
  double gamma = 0;    // 0: sqrt(oracle gamma2)
  double K = 4;
  double a = 1;
};
// The values resolved for one run (n is needed by the high-probability M).
struct ModelConstants {
  double lambda1 = 0, lambda2 = 0, M = 0, V = 0, gamma = 0, K = 4, a = 1;
  double gap() const { return lambda1 - lambda2; }
};
// Each quantity listed in `needed` ("lambda1", "lambda2", "M", "V", "gamma") is taken from `given` when
// it is > 0, else from the oracle; a missing oracle (or an oracle without that quantity) throws
// dpb::InvalidArgument naming the parameter to set. Quantities not listed stay 0.
ModelConstants resolve_constants(const ModelConstantParams& given, const core::ModelInfo* oracle,
                                 Eigen::Index n, double zeta, const std::vector<std::string>& needed,
                                 const std::string& owner);

// xi of Thm 2.2 in the unnormalised form of Eqs. (52)/(60) (spec: liu2022 §2.1):
//   xi = 20 max( M_raw h / gap , (V_raw + lambda1^2) h^2 / (gap^2 log(1 + zeta/100)) ).
double theory_xi(double M_raw, double V_raw, double lambda1, double gap, double h, double zeta);

// eta_t = c1 / (c2 + t), or a constant eta. The theory schedules are this form with c1 = h/gap and
// c2 = xi (spec: liu2022 §2.1, §2.2 D.3, §2.4 Eq. (60)).
struct StepSchedule {
  double c1 = 1, c2 = 0;
  bool constant = false;
  double eta = 0;
  double operator()(Eigen::Index t) const { return constant ? eta : c1 / (c2 + static_cast<double>(t)); }
};

// The practical schedules of §2.8 for the private variants: eta_t = c1/(c2 + t) with c1 = 0 meaning
// lr_mult/(lambda1 - lambda2) from the oracle, or a constant eta (eta = 0 meaning 0.5/n, cai2024 §2.8).
// constant_half_over_n: eta = 0.5/n whatever eta says (DESIGN §5's DP-Oja step).
enum class PracticalSchedule { inverse_time, constant, constant_half_over_n };
struct PracticalScheduleParams {
  PracticalSchedule kind = PracticalSchedule::inverse_time;
  double lr_mult = 1, c1 = 0, c2 = 1, eta = 0;
};
StepSchedule practical_schedule(const PracticalScheduleParams& p, const ModelConstantParams& constants,
                                const core::ModelInfo* oracle, Eigen::Index n, double zeta,
                                const std::string& owner);
// c1 and c2 of eta_t = c1/(c2 + t).
template <class P>
FieldTable<P>& inverse_time_fields(FieldTable<P>& table, double P::*c1, double P::*c2) {
  return table
      .real("c1", c1, 0.0, std::nullopt, "eta_t = c1/(c2 + t); 0: lr_mult/(lambda1 - lambda2) from the oracle",
            "liu2022 §2.8")
      .real("c2", c2, 0.0, std::nullopt, "eta_t = c1/(c2 + t)", "liu2022 §2.8");
}
// lr_mult, c1, c2 (and eta when with_constant); the kind is the owner's `step`.
FieldTable<PracticalScheduleParams> practical_schedule_fields(bool with_constant);

// Lemma 3.2's clipping threshold beta = C lambda1 sqrt(d) (K gamma log^a(c n d/zeta) + 1), with c = 2
// (spec: liu2022 ambiguity 1, the "<= 2" reading of A.4) or c = 1 (the printed nd/zeta).
double clip_threshold(double C, const ModelConstants& m, Eigen::Index n, Eigen::Index d, double zeta,
                      bool two_nd_over_zeta);

// w <- w' / ||w'||, without allocating. Throws dpb::InvalidArgument if w' is zero or not finite (NaN or
// infinite data), naming the step.
void normalize_into(const Eigen::VectorXd& w_prime, Eigen::VectorXd& w, Eigen::Index t,
                    const std::string& owner);

// The model constants lambda1, gamma, K, a (and lambda2, M, V when with_M_V).
FieldTable<ModelConstantParams> model_constant_fields(bool with_M_V);
// zeta, then the model constants: the tail every liu2022 schema shares.
template <class P>
FieldTable<P>& zeta_and_constants(FieldTable<P>& table, double P::*zeta, ModelConstantParams P::*constants,
                                  bool with_M_V) {
  return table.real("zeta", zeta, 1e-12, 0.5, "failure probability of the high-probability bounds", "liu2022 §8.1")
      .nest(constants, model_constant_fields(with_M_V));
}

}  // namespace dpb::alg::liu2022
