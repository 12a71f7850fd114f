#pragma once
// Explicit values of liu2022's lower bounds, computed from the constructions actually built (spec: liu2022
// §5.3-5.5): the Lemma C.5 packing of the requested dimension (its measured log|V|, Hamming range and
// sin-separation), exact KL / TV of the families, then DP Fano or Barber–Duchi.
//
// Parameters read (bounds::Params): n, d, epsilon, and lambda1, lambda2 (Thm 5.3, C.1) or delta (Thm 5.4);
// construction parameters with defaults: packing_seed, packing_max_words.
#include <numbers>

#include "bounds/theorem.hpp"

namespace dpb::lower {

inline constexpr double default_packing_seed = 1;
inline constexpr double default_packing_max_words = 256;
// Thm 5.3 takes a sup over the packing radius alpha; it is taken on this log grid of (0, 1] (a max of
// valid lower bounds is a valid lower bound, so the grid only costs tightness).
inline constexpr double fano_alpha_grid_min = 1e-8;
inline constexpr int fano_alpha_grid_points_per_decade = 40;
// Thm 5.4's packing radius: ||v - v'|| >= alpha/sqrt(2) = 1/2, the separation [3, Lemma 6] provides.
inline constexpr double thm54_packing_alpha = std::numbers::sqrt2 / 2;

// Thm 5.3 (Gaussian, (eps, 0)-DP; Eq. (12)): sup over alpha of DP Fano (conservative over the two printed
// renderings) with tau = measured min sin, KL = exact Gaussian KL max over pairs
// (lambda1-lambda2)^2 (1 - <v,v'>^2)/(2 lambda1 lambda2), TV <= sqrt(KL/2) (Pinsker: two Gaussians with
// different covariances have no closed-form TV).
double liu2022_thm53_value(const bounds::Params& p);

// Thm 5.4 (no A.4, (eps, delta)-DP; Eq. (13)): Barber–Duchi with t = (measured min sin)/2 on the
// packing at radius thm54_packing_alpha, mixture weight liu2022_thm54_alpha below. Clamped at 0 where the
// bound says nothing.
double liu2022_thm54_value(const bounds::Params& p);
// Eq. (30) with its d/2 (a lower bound on log(2^d - 1) for the 2^d-point packing it assumes) replaced by
// log(|V| - 1) of the packing built: min{ (log(|V|-1) - eps)/(n eps), log((1-e^-eps)/(4 delta e^eps))/(n
// eps), 1 }. Throws InvalidArgument when it is <= 0.
double liu2022_thm54_alpha(double n, double eps, double delta, double log_size_minus_one);

// Thm C.1 (no A.4, fixed (lambda1, lambda2), (eps, 0)-DP; Eq. (19)): the privacy term of DP Fano
// (conservative over the renderings), tau = measured min sin of the packing at alpha = sqrt(lambda2/lambda1),
// TV = p exactly; the KL is infinite (the atoms differ), so the statistical term is void.
double liu2022_thmC1_value(const bounds::Params& p);

}  // namespace dpb::lower
