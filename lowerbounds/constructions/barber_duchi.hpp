#pragma once
// Barber–Duchi bound, liu2022 Lemma C.4 ([6, Thm 3]; [000]'s Lemma C.6), spec: liu2022 §5.4 Eq. (26).
// For mixtures P_v = (1 - alpha) Q_0 + alpha Q_v, v in V, whose parameters are 2t-separated, every
// (eps, delta)-DP estimator satisfies, with m = ceil(n alpha) and E = e^{-eps m}:
//   (1/|V|) sum_v P_v(rho(theta_hat, theta_v) >= t)
//       >= (|V| - 1) ( E/2 - delta (1 - E)/(1 - e^{-eps}) ) / (1 + (|V| - 1) E).
namespace dpb::lower {

struct BarberDuchiInputs {
  double n = 0;         // sample size, >= 1
  double alpha = 0;     // mixture weight, in (0, 1]
  double eps = 0;       // > 0
  double delta = 0;     // in [0, 1)
  double log_size = 0;  // log |V| of the packing built, > 0
};

// The right-hand side of Eq. (26): a lower bound on the average probability of a t-error (may be negative,
// when delta is too large for the bound to say anything). Computed from log|V| so that |V| never overflows.
// Throws InvalidArgument on inputs outside the ranges above.
double barber_duchi_error_probability(const BarberDuchiInputs& in);

}  // namespace dpb::lower
