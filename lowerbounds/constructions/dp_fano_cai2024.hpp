#pragma once
// cai2024 Lemma 6, the DP-constrained Fano lemma (spec: cai2024 §5.1, eq. (9)). For product laws
// P_1..P_N with rho(theta_i, theta_j) >= rho0, KL(P_i || P_j) <= l0 and sum_k TV(mu_i^k, mu_j^k) <= t0
// for all i != j, every estimator that is (eps, delta)-DP on the family has
//   sup_P E rho(A, theta(P)) >= max{ (rho0/2) (1 - (l0 + log 2)/log N),
//                                    (rho0/4) (1 ∧ (N-1) e^{-a}) (1 - 2 delta e^{a}/(e^eps - 1)) },
// a = 4 eps t0 as printed. The exponent comes from Lemma 12 (group privacy through a maximal coupling),
// whose last step e^{2 eps t} >= 1 - t + t e^eps holds on [0, 1] only for eps <= kLemma12EpsilonLimit;
// beyond it a = 2 (e^eps - 1) t0 (spec A14). Callers pass the construction's measured log N and its
// exact KL (gaussian_kl, or a closed form checked against it) and a TV bound.
#include <Eigen/Dense>

namespace dpb::lower {

// Root of 2 eps + 1 = e^eps: the largest eps for which Lemma 12's printed exponent 2 eps sum t_k is valid.
inline constexpr double kLemma12EpsilonLimit = 1.2564312086261697;

enum class GroupPrivacyExponent {
  faithful,  // a = 4 eps t0 where Lemma 12 holds as printed, a = 2 (e^eps - 1) t0 beyond (spec A14)
  tight,  // a = 2 (e^eps - 1) t0 always: prod_k (1 - t_k + t_k e^eps) <= exp((e^eps - 1) sum t_k) for every
          // eps
};

struct DpFanoCai2024Input {
  double log_size = 0;    // log N, N >= 2 (log_size >= log 2)
  double separation = 0;  // rho0 > 0
  double kl = 0;          // l0 >= 0: max over i != j of KL(P_i || P_j) of the whole n-sample laws
  double tv_sum = 0;      // t0 >= 0: max over i != j of sum_k TV(mu_i^(k), mu_j^(k))
  double eps = 0;         // > 0
  double delta = 0;       // in [0, 1)
  GroupPrivacyExponent exponent = GroupPrivacyExponent::faithful;
};

struct DpFanoCai2024Value {
  double fano = 0;          // (rho0/2)(1 - (l0 + log 2)/log N), floored at 0
  double private_term = 0;  // (rho0/4)(1 ∧ (N-1)e^{-a})(1 - 2 delta e^a/(e^eps - 1)), floored at 0
  double exponent = 0;      // a
  double value() const { return fano > private_term ? fano : private_term; }
};

// Throws dpb::InvalidArgument on inputs outside the ranges above.
DpFanoCai2024Value dp_fano_cai2024(const DpFanoCai2024Input& in);

// KL(N(0, S1) || N(0, S2)) = (tr(S2^{-1} S1) - p + log det S2 - log det S1) / 2 for symmetric positive
// definite S1, S2 of one size (Cholesky); throws dpb::InvalidArgument otherwise.
double gaussian_kl(const Eigen::MatrixXd& S1, const Eigen::MatrixXd& S2);

}  // namespace dpb::lower
