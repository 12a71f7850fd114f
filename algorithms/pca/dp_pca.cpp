#include "algorithms/pca/dp_pca.hpp"

#include <fmt/format.h>
#include <cmath>

#include "core/errors.hpp"
#include "core/samplers.hpp"

namespace dpb::alg {
namespace {
const std::string kOwner = "liu2022.dp_pca";
}

DpPca::DpPca(DpPcaParams params) : params_(std::move(params)) {
  if (params_.T < 0 || params_.B < 0) throw InvalidArgument(fmt::format("{}: T and B must be >= 0", kOwner));
  if (params_.T > 0 && params_.B > 0)
    throw InvalidArgument(
        fmt::format("{}: give T or B, not both (got T = {}, B = {})", kOwner, params_.T, params_.B));
  if (!(params_.eig_multiplier_to_alg5 > 0))
    throw InvalidArgument(fmt::format("{}: eig_multiplier_to_alg5 must be > 0", kOwner));
  if (params_.bottom_policy == DpPcaParams::BottomPolicy::floor && !(params_.lambda_min > 0))
    throw InvalidArgument(
        fmt::format("{}: bottom_policy = floor needs lambda_min > 0, got {}", kOwner, params_.lambda_min));
  if (!(params_.zeta > 0 && params_.zeta < 1))
    throw InvalidArgument(fmt::format("{}: zeta must lie in (0, 1)", kOwner));
  params_.mean.K = params_.constants.K;
  params_.mean.a = params_.constants.a;
}

DpPcaSetup DpPca::setup(const Input& in) const {
  liu2022::validate_oja_input(in, kOwner, /*is_private=*/true);
  const Eigen::Index n = in.samples->n(), d = in.samples->d();
  const double nd = static_cast<double>(n), eps = in.privacy.epsilon, delta = in.privacy.delta;
  // spec: liu2022 §8.1: eps < 0.9 (Thm 5.1 / Lemma B.4), delta <= 1/n (Thm 5.1)
  if (!(eps < 0.9))
    throw InvalidArgument(fmt::format("{}: Thm 5.1 needs eps in (0, 0.9), got {}", kOwner, eps));
  if (!(delta <= 1.0 / nd))
    throw InvalidArgument(
        fmt::format("{}: Thm 5.1 needs delta <= 1/n = {:g}, got {:g}", kOwner, 1.0 / nd, delta));
  DpPcaSetup s;
  // Alg. 4 on the first half of a minibatch needs floor(B/2) >= 2k, k = ceil(C1 log(1/(delta zeta))/eps) + 2
  // subsets at (eps/2, delta/2, zeta/(2T)): a rule on public numbers only.
  const auto subsets = [&](Eigen::Index T) {
    const double zeta_step = params_.zeta / (2.0 * static_cast<double>(std::max<Eigen::Index>(T, 1)));
    return top_eigenvalue_subsets(eps / 2, delta / 2, zeta_step, params_.top.C1);
  };
  const auto feasible = [&](Eigen::Index T, Eigen::Index B) { return T >= 1 && B / 2 >= 2 * subsets(T); };
  if (params_.B > 0) {
    s.B = static_cast<Eigen::Index>(params_.B);
    s.T = n / s.B;
  } else if (params_.T > 0) {
    s.T = static_cast<Eigen::Index>(params_.T);
  } else {
    // The paper's T = ceil((log n)^2) leaves minibatches too small for Alg. 4 unless n is large (about 1e6 at
    // eps = 1): then the largest T below it that Alg. 4 can run (spec: liu2022 §8.1; docs/papers/liu2022.md).
    s.paper_T = static_cast<Eigen::Index>(std::ceil(std::pow(std::log(nd), 2)));
    for (s.T = s.paper_T; s.T > 1 && !feasible(s.T, n / s.T); --s.T) {
    }
  }
  if (params_.B == 0) s.B = n / s.T;
  s.half = s.B / 2;
  if (!feasible(s.T, s.B))
    throw InvalidArgument(fmt::format(
        "{}: n = {} gives T = {} minibatches of B = {}; Alg. 4 needs floor(B/2) >= 2k = {} (k = ceil(C1 "
        "log(1/(delta zeta))/eps) + 2 at (eps/2, delta/2, zeta/(2T))): raise n or eps{}",
        kOwner, n, s.T, s.B, 2 * subsets(s.T), params_.T > 0 || params_.B > 0 ? ", or lower T" : ""));
  if (params_.schedule == DpPcaParams::Schedule::inverse_time) {
    s.eta =
        liu2022::practical_schedule(params_.practical, params_.constants, in.oracle, n, params_.zeta, kOwner);
    return s;
  }
  // Eq. (60) (spec: liu2022 §2.4): alpha = c log n, beta_bar, M~, V~, xi
  const auto m =
      liu2022::resolve_constants(params_.constants, in.oracle, n, params_.zeta,
                                 {"lambda1", "lambda2", "M", "V", "gamma"}, kOwner + " (theory schedule)");
  const double alpha = params_.lr_log_constant * std::log(nd), Bd = static_cast<double>(s.B),
               dd = static_cast<double>(d);
  const double T = static_cast<double>(s.T), z = params_.zeta;
  const double beta_bar = 16 * m.K * m.gamma * m.lambda1 * std::pow(std::log(Bd * dd / z), m.a) *
                          std::sqrt(2 * dd * std::log(2.5 / delta)) / (eps * Bd);
  const double l = std::log(dd * T / z);
  const double M_tilde =
      params_.C3 * (m.M * m.lambda1 * l / Bd + std::sqrt(m.V * m.lambda1 * m.lambda1 * l / Bd) +
                    beta_bar * (std::sqrt(dd) + std::sqrt(std::log(T / z))));
  const double V_tilde = m.V * m.lambda1 * m.lambda1 / Bd + beta_bar * beta_bar * params_.C2 * dd;
  s.eta = {alpha / m.gap(), liu2022::theory_xi(M_tilde, V_tilde, m.lambda1, m.gap(), alpha, z)};
  return s;
}

PrivacyClaim DpPca::claim(const Input& in) const {
  // Replace-one with fixed positions and the same n (spec: liu2022 ambiguity 2).
  return liu2022::replace_one_claim(
      in.privacy,
      {"Thm 5.1: eps in (0, 0.9) (Lemma B.4 inside Alg. 5) and delta <= 1/n",
       "every sample enters exactly one (eps/2, delta/2) sub-mechanism (Alg. 4 or Alg. 5 of its minibatch): "
       "the "
       "replace-one level is really (eps/2, delta/2); audit against the claimed (eps, delta) (spec: liu2022 "
       "ambiguity 3)",
       "the BOTTOM / zero-eigenvalue fallback (skip or floor) is post-processing of DP outputs"});
}

Estimate DpPca::run(const Input& in, core::Rng& rng) const { return run_observed(in, rng, {}); }

Estimate DpPca::run_observed(const Input& in, core::Rng& rng, const liu2022::StepObserver& observer) const {
  const DpPcaSetup s = setup(in);
  const core::SampleMatrices& A = *in.samples;
  const Eigen::Index d = A.d();
  const Privacy half_budget{in.privacy.epsilon / 2, in.privacy.delta / 2, Neighbours::replace};
  const double zeta_step = params_.zeta / (2.0 * static_cast<double>(s.T));
  Estimate est;
  est.claim = claim(in);
  auto& diag = est.diagnostics;
  // Workspaces, allocated once.
  Eigen::MatrixXd G_scale(d, s.half), G_mean(d, s.half);
  TopEigenvalueWorkspace ws_top;
  PrivateMeanResult mean;
  Eigen::VectorXd w_prime(d), noise_free;
  Eigen::Index bottoms = 0, zeros = 0, skipped = 0, floored = 0, truncated = 0, empty = 0;

  // 1: w_0 ~ Unif(S^{d-1}), or the auditor's public start (Input::start)
  const Eigen::MatrixXd* start = given_start(in, d, 1, kOwner);
  Eigen::VectorXd w = start ? Eigen::VectorXd(start->col(0)) : core::unit_sphere(rng, d);
  for (Eigen::Index t = 1; t <= s.T; ++t) {  // 2
    const Eigen::Index base = s.B * (t - 1);
    // 3: Lambda_hat_t <- Alg4({A_{B(t-1)+i} w_{t-1}}_{i=1}^{floor(B/2)}; (eps/2, delta/2); zeta/(2T))
    for (Eigen::Index i = 0; i < s.half; ++i) A.apply(base + i, w, G_scale.col(i));
    // Alg. 4 and Alg. 5 of step t read the two halves of minibatch t: 2T disjoint batches in all.
    est.ledger.set_part(2 * (t - 1));
    const TopEigenvalueResult top =
        private_top_eigenvalue(G_scale, half_budget, zeta_step, params_.top, rng, ws_top, est.ledger);
    double lambda_hat = top.value.value_or(0.0);
    if (!top.value || top.zero_bin) {
      // The paper assumes Lambda_hat_t > 0 (spec: liu2022 §2.5, ambiguity 15).
      ++(top.value ? zeros : bottoms);
      if (params_.bottom_policy == DpPcaParams::BottomPolicy::skip) {
        ++skipped;
        diag.notes.push_back(fmt::format("step {}: Alg. 4 returned {}; step skipped (w_t = w_(t-1))", t,
                                         top.value ? "the [0,0] bin" : "BOTTOM"));
        continue;
      }
      diag.notes.push_back(fmt::format("step {}: Alg. 4 returned {}; Lambda_hat floored at lambda_min = {:g}",
                                       t, top.value ? "the [0,0] bin" : "BOTTOM", params_.lambda_min));
    }
    if (params_.bottom_policy == DpPcaParams::BottomPolicy::floor && lambda_hat < params_.lambda_min) {
      ++floored;
      lambda_hat = params_.lambda_min;
    }
    // 5: g_hat_t <- Alg5(second half; (eps/2, delta/2); zeta/(2T); approximate top eigenvalue 2 Lambda_hat_t)
    for (Eigen::Index i = 0; i < s.half; ++i) A.apply(base + s.half + i, w, G_mean.col(i));
    const double lambda_alg5 = params_.eig_multiplier_to_alg5 * lambda_hat;
    est.ledger.set_part(2 * (t - 1) + 1);
    private_mean(G_mean, half_budget, zeta_step, lambda_alg5, params_.mean, rng, mean, est.ledger);
    truncated += mean.truncated_entries;
    empty += mean.empty_histograms;
    // 6: w'_t = w_{t-1} + eta_t g_hat_t;  w_t = w'_t / ||w'_t||
    const double eta_t = s.eta(t);
    w_prime = w + eta_t * mean.mean;
    if (observer) {
      noise_free = w + eta_t * mean.truncated_mean;
      observer({t, eta_t, w, noise_free, w_prime, lambda_alg5});
    }
    liu2022::normalize_into(w_prime, w, t, kOwner);
  }
  est.ledger.set_part(-1);
  est.Q = Eigen::MatrixXd(w);
  auto& c = diag.counters;
  c["T"] = static_cast<double>(s.T);
  c["B"] = static_cast<double>(s.B);
  if (s.paper_T > s.T)
    diag.notes.push_back(fmt::format("T = ceil((log n)^2) = {} leaves minibatches too small for Alg. 4: ran with the "
                                     "largest T that fits, {}",
                                     s.paper_T, s.T));
  if (skipped > 0)  // counted from Alg. 4's released outputs (BOTTOM, the zero bin): post-processing
    est.release_notes.push_back(fmt::format(
        "{} of its {} steps were skipped: Alg. 4 released no eigenvalue scale for them{}", skipped, s.T,
        skipped == s.T ? ", so the output is its random starting direction (more records or a larger epsilon "
                         "would help)"
                       : ""));
  c["unused_samples"] = static_cast<double>(A.n() - 2 * s.half * s.T);
  c["bottom"] = static_cast<double>(bottoms);
  c["zero_bin"] = static_cast<double>(zeros);
  c["skipped_steps"] = static_cast<double>(skipped);
  c["floored_steps"] = static_cast<double>(floored);
  c["truncated_entries"] = static_cast<double>(truncated);
  c["empty_histograms"] = static_cast<double>(empty);
  return est;
}

}  // namespace dpb::alg
