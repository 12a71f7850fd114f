#include "algorithms/pca/oja.hpp"

#include <fmt/format.h>
#include <cmath>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/samplers.hpp"

namespace dpb::alg {
namespace {
const std::string kOwner = "liu2022.oja";
}

Oja::Oja(OjaParams params) : params_(std::move(params)) {
  if (!(params_.lr_mult > 0)) throw InvalidArgument(fmt::format("{}: lr_mult must be > 0", kOwner));
  if (params_.schedule == OjaParams::Schedule::theory && !(params_.lr_mult > 0.5))
    throw InvalidArgument(fmt::format(
        "{}: the theory schedule needs lr_mult (alpha of Thm 2.2) > 1/2, got {}", kOwner, params_.lr_mult));
  if (!(params_.c2 >= 0)) throw InvalidArgument(fmt::format("{}: c2 must be >= 0", kOwner));
  if (!(params_.zeta > 0 && params_.zeta < 1))
    throw InvalidArgument(fmt::format("{}: zeta must lie in (0, 1)", kOwner));
}

liu2022::StepSchedule Oja::schedule(const Input& in) const {
  const Eigen::Index n = in.samples->n();
  if (params_.schedule == OjaParams::Schedule::inverse_time) {
    if (params_.c1 > 0) return {params_.c1, params_.c2};
    const auto m = liu2022::resolve_constants(params_.constants, in.oracle, n, params_.zeta,
                                              {"lambda1", "lambda2"}, kOwner + " (c1 = 0: lr_mult/gap)");
    return {params_.lr_mult / m.gap(), params_.c2};
  }
  // spec: liu2022 §2.1 Thm 2.2: eta_t = alpha / ((lambda1 - lambda2)(xi + t)), normalised M and V
  const auto m = liu2022::resolve_constants(params_.constants, in.oracle, n, params_.zeta,
                                            {"lambda1", "lambda2", "M", "V"}, kOwner + " (theory schedule)");
  const double xi = liu2022::theory_xi(m.lambda1 * m.M, m.lambda1 * m.lambda1 * m.V, m.lambda1, m.gap(),
                                       params_.lr_mult, params_.zeta);
  return {params_.lr_mult / m.gap(), xi};
}

PrivacyClaim Oja::claim(const Input&) const {
  PrivacyClaim c;
  c.scope = ClaimScope::not_private;
  c.conditions = {"not private: liu2022 Algorithm 1 is the non-private reference"};
  return c;
}

Estimate Oja::run(const Input& in, core::Rng& rng) const { return run_observed(in, rng, {}); }

Estimate Oja::run_observed(const Input& in, core::Rng& rng, const liu2022::StepObserver& observer) const {
  liu2022::validate_oja_input(in, kOwner, /*is_private=*/false);
  const core::SampleMatrices& A = *in.samples;
  const Eigen::Index n = A.n(), d = A.d();
  const liu2022::StepSchedule eta = schedule(in);
  Estimate est;
  est.claim = claim(in);
  if (params_.schedule == OjaParams::Schedule::theory && !(static_cast<double>(n) > eta.c2))
    // spec: liu2022 ambiguity 5 (Thm 2.2's "T > beta" reads T > xi)
    est.diagnostics.notes.push_back(fmt::format(
        "theory schedule: Thm 2.2 needs T > xi, but T = n = {} <= xi = {:.3g}; its bound does not apply", n,
        eta.c2));

  // 1: w_0 ~ Unif(S^{d-1})
  Eigen::VectorXd w = core::unit_sphere(rng, d), Aw(d), w_prime(d), noise_free;
  // 2: for t = 1..T: w'_t = w_{t-1} + eta_t A_t w_{t-1};  w_t = w'_t / ||w'_t||
  for (Eigen::Index t = 1; t <= n; ++t) {
    A.apply(t - 1, w, Aw);
    const double eta_t = eta(t);
    w_prime = w;
    core::add_scaled(w_prime.data(), eta_t, Aw.data(), d);
    if (observer) {
      noise_free = w_prime;
      observer({t, eta_t, w, noise_free, w_prime});
    }
    liu2022::normalize_into(w_prime, w, t, kOwner);
  }
  est.Q = Eigen::MatrixXd(w);
  est.diagnostics.counters["steps"] = static_cast<double>(n);
  est.diagnostics.counters["eta_first"] = eta(1);
  est.diagnostics.counters["eta_last"] = eta(n);
  return est;
}

}  // namespace dpb::alg
