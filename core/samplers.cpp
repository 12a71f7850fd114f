#include "core/samplers.hpp"

#include <algorithm>
#include <boost/random/chi_squared_distribution.hpp>
#include <boost/random/student_t_distribution.hpp>
#include <cmath>
#include <vector>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "core/errors.hpp"
#include "core/linalg.hpp"

namespace dpb::core {

constinit const ziggurat::Tables ziggurat::kTables = ziggurat::make_tables();

double uniform(Rng& rng, double a, double b) {
  if (!(a < b)) throw InvalidArgument("uniform: need a < b");
  // a + (b - a) u can round up to b when u is close to 1; keep the interval half-open.
  const double x = a + (b - a) * uniform01(rng);
  return x < b ? x : std::nextafter(b, a);
}

namespace detail {

bool normal_outside_rectangle(Rng& rng, int layer, double x, double& out) {
  const auto& zig = ziggurat::kTables;
  if (layer == 0) {
    // Marsaglia (1964): a = -log(u1) / R, b = -log(u2) until 2b > a^2; R + a is the tail draw.
    for (;;) {
      const double a = -std::log(uniform01(rng)) / ziggurat::kR;
      const double b = -std::log(uniform01(rng));
      if (b + b > a * a) {
        out = ziggurat::kR + a;
        return true;
      }
    }
  }
  // Under f in the wedge between the layer's rectangle and the next one's?
  const double y = zig.f[layer] + uniform01(rng) * (zig.f[layer + 1] - zig.f[layer]);
  out = x;
  return below_density(layer, x, y);
}

bool below_density(int layer, double x, double y) {
  const auto& zig = ziggurat::kTables;
  const double a = zig.x[layer + 1], b = zig.x[layer], fa = zig.f[layer + 1], fb = zig.f[layer];
  const double chord = fa + (x - a) * ((fb - fa) / (b - a));
  const double tangent_a = fa * (1 - a * (x - a)), tangent_b = fb * (1 + b * (b - x));
  const double margin = 0x1p-40 * fa;
  double lower = 0, upper = 1;  // 0 < f <= 1 everywhere
  // Convex on [a, b]: the tangents below f, the chord above; concave: the other way round.
  if (a >= 1) {
    lower = std::max(tangent_a, tangent_b);
    upper = chord;
  } else if (b <= 1) {
    lower = chord;
    upper = std::min(tangent_a, tangent_b);
  }
  if (y < lower - margin) return true;
  if (y >= upper + margin) return false;
  return y < std::exp(-x * x / 2);
}

}  // namespace detail

namespace {

// The ziggurat's first step over words[0..n): the draws of the words inside their rectangles into out, up to
// the first word that is not, whose unsigned candidate goes to `candidate`. Returns how many were inside.
std::size_t normals_in_rectangles(const std::uint64_t* words, std::size_t n, double* out, double& candidate) {
  std::size_t used = 0;
  while (used < n && detail::normal_in_rectangle(words[used], out[used])) ++used;
  if (used < n) candidate = out[used];
  return used;
}

#if defined(__x86_64__) && defined(__GNUC__)
// The same eight words at a time: the layer widths gathered, the same IEEE products and comparison, so the
// same bits. (AVX-512DQ converts 64-bit integers to doubles.)
#pragma GCC push_options
#pragma GCC target("avx2,avx512f,avx512dq")
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored \
    "-Wmaybe-uninitialized"  // GCC 12's intrinsics: _mm512_undefined_* (bug 105593)
std::size_t normals_in_rectangles_avx512(const std::uint64_t* words, std::size_t n, double* out,
                                         double& candidate) {
  const double* widths = ziggurat::kTables.x.data();
  const __m512i layer_mask = _mm512_set1_epi64(0xff), sign_mask = _mm512_set1_epi64(0x100);
  const __m512d unit = _mm512_set1_pd(0x1.0p-53);
  std::size_t used = 0;
  for (; used + 8 <= n; used += 8) {
    const __m512i w = _mm512_loadu_si512(words + used);
    const __m512i layer = _mm512_and_si512(w, layer_mask);
    const __m512d u = _mm512_mul_pd(_mm512_cvtepi64_pd(_mm512_srli_epi64(w, 11)), unit);
    const __m512d x = _mm512_mul_pd(u, _mm512_i64gather_pd(layer, widths, 8));
    const __m512d next = _mm512_i64gather_pd(layer, widths + 1, 8);
    const __mmask8 inside = _mm512_cmp_pd_mask(x, next, _CMP_NGE_UQ);  // not x >= next, as the scalar test
    const __m512d draw = _mm512_castsi512_pd(
        _mm512_or_si512(_mm512_castpd_si512(x), _mm512_slli_epi64(_mm512_and_si512(w, sign_mask), 55)));
    if (inside == 0xff) {
      _mm512_storeu_pd(out + used, draw);
      continue;
    }
    const auto first_outside = static_cast<unsigned>(__builtin_ctz(~static_cast<unsigned>(inside)));
    _mm512_mask_storeu_pd(out + used, static_cast<__mmask8>((1u << first_outside) - 1), draw);
    // From the register, not through `out`: a load from a masked store's bytes waits for the store to retire.
    candidate = _mm512_cvtsd_f64(_mm512_permutexvar_pd(_mm512_set1_epi64(first_outside), x));
    return used + first_outside;
  }
  return used + normals_in_rectangles(words + used, n - used, out + used, candidate);
}
#pragma GCC diagnostic pop
#pragma GCC pop_options
#endif

using RectangleStep = std::size_t (*)(const std::uint64_t*, std::size_t, double*, double&);

RectangleStep rectangle_step() {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq"))
    return normals_in_rectangles_avx512;
#endif
  return normals_in_rectangles;
}

}  // namespace

void fill_standard_normal(Rng& rng, std::span<double> out) {
  static const RectangleStep step = rectangle_step();
  std::size_t i = 0;
  while (i < out.size()) {
    // Run the ziggurat's first step over the buffered words; a word outside its rectangle hands the
    // stream to the scalar sampler's rest, which draws the words after it.
    const auto words = rng.pending();
    const std::size_t n = std::min(words.size(), out.size() - i);
    double x;
    const std::size_t used = step(words.data(), n, out.data() + i, x);
    i += used;
    if (used == n) {
      rng.skip(n);
      continue;
    }
    const std::uint64_t w = words[used];
    rng.skip(used + 1);
    if (detail::normal_outside_rectangle(rng, static_cast<int>(w & 0xff), x, x))
      out[i++] = detail::with_sign_bit(x, w);
    // A rejected draw starts over with the next word, as standard_normal does.
  }
}

namespace {

// out[i] = map(the i-th word): for samplers that use one word per draw, straight from the buffer.
template <class Map>
void fill_one_word_each(Rng& rng, std::span<double> out, Map map) {
  for (std::size_t i = 0; i < out.size();) {
    const auto words = rng.pending();
    const std::size_t n = std::min(words.size(), out.size() - i);
    for (std::size_t j = 0; j < n; ++j) out[i + j] = map(words[j]);
    rng.skip(n);
    i += n;
  }
}

}  // namespace

void fill_uniform01(Rng& rng, std::span<double> out) { fill_one_word_each(rng, out, uniform01_from_bits); }

void fill_laplace(Rng& rng, double b, std::span<double> out) {
  if (!(b > 0)) throw InvalidArgument("laplace: scale b must be > 0");
  for (double& v : out) v = laplace(rng, b);
}

void fill_rademacher(Rng& rng, std::span<double> out) { fill_one_word_each(rng, out, rademacher_from_bits); }

void add_gaussian_noise(Rng& rng, double sd, Eigen::Ref<Eigen::MatrixXd> value) {
  // Through the bulk sampler a piece of a column at a time, on the stack: a mechanism called once per step of
  // an iterative algorithm allocates nothing. The same draws in the same (column-major) order.
  constexpr Eigen::Index kPiece = 256;
  double noise[kPiece];
  for (Eigen::Index j = 0; j < value.cols(); ++j)
    for (Eigen::Index i = 0; i < value.rows(); i += kPiece) {
      const Eigen::Index m = std::min(kPiece, value.rows() - i);
      fill_standard_normal(rng, {noise, static_cast<std::size_t>(m)});
      add_scaled(value.col(j).data() + i, sd, noise, m);
    }
}

double laplace(Rng& rng, double b) {
  if (!(b > 0)) throw InvalidArgument("laplace: scale b must be > 0");
  const double e = -std::log(uniform01(rng));
  return rademacher(rng) * b * e;
}

double exponential(Rng& rng, double rate) {
  if (!(rate > 0)) throw InvalidArgument("exponential: rate must be > 0");
  return -std::log(uniform01(rng)) / rate;
}

double gumbel(Rng& rng) { return -std::log(-std::log(uniform01(rng))); }

double student_t(Rng& rng, double nu) {
  if (!(nu > 0)) throw InvalidArgument("student_t: degrees of freedom nu must be > 0");
  boost::random::student_t_distribution<double> t(nu);
  return t(rng);
}

double chi_squared(Rng& rng, double df) {
  if (!(df > 0)) throw InvalidArgument("chi_squared: degrees of freedom df must be > 0");
  boost::random::chi_squared_distribution<double> chi2(df);
  return chi2(rng);
}

Eigen::VectorXd standard_normal_vector(Rng& rng, Eigen::Index d) {
  Eigen::VectorXd v(d);
  fill_standard_normal(rng, {v.data(), static_cast<std::size_t>(d)});
  return v;
}

Eigen::MatrixXd standard_normal_matrix(Rng& rng, Eigen::Index rows, Eigen::Index cols) {
  Eigen::MatrixXd m(rows, cols);
  // Column-major fill order is part of the reproducibility contract.
  fill_standard_normal(rng, {m.data(), static_cast<std::size_t>(m.size())});
  return m;
}

Eigen::VectorXd unit_sphere(Rng& rng, Eigen::Index d) {
  if (d < 1) throw InvalidArgument("unit_sphere: dimension d must be >= 1");
  return safe_normalize(standard_normal_vector(rng, d));
}

Eigen::MatrixXd haar_frame(Rng& rng, Eigen::Index d, Eigen::Index k) {
  if (k < 1 || k > d) throw InvalidArgument("haar_frame: need 1 <= k <= d");
  return orthonormalize(standard_normal_matrix(rng, d, k));
}

namespace {

// The d (d + 1) / 2 draws of a symmetric matrix's upper triangle with its diagonal, in one bulk call; the
// callers place them column by column, in the order the scalar sampler would have drawn them.
std::vector<double> triangle_draws(Rng& rng, Eigen::Index d) {
  std::vector<double> z(static_cast<std::size_t>(d * (d + 1) / 2));
  fill_standard_normal(rng, z);
  return z;
}

}  // namespace

Eigen::MatrixXd goe(Rng& rng, Eigen::Index d, double s2) {
  if (!(s2 >= 0)) throw InvalidArgument("goe: variance s2 must be >= 0");
  const double off = std::sqrt(s2), diag = std::sqrt(2.0 * s2);
  const std::vector<double> z = triangle_draws(rng, d);
  Eigen::MatrixXd g(d, d);
  std::size_t next = 0;
  for (Eigen::Index j = 0; j < d; ++j) {  // column j: the entries above the diagonal, then the diagonal
    for (Eigen::Index i = 0; i < j; ++i) g(i, j) = g(j, i) = off * z[next++];
    g(j, j) = diag * z[next++];
  }
  return g;
}

Eigen::MatrixXd symmetric_gaussian(Rng& rng, Eigen::Index d, double s) {
  if (!(s >= 0)) throw InvalidArgument("symmetric_gaussian: scale s must be >= 0");
  const std::vector<double> z = triangle_draws(rng, d);
  Eigen::MatrixXd g(d, d);
  std::size_t next = 0;
  for (Eigen::Index j = 0; j < d; ++j)
    for (Eigen::Index i = 0; i <= j; ++i) g(i, j) = g(j, i) = s * z[next++];
  return g;
}

}  // namespace dpb::core
