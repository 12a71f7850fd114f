#pragma once
// DP Fano inequality, liu2022 Theorem C.2 ("[3, Corollary 4]"), in both printed renderings
// (spec: liu2022 §5.1, Ambiguity 22). For (eps, 0)-DP estimators and a family {P_v : v in V} with
// rho(theta_v, theta_v') >= tau, KL(P_v, P_v') <= beta and TV(P_v, P_v') <= phi for all v != v':
//   inf sup E rho >= max( (tau/2)(1 - (n beta + log 2)/log|V|), 0.4 tau SECOND ),
//   SECOND = min(1, log|V| / (n phi eps))          ([003], the main-text rendering)
//   SECOND = min(1, |V| / e^{10 n phi eps})        ([000], the appendix rendering; matches the cited source).
// Callers pass the construction's measured log|V| and its exact KL / TV (beta = +infinity is allowed: the
// first term then vanishes, as for the mixtures of Thm C.1 whose atoms differ).
namespace dpb::lower {

enum class FanoVariant { printed_003, printed_000 };

struct FanoInputs {
  double n = 0;         // sample size, >= 1
  double eps = 0;       // privacy level, > 0
  double tau = 0;       // separation in the loss, > 0
  double kl = 0;        // beta: max pairwise KL, >= 0 (may be +inf)
  double tv = 0;        // phi: max pairwise TV, in (0, 1]
  double log_size = 0;  // log |V|, > 0
};

// The two terms and their max; throws InvalidArgument on inputs outside the ranges above.
struct FanoBound {
  double statistical = 0;  // (tau/2)(1 - (n beta + log 2)/log|V|), may be negative
  double privacy = 0;      // 0.4 tau SECOND
  double value() const { return statistical > privacy ? statistical : privacy; }
};
FanoBound dp_fano(const FanoInputs& in, FanoVariant variant);

// The two printed renderings disagree (Ambiguity 22); the smaller of the two is valid whichever is right.
double dp_fano_conservative(const FanoInputs& in);

}  // namespace dpb::lower
