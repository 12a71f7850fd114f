#pragma once
// Private Assouad (spec: kumar2025 §5.3 Lemma 21, with ASZ21's Lemma 31 inside) and its evaluation on
// the padded subcube actually built (Lemma 26):
//
//   R(P, l, eps, delta) >= constant * tau * dim * (min{|V_-i|, |V_+i|} / |V|) * (0.9 e^{-10 eps D} - 10 D
//   delta),
//
// constant = 1/2 as printed, or 1/4 (A16: Lemma 31 bounds the larger of the two error probabilities by
// half of its right-hand side, which halves the paper's constant). The result is clamped at 0 (a negative
// lower bound on a risk says nothing).
#include "lowerbounds/constructions/padded_subcube.hpp"

namespace dpb::lower {

enum class AssouadConstant { paper, conservative };  // 1/2 (Lemma 21 as printed) | 1/4 (A16, default)

double assouad_constant(AssouadConstant which);

struct AssouadInputs {
  double tau = 0;                // separation: l(theta_u, theta_v) >= 2 tau Hamming(u, v)
  int dimension = 0;             // cube dimension
  double min_fraction = 0;       // min{|V_-i|, |V_+i|} / |V|
  double coupling_distance = 0;  // D: expected Hamming distance of the per-coordinate couplings
};

// Lemma 21's right-hand side; throws dpb::InvalidArgument on tau <= 0, dimension < 1, min_fraction outside
// (0, 1/2], D < 0, eps < 0 or delta outside [0, 1].
double private_assouad_bound(const AssouadInputs& in, double eps, double delta,
                             AssouadConstant constant = AssouadConstant::conservative);

// Lemma 26's inputs measured on the built family with n samples: tau = measured_separation(cube),
// dim = m, min_fraction = 1/2 (V = {+-1}^m), D = n * max_i coordinate_touch_probability(cube, i).
AssouadInputs padded_subcube_assouad_inputs(const PaddedSubcube& cube, double n);

}  // namespace dpb::lower
