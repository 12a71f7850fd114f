#include "algorithms/pca/private_oja.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "algorithms/mechanisms/accountant.hpp"
#include "algorithms/mechanisms/clipping.hpp"
#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/mechanisms/shuffling.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"
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

PrivateOjaParams with_preset(const PrivateOjaParams& p) {
  return p.preset == PrivateOjaParams::Preset::cai2024_dp_oja ? PrivateOjaParams::cai2024_dp_oja() : p;
}

PrivateOja::PrivateOja(PrivateOjaParams params) : params_(std::move(params)) {
  if (!(params_.clip_constant > 0 && params_.noise_constant > 0))
    throw InvalidArgument(fmt::format("{}: clip_constant and noise_constant must be > 0", kOwner));
  if (!(params_.zeta > 0 && params_.zeta < 1))
    throw InvalidArgument(fmt::format("{}: zeta must lie in (0, 1)", kOwner));
  if (!params_.shuffle && params_.calibration != PrivateOjaParams::NoiseCalibration::no_amplification &&
      params_.calibration != PrivateOjaParams::NoiseCalibration::proven)
    throw InvalidArgument(fmt::format(
        "{}: shuffle = false needs noise_calibration = no_amplification or proven (Lemma 3.1 and the "
        "shuffling bound both rely on the uniform shuffle of line 1)",
        kOwner));
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
      if (!shuffling_applies(delta, n))
        throw InvalidArgument(fmt::format(
            "{}: the shuffling bound needs n > 16 log(4/delta) = {:.3g} records, got n = {}; use "
            "noise_calibration = proven",
            kOwner, 16 * std::log(4 / delta), n));
      s.noise_multiplier = shuffling_noise_multiplier(eps, delta, n);
      break;
    case PrivateOjaParams::NoiseCalibration::proven:
      // Each sample enters one step (parallel composition): the exact Gaussian multiplier suffices alone;
      // after the shuffle, the amplification bound may allow less noise.
      s.noise_multiplier = analytic_gaussian_sigma(1.0, eps, delta);
      if (params_.shuffle && shuffling_applies(delta, n))
        s.noise_multiplier = std::min(s.noise_multiplier, shuffling_noise_multiplier(eps, delta, n));
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

LedgerEntry PrivateOja::step_entry(const Input& in, const PrivateOjaSetup& s) const {
  // Replacing a record changes eta_t clip_beta(A_t w) by at most 2 eta_t beta, in the one step that reads it.
  LedgerEntry e = gaussian_entry("Oja steps: clipped gradient + Gaussian noise, one record each",
                                 2 * s.clip, 2 * s.clip * s.noise_multiplier, in.privacy);
  e.disjoint = true;
  if (params_.shuffle) {
    e.mechanism = Mechanism::shuffled_gaussian;
    e.records = static_cast<std::size_t>(in.samples->n());
  }
  return e;
}

PrivacyClaim PrivateOja::claim(const Input& in) const {
  // Worst case: clipping bounds every step's sensitivity by 2 beta eta_t. The claim is what the ledger of
  // the planned steps gives (for lemma3_1 that may be more than the eps asked for).
  const PrivateOjaSetup s = setup(in);
  Ledger planned;
  planned.record(step_entry(in, s));
  const Spend spend = account(planned, in.privacy.delta, in.privacy.neighbours);
  const EntryCost cost = entry_cost(planned.entries().front(), in.privacy.neighbours);
  PrivacyClaim c = liu2022::replace_one_claim(in.privacy, {});
  c.epsilon = std::max(in.privacy.epsilon, spend.epsilon);
  c.conditions = {fmt::format("noise multiplier alpha = {:.4g}: {}", s.noise_multiplier, cost.theorem)};
  if (params_.calibration == PrivateOjaParams::NoiseCalibration::lemma3_1) {
    const double n = static_cast<double>(in.samples->n());
    // spec: liu2022 ambiguity 34
    c.conditions.push_back(fmt::format(
        "paper's mode (Lemma 3.1): asymptotic, for eps = O(sqrt(log(n/delta)/n)) = O({:.3g}) and a "
        "'sufficiently large' unspecified C' (here {:g}); the eps above is what the noise proves at this n, "
        "not the paper's claim",
        std::sqrt(std::log(n / in.privacy.delta) / n), params_.noise_constant));
    if (spend.epsilon > in.privacy.epsilon * (1 + 1e-9))
      c.conditions.push_back(fmt::format("the eps asked for, {:g}, is NOT achieved at this n", in.privacy.epsilon));
  }
  if (params_.shuffle) c.conditions.push_back("uniform shuffle of the samples (line 1); covers every iterate w_1..w_n");
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
  const Eigen::MatrixXd* start = given_start(in, d, 1, kOwner);
  Eigen::VectorXd w = start ? Eigen::VectorXd(start->col(0)) : core::unit_sphere(rng, d), g(d), w_prime(d), noise_free;
  // 2-3: alpha and beta (setup)
  LedgerEntry entry = step_entry(in, s);
  // The auditor's white-box view: each step's release, and which record it read unless the claim rests on
  // that staying secret (amplification by shuffling). Asked for only by the auditor: other runs skip the
  // accountant here.
  const bool order_public = in.record_transcript && !entry_cost(entry, in.privacy.neighbours).needs_secret_order;
  if (in.record_transcript) est.transcript.reserve(static_cast<std::size_t>(n));
  Eigen::Index clipped = 0;
  double largest_gradient = 0;  // max_t ||A_t w_{t-1}||, which Lemma 3.2 bounds by beta (C = 1)
  for (Eigen::Index t = 1; t <= n; ++t) {  // 4
    // The record four steps ahead: one step (~400 ns) does not always cover a miss to memory.
    if (t + 3 < n) A.prefetch(order[static_cast<std::size_t>(t + 3)]);
    A.apply(order[static_cast<std::size_t>(t - 1)], w, g);
    const double gradient_norm = g.norm();
    largest_gradient = std::max(largest_gradient, gradient_norm);
    if (l2_clip(g, s.clip, gradient_norm)) ++clipped;
    const double eta_t = s.eta(t);
    // 5-6: z_t ~ N(0, I_d); w'_t = w_{t-1} + eta_t clip_beta(A_t w_{t-1}) + 2 eta_t beta alpha z_t
    w_prime = w;
    core::add_scaled(w_prime.data(), eta_t, g.data(), d);
    if (observer) noise_free = w_prime;
    entry.sensitivity = 2 * eta_t * s.clip;
    entry.noise_scale = entry.sensitivity * s.noise_multiplier;
    gaussian_mechanism(w_prime, entry, est.ledger, rng);
    if (in.record_transcript) {
      // (w'_t - w_{t-1}) / eta_t = clip_beta(A_t w_{t-1}) + N(0, (2 beta alpha)^2)
      const Eigen::Index record = order[static_cast<std::size_t>(t - 1)];
      est.transcript.push_back({"step", w, (w_prime - w) / eta_t, entry.noise_scale / eta_t, 1, s.clip,
                                order_public ? record : 0, order_public ? record + 1 : -1});
    }
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
  if (params_.schedule == PrivateOjaParams::Schedule::theory && !(static_cast<double>(n) > s.eta.c2))
    diag.notes.push_back(
        fmt::format("theory schedule: n = {} <= xi = {:.3g}, so Thm 3.3's bound does not apply "
                    "(spec: liu2022 ambiguity 16)",
                    n, s.eta.c2));
  return est;
}

}  // namespace dpb::alg
