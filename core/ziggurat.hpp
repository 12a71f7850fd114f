#pragma once
// Tables of the 256-layer ziggurat for the standard normal (Marsaglia & Tsang 2000, "The ziggurat
// method for generating random variables", J. Stat. Softw. 5(8)), computed at compile time.
//
// Layer 0 is the base strip with the tail (width X[0] = V / f(R)), layer i >= 1 spans heights
// f(X[i])..f(X[i+1]) with width X[i]; every layer has area V under f(x) = exp(-x^2 / 2). The tables are
// built with constexpr arithmetic below (plain IEEE double operations, no libm), so they are the same
// bits on every compiler and platform: a sampler's output depends on (seed, stream) alone.
#include <array>
#include <cstdint>

namespace dpb::core::ziggurat {

inline constexpr int kLayers = 256;
inline constexpr double kR = 3.6541528853610088;  // start of the tail (Marsaglia & Tsang, N = 256)

namespace detail {

constexpr double ln2 = 0x1.62e42fefa39efp-1;  // ln 2, correctly rounded

// exp(x) for x <= 1: x = k ln 2 + r with |r| <= ln 2 / 2, exp(r) by its Taylor series.
constexpr double exp(double x) {
  const double kd = x / ln2;
  const long k = static_cast<long>(kd < 0 ? kd - 0.5 : kd + 0.5);
  const double r = x - static_cast<double>(k) * ln2;
  double term = 1, sum = 1;
  for (int n = 1; n < 30; ++n) sum += (term *= r / n);
  for (long i = 0; i < k; ++i) sum *= 2;
  for (long i = 0; i > k; --i) sum /= 2;
  return sum;
}

// log(y) for y > 0: y = m 2^e with m in [1, 2), log m = 2 atanh((m - 1) / (m + 1)) by its series.
constexpr double log(double y) {
  int e = 0;
  while (y >= 2) y /= 2, ++e;
  while (y < 1) y *= 2, --e;
  const double z = (y - 1) / (y + 1), z2 = z * z;
  double power = z, sum = 0;
  for (int n = 1; n < 80; n += 2, power *= z2) sum += power / n;
  return e * ln2 + 2 * sum;
}

constexpr double sqrt(double y) {
  double x = y > 1 ? y : 1;
  for (int i = 0; i < 100; ++i) x = (x + y / x) / 2;
  return x;
}

constexpr double f(double x) { return exp(-x * x / 2); }

// The integral of f over [r, inf): f(r) times Mills' ratio, by its continued fraction
// 1 / (r + 1 / (r + 2 / (r + 3 / ...))) (converges fast for r > 3).
constexpr double tail_area(double r) {
  double t = 0;
  for (int k = 200; k >= 1; --k) t = k / (r + t);
  return f(r) / (r + t);
}

}  // namespace detail

// Area of each layer: the base strip's rectangle R f(R) plus the tail beyond R. Computed, not the
// published 4.92867323399e-3 (12 digits), so that the top layer closes to 1e-13 rather than 1e-9.
inline constexpr double kV = kR * detail::f(kR) + detail::tail_area(kR);

struct Tables {
  std::array<double, kLayers + 1> x{};  // layer widths, decreasing; x[kLayers] = 0
  std::array<double, kLayers + 1> f{};  // f(x[i]), increasing; f[kLayers] = 1
};

constexpr Tables make_tables() {
  Tables t;
  t.x[0] = kV / detail::f(kR);
  t.x[1] = kR;
  for (int i = 1; i < kLayers - 1; ++i) t.x[i + 1] = detail::sqrt(-2 * detail::log(kV / t.x[i] + detail::f(t.x[i])));
  t.x[kLayers] = 0;
  for (int i = 0; i <= kLayers; ++i) t.f[i] = detail::f(t.x[i]);
  return t;
}

// Defined in samplers.cpp as make_tables(), evaluated at compile time there once (a constexpr table in
// this header would be evaluated again by every file that includes it, about 0.25 s each).
extern const Tables kTables;

}  // namespace dpb::core::ziggurat
