#pragma once
// Samplers on top of `Rng`. Every distribution used anywhere in dpbounds is drawn here, so that the
// same (seed, stream) gives the same numbers on every platform (no std:: distributions, whose output
// differs between standard libraries).
#include <Eigen/Dense>
#include <cstdint>

#include "core/rng.hpp"

namespace dpb::core {

// Uniform on the open interval (0, 1): one draw, mapped by `uniform01_from_bits`.
double uniform01(Rng& rng);
// The map uniform01 applies to one 64-bit draw: (m + 1/2) / 2^52 for m = the top 52 bits. Every
// value is exactly representable, so the result is never 0 or 1 (safe under log).
double uniform01_from_bits(std::uint64_t bits);
// Uniform on [a, b), a < b.
double uniform(Rng& rng, double a, double b);
// Standard normal N(0, 1): Boost.Random's ziggurat.
double standard_normal(Rng& rng);
// Laplace with density exp(-|x|/b) / (2b), b > 0.
double laplace(Rng& rng, double b);
// Exponential with density rate * exp(-rate x) on x >= 0, rate > 0.
double exponential(Rng& rng, double rate);
// Standard Gumbel (location 0, scale 1): CDF exp(-exp(-x)).
double gumbel(Rng& rng);
// +1 or -1 with probability 1/2 each.
double rademacher(Rng& rng);
// Student-t with nu > 0 degrees of freedom (Boost.Random).
double student_t(Rng& rng, double nu);
// Chi-squared with df > 0 degrees of freedom (Boost.Random), e.g. the Bartlett diagonal of a Wishart draw.
double chi_squared(Rng& rng, double df);

// Vector / matrix of iid N(0, 1).
Eigen::VectorXd standard_normal_vector(Rng& rng, Eigen::Index d);
Eigen::MatrixXd standard_normal_matrix(Rng& rng, Eigen::Index rows, Eigen::Index cols);
// Uniform on the unit sphere S^{d-1} (normalised Gaussian).
Eigen::VectorXd unit_sphere(Rng& rng, Eigen::Index d);
// Haar-random d x k orthonormal frame: Q of the QR of an iid N(0,1) matrix, columns signed so that
// R has a positive diagonal (this sign fix is what makes the frame exactly Haar). Needs 1 <= k <= d.
Eigen::MatrixXd haar_frame(Rng& rng, Eigen::Index d, Eigen::Index k);
// GOE_d(s2) as dugler2026 Definition 3 defines it: symmetric, G_ii ~ N(0, 2 s2), G_ij ~ N(0, s2)
// for i < j, all independent. s2 >= 0.
Eigen::MatrixXd goe(Rng& rng, Eigen::Index d, double s2);
// Symmetric Gaussian noise: iid N(0, s^2) on the upper triangle including the diagonal, mirrored
// (cai2024 / Analyze-Gauss style). s >= 0.
Eigen::MatrixXd symmetric_gaussian(Rng& rng, Eigen::Index d, double s);

}  // namespace dpb::core
