#include "algorithms/pca/private_oja.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <limits>
#include <numeric>

#include "algorithms/mechanisms/clipping.hpp"
#include "algorithms/mechanisms/gaussian.hpp"
#include "core/errors.hpp"
#include "core/samplers.hpp"

namespace dpb::alg {
namespace {
const std::string kOwner = "liu2022.private_oja";
}

PrivateOjaParams PrivateOjaParams::cai2024_dp_oja() {
  PrivateOjaParams p;
  p.schedule = Schedule::constant;
  p.practical.kind = liu2022::PracticalSchedule::constant;
  p.practical.eta = 0;  // 0.5/n
  p.clip_constant = 0.2;
  p.noise_constant = 1;
  p.zeta = 0.01;
  p.constants.K = 4;
  p.constants.a = 1;
  p.constants.gamma = 1;
  return p;
}

double shuffled_epsilon(double eps0, std::int64_t n, double delta_s) {
  const double nd = static_cast<double>(n);
  if (!(eps0 <= std::log(nd / (16 * std::log(2 / delta_s))))) return std::numeric_limits<double>::infinity();
  const double e0 = std::exp(eps0);
  // spec: liu2022 §3.1 [external]
  return std::log1p((e0 - 1) / (e0 + 1) *
                    (8 * std::sqrt(e0 * std::log(4 / delta_s)) / std::sqrt(nd) + 8 * e0 / nd));
}

double shuffling_noise_multiplier(double epsilon, double delta, std::int64_t n) {
  const double delta_s = delta / 2;
  // (e^eps + 1)(1 + e^{-eps0}/2) n delta0 <= delta/2 with (1 + e^{-eps0}/2) <= 3/2.
  const double delta0 = delta / (3 * static_cast<double>(n) * (std::exp(epsilon) + 1));
  const auto excess = [&](double log_alpha) {
    const double eps0 = gaussian_epsilon(std::exp(log_alpha), delta0);
    return std::min(shuffled_epsilon(eps0, n, delta_s), 1e3) - epsilon;
  };
  double lo = -4, hi = 4;
  while (excess(hi) > 0) hi += 2;
  while (excess(lo) < 0 && lo > -40) lo -= 2;
  boost::uintmax_t iterations = 200;
  const auto [a, b] = boost::math::tools::toms748_solve(
      excess, lo, hi, boost::math::tools::eps_tolerance<double>(40), iterations);
  (void)a;
  return std::exp(b);  // the side where the bound is <= eps
}

PrivateOja::PrivateOja(PrivateOjaParams params) : params_(std::move(params)) {
  if (!(params_.clip_constant > 0 && params_.noise_constant > 0))
    throw InvalidArgument(fmt::format("{}: clip_constant and noise_constant must be > 0", kOwner));
  if (!(params_.zeta > 0 && params_.zeta < 1))
    throw InvalidArgument(fmt::format("{}: zeta must lie in (0, 1)", kOwner));
  if (!params_.shuffle && params_.calibration != PrivateOjaParams::NoiseCalibration::no_amplification)
    throw InvalidArgument(fmt::format(
        "{}: shuffle = false needs noise_calibration = no_amplification (Lemma 3.1 and the shuffling bound "
        "both rely on the uniform shuffle of line 1)",
        kOwner));
}

PrivateOjaParams PrivateOja::from_params(const core::ParamMap& p) {
  if (p.get_string("preset", "none", kOwner) == "cai2024_dp_oja") return PrivateOjaParams::cai2024_dp_oja();
  PrivateOjaParams o;
  const std::string step = p.get_string("step", "inverse_time", kOwner);
  o.practical = liu2022::read_practical_schedule(p, kOwner);
  if (step == "theory") {
    o.schedule = PrivateOjaParams::Schedule::theory;
  } else if (step == "constant" || step == "constant_half_over_n") {  // the latter: DESIGN §5's 0.5/n
    o.schedule = PrivateOjaParams::Schedule::constant;
    o.practical.kind = liu2022::PracticalSchedule::constant;
    if (step == "constant_half_over_n") o.practical.eta = 0;
  }
  const std::string cal = p.get_string("noise_calibration", "lemma3_1", kOwner);
  o.calibration = cal == "shuffling_bound"    ? PrivateOjaParams::NoiseCalibration::shuffling_bound
                  : cal == "no_amplification" ? PrivateOjaParams::NoiseCalibration::no_amplification
                                              : PrivateOjaParams::NoiseCalibration::lemma3_1;
  o.clip_constant = p.get_real("clip_constant", o.clip_constant, kOwner);
  o.noise_constant = p.get_real("noise_constant", o.noise_constant, kOwner);
  o.shuffle = liu2022::read_flag(p, "shuffle", true, kOwner);
  o.faithful = p.get_string("mode", "corrected", kOwner) == "faithful";
  o.lr_log_constant = p.get_real("lr_log_constant", o.lr_log_constant, kOwner);
  o.C2 = p.get_real("C2", o.C2, kOwner);
  o.C3 = p.get_real("C3", o.C3, kOwner);
  liu2022::read_zeta_and_constants(p, kOwner, o.zeta, o.constants);
  return o;
}

PrivateOjaSetup PrivateOja::setup(const Input& in) const {
  liu2022::validate_oja_input(in, kOwner, /*is_private=*/true);
  const Eigen::Index n = in.samples->n(), d = in.samples->d();
  const double nd = static_cast<double>(n), eps = in.privacy.epsilon, delta = in.privacy.delta;
  PrivateOjaSetup s;
  const bool theory = params_.schedule == PrivateOjaParams::Schedule::theory;
  s.constants =
      liu2022::resolve_constants(params_.constants, in.oracle, n, params_.zeta,
                                 theory ? std::vector<std::string>{"lambda1", "gamma", "lambda2", "M", "V"}
                                        : std::vector<std::string>{"lambda1", "gamma"},
                                 kOwner);
  // 2: noise multiplier
  switch (params_.calibration) {
    case PrivateOjaParams::NoiseCalibration::lemma3_1:
      s.noise_multiplier = params_.noise_constant * std::log(nd / delta) / (eps * std::sqrt(nd));
      break;
    case PrivateOjaParams::NoiseCalibration::shuffling_bound:  // spec: liu2022 §3.1 (explicit FMT bound)
      s.noise_multiplier = shuffling_noise_multiplier(eps, delta, n);
      break;
    case PrivateOjaParams::NoiseCalibration::no_amplification:  // spec: cai2024 §2.8 (each sample used once)
      s.noise_multiplier = classical_gaussian_sigma(1.0, eps, delta);
      break;
  }
  // 3: clipping threshold (spec: liu2022 ambiguity 1 for the log argument)
  s.clip = liu2022::clip_threshold(params_.clip_constant, s.constants, n, d, params_.zeta, !params_.faithful);
  if (!theory) {
    s.eta =
        liu2022::practical_schedule(params_.practical, params_.constants, in.oracle, n, params_.zeta, kOwner);
    return s;
  }
  // App. D.3: h = c log n; xi from Eq. (52) with M~ and V~ (spec: liu2022 §2.2)
  const auto& m = s.constants;
  const double h = params_.lr_log_constant * std::log(nd), ab = s.noise_multiplier * s.clip;
  const double M_tilde =
      m.M * m.lambda1 +
      2 * params_.C3 * ab * (std::sqrt(static_cast<double>(d)) + std::sqrt(std::log(nd / params_.zeta)));
  const double V_tilde = m.V * m.lambda1 * m.lambda1 + 4 * ab * ab * params_.C2 * static_cast<double>(d);
  s.eta = {h / m.gap(), liu2022::theory_xi(M_tilde, V_tilde, m.lambda1, m.gap(), h, params_.zeta)};
  return s;
}

PrivacyClaim PrivateOja::claim(const Input& in) const {
  // Worst case: clipping bounds every step's sensitivity by 2 beta eta_t.
  PrivacyClaim c = liu2022::replace_one_claim(in.privacy, {});
  const double n = in.samples ? static_cast<double>(in.samples->n()) : 0;
  switch (params_.calibration) {
    case PrivateOjaParams::NoiseCalibration::lemma3_1:
      // spec: liu2022 ambiguity 34
      c.conditions = {
          fmt::format("Lemma 3.1 regime eps = O(sqrt(log(n/delta)/n)) = O({:.3g}); got eps = {:g}",
                      n > 0 ? std::sqrt(std::log(n / in.privacy.delta) / n) : 0.0, in.privacy.epsilon),
          fmt::format(
              "C' = {:g} 'sufficiently large' (Eq. 45): the paper's O(.) constants are unspecified, so this "
              "is the paper's claim, not a verified bound (ambiguity 34)",
              params_.noise_constant),
          "uniform shuffle of the samples (line 1); the guarantee covers every iterate w_1..w_n"};
      break;
    case PrivateOjaParams::NoiseCalibration::shuffling_bound:
      c.conditions = {
          "noise multiplier calibrated with the explicit amplification-by-shuffling bound of spec §3.1 "
          "[external: FMT'21 explicit form, recalled from memory in the spec]",
          "uniform shuffle of the samples (line 1)"};
      break;
    case PrivateOjaParams::NoiseCalibration::no_amplification:
      c.conditions = {
          "each sample enters exactly one Gaussian step with noise/sensitivity = sqrt(2 log(1.25/delta))/eps "
          "(Lemma 2.4, parallel composition over disjoint samples); needs eps < 1"};
      break;
  }
  return c;
}

Estimate PrivateOja::run(const Input& in, core::Rng& rng) const { return run_observed(in, rng, {}); }

Estimate PrivateOja::run_observed(const Input& in, core::Rng& rng,
                                  const liu2022::StepObserver& observer) const {
  const PrivateOjaSetup s = setup(in);
  const core::SampleMatrices& A = *in.samples;
  const Eigen::Index n = A.n(), d = A.d();
  Estimate est;
  est.claim = claim(in);
  auto& diag = est.diagnostics;

  // 1: randomly permute S (uniform permutation, Fisher-Yates); w_0 ~ Unif(S^{d-1})
  std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  if (params_.shuffle)
    for (Eigen::Index i = n - 1; i > 0; --i) {
      const auto j = static_cast<Eigen::Index>(core::uniform01(rng) * static_cast<double>(i + 1));
      std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(std::min(j, i))]);
    }
  Eigen::VectorXd w = core::unit_sphere(rng, d), g(d), w_prime(d), noise_free;
  // 2-3: alpha and beta (setup)
  Eigen::Index clipped = 0;
  double largest_gradient = 0;  // max_t ||A_t w_{t-1}||, which Lemma 3.2 bounds by beta (C = 1)
  for (Eigen::Index t = 1; t <= n; ++t) {  // 4
    A.apply(order[static_cast<std::size_t>(t - 1)], w, g);
    largest_gradient = std::max(largest_gradient, g.norm());
    if (l2_clip(g, s.clip)) ++clipped;
    const double eta_t = s.eta(t);
    // 5-6: z_t ~ N(0, I_d); w'_t = w_{t-1} + eta_t clip_beta(A_t w_{t-1}) + 2 eta_t beta alpha z_t
    w_prime = w + eta_t * g;
    if (observer) noise_free = w_prime;
    add_gaussian_noise(w_prime, 2 * eta_t * s.clip * s.noise_multiplier, rng);
    if (observer) observer({t, eta_t, w, noise_free, w_prime});
    liu2022::normalize_into(w_prime, w, t, kOwner);  // 7
  }
  est.Q = Eigen::MatrixXd(w);
  diag.counters["clipped"] = static_cast<double>(clipped);
  diag.counters["steps"] = static_cast<double>(n);
  diag.counters["noise_multiplier"] = s.noise_multiplier;
  diag.counters["clip_threshold"] = s.clip;
  diag.counters["max_gradient_over_clip"] = largest_gradient / s.clip;
  diag.counters["eta_first"] = s.eta(1);
  diag.counters["eta_last"] = s.eta(n);
  diag.budget.push_back({params_.calibration == PrivateOjaParams::NoiseCalibration::no_amplification
                             ? "every step: Gaussian, one sample each (parallel composition)"
                             : "all n steps together (shuffled local randomizers)",
                         in.privacy.epsilon, in.privacy.delta});
  if (params_.schedule == PrivateOjaParams::Schedule::theory && !(static_cast<double>(n) > s.eta.c2))
    diag.notes.push_back(
        fmt::format("theory schedule: n = {} <= xi = {:.3g}, so Thm 3.3's bound does not apply "
                    "(spec: liu2022 ambiguity 16)",
                    n, s.eta.c2));
  return est;
}

}  // namespace dpb::alg
