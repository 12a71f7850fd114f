#pragma once
// Packings of unit vectors for Fano / Barber–Duchi constructions, with the quantities the lower bounds
// read measured on the vectors actually built: log|V|, the extreme pairwise distances and the smallest
// pairwise sin (the PCA loss cannot tell v from -v, so separation in sin is what matters).
#include <Eigen/Dense>

#include "lowerbounds/constructions/binary_codes.hpp"

namespace dpb::lower {

struct SpherePacking {
  Eigen::MatrixXd vectors;  // d x |V|, unit columns
  double log_size = 0;      // log |V| (natural log)
  double min_distance = 0;  // min over pairs v != v' of ||v - v'||
  double max_distance = 0;  // max over pairs of ||v - v'||
  double min_sin = 0;       // min over pairs of sin(v, v') = sqrt(1 - <v, v'>^2)
};

// Measures a set of unit columns (at least two). Throws InvalidArgument if a column is not unit
// (tolerance unit_norm_tolerance) or there are fewer than two columns.
SpherePacking measure_packing(Eigen::MatrixXd vectors);
inline constexpr double unit_norm_tolerance = 1e-9;

// The packing {f(w) : w in code} of liu2022 Lemma C.5 (codeword_to_vector): for a constant-weight-l code
// of minimum distance >= l/2, alpha/sqrt(2) <= ||f(w) - f(w')|| <= sqrt(2) alpha (spec: liu2022 §5.2).
// Throws InvalidArgument unless the code has constant weight >= 1 and at least two words.
SpherePacking codeword_packing(const BinaryCode& code, double alpha);

}  // namespace dpb::lower
