#include "algorithms/pca/liu2022_common.hpp"

#include <fmt/format.h>
#include <cmath>
#include <cstdint>

#include "core/errors.hpp"

namespace dpb::alg::liu2022 {
namespace {

// out = x / by, entry by entry, correctly rounded as IEEE division is. In an Oja step on d = 100 the
// divisions were most of the normalisation's cost, so with FMA none is made per entry: for y = RN(1/b),
// q = RN(x y) and r = RN(x - b q) (one fma), RN(q + r y) is RN(x/b) in round-to-nearest (Brisebarre, Muller,
// Raina, IEEE Trans. Comput. 2004; where q is within an ulp of x/b, r is exact and this is Markstein's
// theorem), provided nothing underflows or overflows. That holds for b and x within [2^-500, 2^500] in
// magnitude; other entries (zeros, NaN, infinities) and other b are divided.
// Returns false, leaving out partly written, where some entry is outside that range: the caller then divides.
// x and out must not overlap. Called only where the CPU has the x86-64-v3 level (FMA among it), which the
// clones' resolver tests as well, so the default clone, whose std::fma would be libm's, is never run.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
bool divide_by_products(const double* __restrict x, double b, double* __restrict out, Eigen::Index n) noexcept {
  const double lo = 0x1.0p-500, hi = 0x1.0p500;
  if (!(std::abs(b) >= lo && std::abs(b) <= hi)) return false;
  const double y = 1.0 / b;
  std::int64_t outside = 0;  // as wide as a double's lane, so that the loop vectorises
  for (Eigen::Index i = 0; i < n; ++i) {
    const double a = x[i], q = a * y, magnitude = std::abs(a);
    out[i] = std::fma(std::fma(-b, q, a), y, q);
    outside |= static_cast<std::int64_t>(!((magnitude >= lo) & (magnitude <= hi)));
  }
  return outside == 0;
}

void divide_into(const Eigen::VectorXd& x, double by, Eigen::VectorXd& out) {
  out.resize(x.size());
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool has_fma_level = __builtin_cpu_supports("x86-64-v3");
  if (has_fma_level && x.data() != out.data() && divide_by_products(x.data(), by, out.data(), x.size()))
    return;
#endif
  out = x / by;
}

}  // namespace

void validate_oja_input(const Input& in, const std::string& owner, bool is_private) {
  if (!in.samples)
    throw InvalidArgument(
        fmt::format("{}: needs sample matrices A_i (Input.samples); none were given", owner));
  if (in.samples->n() < 1) throw InvalidArgument(fmt::format("{}: needs n >= 1 samples, got 0", owner));
  if (in.samples->d() < 2)
    throw InvalidArgument(fmt::format("{}: needs dimension d >= 2, got d = {}", owner, in.samples->d()));
  if (in.k != 1)
    throw InvalidArgument(
        fmt::format("{}: estimates the top eigenvector only (k = 1), got k = {}; use baseline.k_dp_pca or "
                    "baseline.k_dp_ojas for k > 1",
                    owner, in.k));
  if (!is_private) return;
  validate(in.privacy);
  if (!(in.privacy.delta > 0))
    throw InvalidArgument(fmt::format("{}: is (eps, delta)-DP with delta > 0; got delta = 0", owner));
  // spec: liu2022 ambiguity 2
  if (in.privacy.neighbours != Neighbours::replace)
    throw InvalidArgument(fmt::format(
        "{}: supports replace-one neighbours only (every sensitivity in liu2022 is replace-one, spec "
        "ambiguity 2); got add_remove",
        owner));
}

PrivacyClaim replace_one_claim(const Privacy& privacy, std::vector<std::string> conditions) {
  PrivacyClaim c;
  c.epsilon = privacy.epsilon;
  c.delta = privacy.delta;
  c.neighbours = Neighbours::replace;  // spec: liu2022 ambiguity 2
  c.scope = ClaimScope::worst_case;
  c.conditions = std::move(conditions);
  return c;
}

namespace {

double oracle_quantity(const core::ModelInfo* oracle, const std::string& name, Eigen::Index n, double zeta,
                       const std::string& owner) {
  const auto missing = [&](const std::string& why) {
    return InvalidArgument(
        fmt::format("{}: needs {} (set the parameter '{}' > 0, or run in simulation with a model oracle); {}",
                    owner, name, name, why));
  };
  if (!oracle) throw missing("no oracle was given");
  if (name == "lambda1" || name == "lambda2") {
    const Eigen::Index i = name == "lambda1" ? 0 : 1;
    if (oracle->eigenvalues.size() <= i) throw missing("the oracle has no such eigenvalue");
    return oracle->eigenvalues[i];
  }
  if (name == "V") {
    if (!oracle->V) throw missing("the oracle's model has no closed-form V");
    return *oracle->V;
  }
  if (name == "gamma") {
    if (!oracle->gamma2) throw missing("the oracle's model has no closed-form gamma^2");
    return std::sqrt(*oracle->gamma2);
  }
  // M: A.2 fails literally for Gaussian data (spec: liu2022 ambiguity 32). Use the high-probability
  // bound max_i ||x x^T - Sigma|| <= max(||x||^2, lambda1) with the Laurent-Massart tail
  // ||x||^2 <= tr S + 2 sqrt(tr(S^2) t) + 2 lambda1 t, t = log(n/zeta) (union over n samples). Valid for
  // Gaussian x; an upper bound otherwise only for lighter tails.
  if (oracle->eigenvalues.size() == 0) throw missing("the oracle has no eigenvalues");
  const Eigen::VectorXd& ev = oracle->eigenvalues;
  const double l1 = ev[0], t = std::log(static_cast<double>(n) / zeta);
  const double norm2 = ev.sum() + 2 * std::sqrt(ev.squaredNorm() * t) + 2 * l1 * t;
  return std::max(1.0, norm2 / l1);
}

}  // namespace

ModelConstants resolve_constants(const ModelConstantParams& given, const core::ModelInfo* oracle,
                                 Eigen::Index n, double zeta, const std::vector<std::string>& needed,
                                 const std::string& owner) {
  ModelConstants m;
  m.K = given.K;
  m.a = given.a;
  for (const auto& name : needed) {
    const double explicit_value = name == "lambda1"   ? given.lambda1
                                  : name == "lambda2" ? given.lambda2
                                  : name == "M"       ? given.M
                                  : name == "V"       ? given.V
                                                      : given.gamma;
    const double value = explicit_value > 0 ? explicit_value : oracle_quantity(oracle, name, n, zeta, owner);
    if (name == "lambda1") m.lambda1 = value;
    if (name == "lambda2") m.lambda2 = value;
    if (name == "M") m.M = value;
    if (name == "V") m.V = value;
    if (name == "gamma") m.gamma = value;
  }
  if (m.lambda2 > 0 && !(m.lambda1 > m.lambda2))
    throw InvalidArgument(fmt::format(
        "{}: needs an eigengap lambda1 > lambda2 (spec: liu2022 A.1), got lambda1 = {}, lambda2 = {}", owner,
        m.lambda1, m.lambda2));
  return m;
}

double theory_xi(double M_raw, double V_raw, double lambda1, double gap, double h, double zeta) {
  // spec: liu2022 §2.1 (Thm 2.2), unnormalised form of Eqs. (52) and (60)
  return 20.0 * std::max(M_raw * h / gap,
                         (V_raw + lambda1 * lambda1) * h * h / (gap * gap * std::log1p(zeta / 100)));
}

StepSchedule practical_schedule(const PracticalScheduleParams& p, const ModelConstantParams& constants,
                                const core::ModelInfo* oracle, Eigen::Index n, double zeta,
                                const std::string& owner) {
  const double half_over_n = 0.5 / static_cast<double>(n);  // spec: cai2024 §2.8 (0.5/n)
  if (p.kind == PracticalSchedule::constant_half_over_n) return {0, 0, true, half_over_n};
  if (p.kind == PracticalSchedule::constant) return {0, 0, true, p.eta > 0 ? p.eta : half_over_n};
  if (p.c1 > 0) return {p.c1, p.c2};
  // spec: liu2022 §2.4 "c1 ~ alpha/(lambda1 - lambda2)"
  if (!oracle && !(constants.lambda1 > 0 && constants.lambda2 > 0))
    throw InvalidArgument(fmt::format(
        "{}: its learning rate c1/(c2 + t) needs the eigengap of the data's covariance, which only you can know "
        "on your own data: set the parameter c1 > 0 (about 1/(lambda1 - lambda2) for the gap between its two "
        "largest eigenvalues), or lambda1 and lambda2; in simulation the model's oracle gives them",
        owner));
  const auto m =
      resolve_constants(constants, oracle, n, zeta, {"lambda1", "lambda2"}, owner + " (c1 = 0: lr_mult/gap)");
  return {p.lr_mult / m.gap(), p.c2};
}

FieldTable<PracticalScheduleParams> practical_schedule_fields(bool with_constant) {
  using P = PracticalScheduleParams;
  FieldTable<P> t;
  t.real("lr_mult", &P::lr_mult, 1e-12, std::nullopt,
         "learning-rate multiplier: c1 = lr_mult/(lambda1 - lambda2) when c1 = 0", "liu2022 §2.4, §8.1");
  inverse_time_fields(t, &P::c1, &P::c2);
  if (with_constant)
    t.real("eta", &P::eta, 0.0, std::nullopt, "constant step (step = constant); 0 means 0.5/n", "cai2024 §2.8");
  return t;
}

double clip_threshold(double C, const ModelConstants& m, Eigen::Index n, Eigen::Index d, double zeta,
                      bool two_nd_over_zeta) {
  // spec: liu2022 §2.2 line 3; ambiguity 1 for the factor 2 in the log argument
  const double arg = (two_nd_over_zeta ? 2.0 : 1.0) * static_cast<double>(n) * static_cast<double>(d) / zeta;
  return C * m.lambda1 * std::sqrt(static_cast<double>(d)) *
         (m.K * m.gamma * std::pow(std::log(arg), m.a) + 1);
}

void normalize_into(const Eigen::VectorXd& w_prime, Eigen::VectorXd& w, Eigen::Index t,
                    const std::string& owner) {
  const double norm = w_prime.norm();
  if (!(std::isfinite(norm) && norm > 0))
    throw InvalidArgument(fmt::format(
        "{}: the iterate at step {} is zero or not finite (the data must be finite; got ||w'|| = {})", owner,
        t, norm));
  divide_into(w_prime, norm, w);
}

FieldTable<ModelConstantParams> model_constant_fields(bool with_M_V) {
  using P = ModelConstantParams;
  const std::string ref = "liu2022 §1.2, §8.1";
  FieldTable<P> t;
  t.real("lambda1", &P::lambda1, 0.0, std::nullopt, "top eigenvalue of Sigma; 0 reads the oracle (simulation only)", ref)
      .real("gamma", &P::gamma, 0.0, std::nullopt,
            "A.4 gamma (sqrt of gamma^2); 0 reads the oracle's gamma2 (simulation only)", ref)
      .real("K", &P::K, 1e-12, std::nullopt, "A.4 tail constant K (Remark 3.4: K = 4 for Gaussian data)", ref)
      .real("a", &P::a, 1e-12, std::nullopt, "A.4 tail exponent a (1: sub-exponential, 1/2: sub-Gaussian)", ref);
  if (with_M_V)
    t.real("lambda2", &P::lambda2, 0.0, std::nullopt,
           "second eigenvalue (theory schedule); 0 reads the oracle (simulation only)", ref)
        .real("M", &P::M, 0.0, std::nullopt,
              "A.2 bound M (normalised by lambda1); 0: the Gaussian high-probability bound from the oracle's Sigma "
              "(ambiguity 32)",
              "liu2022 ambiguity 32")
        .real("V", &P::V, 0.0, std::nullopt, "A.3 bound V (normalised by lambda1^2); 0 reads the oracle", ref);
  return t;
}

}  // namespace dpb::alg::liu2022
