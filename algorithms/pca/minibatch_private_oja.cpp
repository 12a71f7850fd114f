#include "algorithms/pca/minibatch_private_oja.hpp"

#include <fmt/format.h>
#include <cmath>

#include "algorithms/mechanisms/clipping.hpp"
#include "algorithms/mechanisms/gaussian.hpp"
#include "core/errors.hpp"
#include "core/samplers.hpp"

namespace dpb::alg {
namespace {
const std::string kOwner = "liu2022.minibatch_private_oja";
}

MinibatchPrivateOja::MinibatchPrivateOja(MinibatchPrivateOjaParams params) : params_(std::move(params)) {
  if (!(params_.clip_constant > 0))
    throw InvalidArgument(fmt::format("{}: clip_constant must be > 0", kOwner));
  if (params_.T < 0)
    throw InvalidArgument(fmt::format("{}: T must be >= 1 (or 0 for ceil((log n)^2))", kOwner));
  if (!(params_.zeta > 0 && params_.zeta < 1))
    throw InvalidArgument(fmt::format("{}: zeta must lie in (0, 1)", kOwner));
}

MinibatchPrivateOjaSetup MinibatchPrivateOja::setup(const Input& in) const {
  liu2022::validate_oja_input(in, kOwner, /*is_private=*/true);
  const Eigen::Index n = in.samples->n(), d = in.samples->d();
  MinibatchPrivateOjaSetup s;
  // spec: liu2022 §8.1: T = ceil((log n)^2), B = floor(n/T)
  s.T = params_.T > 0 ? static_cast<Eigen::Index>(params_.T)
                      : static_cast<Eigen::Index>(std::ceil(std::pow(std::log(static_cast<double>(n)), 2)));
  s.B = n / s.T;
  if (s.B < (params_.faithful ? 2 : 1))
    throw InvalidArgument(
        fmt::format("{}: n = {} samples give B = floor(n/T) = {} per minibatch with T = {}; "
                    "needs B >= {} (lower T or raise n)",
                    kOwner, n, s.B, s.T, params_.faithful ? 2 : 1));
  const double eps = in.privacy.epsilon, delta = in.privacy.delta, T = static_cast<double>(s.T);
  // spec: liu2022 ambiguity 4 / §2.3: alpha = T sqrt(2 log(1.25 T/delta))/eps (serial, needs eps/T < 1)
  // or sqrt(2 log(1.25/delta))/eps (parallel, needs eps < 1); Lemma 2.4 with unit sensitivity.
  const bool serial = params_.composition == MinibatchPrivateOjaParams::Composition::serial;
  if (!classical_gaussian_applies(serial ? eps / T : eps, serial ? delta / T : delta))
    throw InvalidArgument(
        fmt::format("{}: Lemma 2.4 needs a per-step eps < 1; {} composition gives {} (eps = {}, T = {})",
                    kOwner, serial ? "serial" : "parallel", serial ? eps / T : eps, eps, s.T));
  s.noise_multiplier =
      serial ? classical_gaussian_sigma(1.0, eps / T, delta / T) : classical_gaussian_sigma(1.0, eps, delta);
  const auto m =
      liu2022::resolve_constants(params_.constants, in.oracle, n, params_.zeta, {"lambda1", "gamma"}, kOwner);
  s.clip = liu2022::clip_threshold(params_.clip_constant, m, n, d, params_.zeta, !params_.faithful);
  s.eta =
      liu2022::practical_schedule(params_.practical, params_.constants, in.oracle, n, params_.zeta, kOwner);
  return s;
}

PrivacyClaim MinibatchPrivateOja::claim(const Input& in) const {
  return liu2022::replace_one_claim(
      in.privacy,
      {params_.composition == MinibatchPrivateOjaParams::Composition::serial
           ? "serial composition (Lemma B.3) of T Gaussian steps at (eps/T, delta/T); needs eps/T < 1"
           : "parallel composition (Lemma B.2) over disjoint minibatches, each step (eps, delta); needs eps "
             "< 1",
       "clipping at beta bounds each step's replace-one sensitivity by 2 beta eta_t / B"});
}

Estimate MinibatchPrivateOja::run(const Input& in, core::Rng& rng) const { return run_observed(in, rng, {}); }

Estimate MinibatchPrivateOja::run_observed(const Input& in, core::Rng& rng,
                                           const liu2022::StepObserver& observer) const {
  const MinibatchPrivateOjaSetup s = setup(in);
  const core::SampleMatrices& A = *in.samples;
  const Eigen::Index d = A.d();
  Estimate est;
  est.claim = claim(in);
  // Terms per minibatch: B (spec: liu2022 ambiguity 4), or the printed B - 1 in faithful mode.
  const Eigen::Index terms = params_.faithful ? s.B - 1 : s.B;
  const double inv_B = 1.0 / static_cast<double>(s.B);
  const double step_eps = params_.composition == MinibatchPrivateOjaParams::Composition::serial
                              ? in.privacy.epsilon / static_cast<double>(s.T)
                              : in.privacy.epsilon;
  const double step_delta = params_.composition == MinibatchPrivateOjaParams::Composition::serial
                                ? in.privacy.delta / static_cast<double>(s.T)
                                : in.privacy.delta;
  const Eigen::MatrixXd* start = given_start(in, d, 1, kOwner);
  Eigen::VectorXd w = start ? Eigen::VectorXd(start->col(0)) : core::unit_sphere(rng, d), g(d), sum(d), w_prime(d),
                  noise_free;
  Eigen::Index clipped = 0;
  // Replacing a record changes (eta_t/B) sum clip_beta(A_i w) by at most 2 eta_t beta / B, in the one
  // minibatch that holds it (minibatches are disjoint).
  LedgerEntry entry = gaussian_entry("minibatch step: clipped gradient sum + Gaussian noise", 0, 0,
                                     Privacy{step_eps, step_delta, in.privacy.neighbours});
  entry.disjoint = true;
  for (Eigen::Index t = 1; t <= s.T; ++t) {
    // w'_t = w_{t-1} + (eta_t/B) sum_{i=B(t-1)+1}^{Bt} clip_beta(A_i w_{t-1}) + (2 eta_t beta alpha/B) z_t
    sum.setZero();
    for (Eigen::Index i = 0; i < terms; ++i) {
      A.apply(s.B * (t - 1) + i, w, g);
      if (l2_clip(g, s.clip)) ++clipped;
      sum += g;
    }
    const double eta_t = s.eta(t);
    w_prime = w + (eta_t * inv_B) * sum;
    if (observer) noise_free = w_prime;
    entry.sensitivity = 2 * eta_t * s.clip * inv_B;
    entry.noise_scale = 2 * eta_t * s.clip * s.noise_multiplier * inv_B;
    gaussian_mechanism(w_prime, entry, est.ledger, rng);
    if (in.record_transcript) {  // the auditor's white-box view: (w'_t - w_{t-1}) / eta_t and the batch it read
      const Eigen::Index first = s.B * (t - 1);
      est.transcript.push_back({"minibatch", w, (w_prime - w) / eta_t, entry.noise_scale / eta_t, inv_B, s.clip,
                                first, first + terms});
    }
    if (observer) observer({t, eta_t, w, noise_free, w_prime});
    liu2022::normalize_into(w_prime, w, t, kOwner);  // w_t = w'_t / ||w'_t||
  }
  est.Q = Eigen::MatrixXd(w);
  auto& c = est.diagnostics.counters;
  c["clipped"] = static_cast<double>(clipped);
  c["T"] = static_cast<double>(s.T);
  c["B"] = static_cast<double>(s.B);
  c["unused_samples"] = static_cast<double>(A.n() - s.T * s.B);
  c["noise_multiplier"] = s.noise_multiplier;
  c["clip_threshold"] = s.clip;
  return est;
}

}  // namespace dpb::alg
