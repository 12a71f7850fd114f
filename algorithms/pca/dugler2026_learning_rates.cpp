#include "algorithms/pca/dugler2026_learning_rates.hpp"

#include <fmt/format.h>
#include <cmath>

#include "algorithms/pca/dugler2026_common.hpp"
#include "core/errors.hpp"

namespace dpb::alg::dugler2026 {

LearningRate::LearningRate(LearningRateSettings s, Eigen::Index T, double log_n, double d, double lambda1,
                           double gap, double sigma)
    : s_(s), T_(T), log_n_(log_n), d_(d), lambda1_(lambda1), gap_(gap), sigma_(sigma) {}

double LearningRate::operator()(Eigen::Index t) const {
  const double tt = static_cast<double>(t);
  switch (s_.family) {
    case LearningRateFamily::step_decay: {  // spec §7 F.2 family 1
      const double tau = std::ceil(s_.cutoff * static_cast<double>(T_));
      const double base = 1.0 / (tt + s_.offset);
      return tt <= tau ? base : base * std::pow((tau + s_.offset) / (tt + s_.offset), s_.power);
    }
    case LearningRateFamily::lambda1_spiked:  // family 2
      return 1.0 / (s_.scale * sigma_ * lambda1_ + gap_ * tt / log_n_);
    case LearningRateFamily::dim_scaled:  // family 3, s_d = d (spiked data)
      return 1.0 / (s_.scale * sigma_ * lambda1_ * d_ + gap_ * tt / log_n_);
    case LearningRateFamily::constant:
      return s_.eta;
  }
  return 0;
}

LearningRate make_learning_rate(const LearningRateSettings& s, const Input& in, Eigen::Index n,
                                Eigen::Index T, const std::string& owner, const std::string& prefix) {
  const double d = static_cast<double>(in.samples ? in.samples->d() : 1);
  // spec: dugler2026 ambiguity 3 -- log is natural; log n of the samples this algorithm sees (n >= 3
  // keeps it > 1).
  const double log_n = std::log(std::max<double>(3.0, static_cast<double>(n)));
  double lambda1 = s.lambda1, gap = s.gap_value, sigma = s.sigma;
  if (s.family == LearningRateFamily::lambda1_spiked || s.family == LearningRateFamily::dim_scaled) {
    const std::string what =
        fmt::format("{}lr_lambda1, {}lr_gap_value and {}lr_sigma", prefix, prefix, prefix);
    if (lambda1 <= 0 || gap <= 0) {
      const auto& o = require_oracle(in, owner, what);
      const auto& ev = o.eigenvalues;
      if (lambda1 <= 0) lambda1 = ev[0];
      if (gap <= 0) {
        const Eigen::Index j = s.gap == GapChoice::leading ? 0 : in.k - 1;
        gap = j + 1 < ev.size() ? ev[j] - ev[j + 1] : ev[j];
        if (!(gap > 0))
          throw InvalidArgument(fmt::format(
              "{}: the oracle's {} eigengap is {} (equal spikes?); use {}lr_gap = k or give {}lr_gap_value",
              owner, s.gap == GapChoice::leading ? "leading" : "k-th", gap, prefix, prefix));
      }
    }
    if (sigma <= 0) sigma = oracle_sigma(in, owner, what);
  }
  return LearningRate(s, T, log_n, d, lambda1, gap, sigma);
}

const FieldTable<LearningRateSettings>& learning_rate_fields() {
  static const FieldTable<LearningRateSettings> fields = [] {
    using S = LearningRateSettings;
    using F = LearningRateFamily;
    const std::string ref = "dugler2026 §7 F.2";
    FieldTable<S> t;
    t.choice("learning_rate", &S::family,
             {{"step_decay", F::step_decay}, {"lambda1_spiked", F::lambda1_spiked}, {"dim_scaled", F::dim_scaled},
              {"constant", F::constant}},
             "learning-rate family: step_decay(c, rho, p) needs no oracle; lambda1_spiked and dim_scaled read "
             "lambda~_1, Delta, sigma; constant uses lr_eta",
             ref + ", §8 item 1")
        .real("lr_offset", &S::offset, 0.0, std::nullopt, "step-decay offset c (ADADPO: 10.0)", ref)
        .real("lr_cutoff", &S::cutoff, 1e-9, 1.0, "step-decay cutoff rho, tau = ceil(rho T)", ref)
        .real("lr_power", &S::power, 0.0, std::nullopt, "step-decay extra power p after tau", ref)
        .real("lr_scale", &S::scale, 0.0, std::nullopt, "the constant 20 of lambda1_spiked / dim_scaled", ref)
        .real("lr_eta", &S::eta, 1e-12, std::nullopt, "constant learning rate (<= c/lambda_1 for TADADPO)",
              "dugler2026 §8 item 1, Lemma 18")
        .choice("lr_gap", &S::gap, {{"leading", GapChoice::leading}, {"k", GapChoice::kth}},
                "which gap Delta: leading Delta_1 (as printed) or Delta_k", "dugler2026 ambiguity 3")
        .real("lr_lambda1", &S::lambda1, 0.0, std::nullopt,
              "lambda~_1 for lambda1_spiked / dim_scaled; 0 = the oracle's top eigenvalue of Sigma",
              "dugler2026 ambiguity 3")
        .real("lr_gap_value", &S::gap_value, 0.0, std::nullopt, "Delta; 0 = from the oracle's eigenvalues",
              "dugler2026 ambiguity 3")
        .real("lr_sigma", &S::sigma, 0.0, std::nullopt, "data noise level sigma; 0 = the oracle's sigma",
              "dugler2026 ambiguity 3");
    return t;
  }();
  return fields;
}

std::vector<std::string> learning_rate_oracle_quantities() {
  return {
      "eigenvalues (lambda~_1, Delta) and sigma, only for learning_rate = lambda1_spiked | dim_scaled "
      "unless lr_lambda1, lr_gap_value, lr_sigma are given"};
}

}  // namespace dpb::alg::dugler2026
