#pragma once
// Samplers on top of `Rng`. Every distribution used anywhere in dpbounds is drawn here, so that the
// same (seed, stream) gives the same numbers on every platform (no std:: distributions, whose output
// differs between standard libraries).
//
// Each sampler consumes the stream's 64-bit words in order, and the bulk fills below draw exactly the
// numbers their scalar sampler would draw one by one, in the order of the output: a vector filled at
// once equals the same vector filled element by element (a test holds both to it).
#include <Eigen/Dense>
#include <bit>
#include <cstdint>
#include <span>

#include "core/rng.hpp"
#include "core/ziggurat.hpp"

namespace dpb::core {

// The map uniform01 applies to one 64-bit draw: (m + 1/2) / 2^52 for m = the top 52 bits. Every
// value is exactly representable, so the result is never 0 or 1 (safe under log).
inline double uniform01_from_bits(std::uint64_t bits) {
  // 52 bits, not 53: m + 1/2 needs one bit more than m, and with m < 2^53 it would round (ties to
  // even), so m = 2^53 - 1 would map to exactly 1.
  return (static_cast<double>(static_cast<std::int64_t>(bits >> 12)) + 0.5) * 0x1.0p-52;
}
// Uniform on the open interval (0, 1): one draw, mapped by `uniform01_from_bits`.
inline double uniform01(Rng& rng) { return uniform01_from_bits(rng()); }
// Uniform on [a, b), a < b.
double uniform(Rng& rng, double a, double b);
// Standard normal N(0, 1): the 256-layer ziggurat of core/ziggurat.hpp. One 64-bit word per draw
// with probability 0.993: bits 0-7 pick the layer, bit 8 the sign, bits 11-63 the position in it.
inline double standard_normal(Rng& rng);
// Laplace with density exp(-|x|/b) / (2b), b > 0.
double laplace(Rng& rng, double b);
// Exponential with density rate * exp(-rate x) on x >= 0, rate > 0.
double exponential(Rng& rng, double rate);
// Standard Gumbel (location 0, scale 1): CDF exp(-exp(-x)).
double gumbel(Rng& rng);
// The map rademacher applies to one draw: +1 when the top bit is set, else -1 (1.0 with the
// complement of that bit as its sign: no branch on a coin flip).
inline double rademacher_from_bits(std::uint64_t bits) {
  return std::bit_cast<double>(0x3ff0000000000000ULL | (~bits & 0x8000000000000000ULL));
}
// +1 or -1 with probability 1/2 each.
inline double rademacher(Rng& rng) { return rademacher_from_bits(rng()); }
// Student-t with nu > 0 degrees of freedom (Boost.Random).
double student_t(Rng& rng, double nu);
// Chi-squared with df > 0 degrees of freedom (Boost.Random), e.g. the Bartlett diagonal of a Wishart draw.
double chi_squared(Rng& rng, double df);

// Bulk fills: out[i] = the i-th draw of the scalar sampler.
void fill_standard_normal(Rng& rng, std::span<double> out);
void fill_uniform01(Rng& rng, std::span<double> out);
void fill_laplace(Rng& rng, double b, std::span<double> out);
void fill_rademacher(Rng& rng, std::span<double> out);
// value += sd * (iid N(0, 1)), drawn in column-major order.
void add_gaussian_noise(Rng& rng, double sd, Eigen::Ref<Eigen::MatrixXd> value);

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

namespace detail {
// x >= 0 with bit 8 of w as its sign (no branch on a coin flip).
inline double with_sign_bit(double x, std::uint64_t w) {
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) | ((w & 0x100) << 55));
}

// The rest of a draw whose first word fell outside its layer's rectangle: the wedge test for layers
// >= 1, Marsaglia's tail for layer 0. Returns false to reject (the caller starts a fresh draw).
bool normal_outside_rectangle(Rng& rng, int layer, double x, double& out);
// Its wedge test, y < exp(-x^2 / 2) for layer >= 1, x in [x[layer + 1], x[layer]] and y in
// [f[layer], f[layer + 1]] (ziggurat.hpp): exactly that comparison with libm's exp, which is called only
// where lines cannot decide it. f is convex for x >= 1 and concave below, so on a layer's span its chord
// lies on one side of f and the tangents at both ends on the other. Only a y within 2^-40 f[layer + 1] of
// those bounds goes to exp: far more than the errors of libm's exp (under 1 ulp), of -x x / 2 (2^-53
// relative) and of the lines' few roundings. One test in 13 still calls exp: 1.1e-3 calls per normal draw,
// against 1.5e-2 when every test did.
bool below_density(int layer, double x, double y);

// The ziggurat's first step on one word: true and the draw in `out` when the word lands inside its
// layer's rectangle (probability 0.985), false when the draw needs `normal_outside_rectangle`, which
// then gets the unsigned candidate in `out`.
inline bool normal_in_rectangle(std::uint64_t w, double& out) {
  const auto& zig = ziggurat::kTables;
  const auto layer = static_cast<std::size_t>(w & 0xff);
  const double u = static_cast<double>(static_cast<std::int64_t>(w >> 11)) * 0x1.0p-53;  // [0, 1)
  const double x = u * zig.x[layer];
  out = x;
  if (x >= zig.x[layer + 1]) [[unlikely]]
    return false;
  out = with_sign_bit(x, w);
  return true;
}

}  // namespace detail

inline double standard_normal(Rng& rng) {
  for (;;) {
    const std::uint64_t w = rng();
    double x;
    if (detail::normal_in_rectangle(w, x)) return x;
    if (detail::normal_outside_rectangle(rng, static_cast<int>(w & 0xff), x, x))
      return detail::with_sign_bit(x, w);
  }
}

}  // namespace dpb::core
