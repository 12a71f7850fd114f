#include "lowerbounds/constructions/dp_fano_cai2024.hpp"

#include <fmt/core.h>
#include <algorithm>
#include <cmath>

#include "algorithms/privacy.hpp"
#include "core/errors.hpp"

namespace dpb::lower {

namespace {

void require_valid(const DpFanoCai2024Input& in) {
  if (!(in.log_size >= std::log(2.0)) || !std::isfinite(in.log_size))
    throw InvalidArgument(
        fmt::format("cai2024 DP Fano: need N >= 2 (log N >= log 2), got log N = {}", in.log_size));
  if (!(in.separation > 0) || !std::isfinite(in.separation))
    throw InvalidArgument(
        fmt::format("cai2024 DP Fano: separation rho0 must be finite and > 0, got {}", in.separation));
  if (!(in.kl >= 0) || !(in.tv_sum >= 0) || std::isnan(in.kl) || !std::isfinite(in.tv_sum))
    throw InvalidArgument(fmt::format(
        "cai2024 DP Fano: need KL l0 >= 0 and finite TV sum t0 >= 0, got {} and {}", in.kl, in.tv_sum));
  alg::validate_epsilon(in.eps, "cai2024 DP Fano");
  alg::validate_delta(in.delta, "cai2024 DP Fano");
}

double group_privacy_exponent(const DpFanoCai2024Input& in) {
  const bool printed_valid = in.eps <= kLemma12EpsilonLimit;
  if (in.exponent == GroupPrivacyExponent::faithful && printed_valid) return 4 * in.eps * in.tv_sum;
  return 2 * std::expm1(in.eps) * in.tv_sum;
}

}  // namespace

DpFanoCai2024Value dp_fano_cai2024(const DpFanoCai2024Input& in) {
  require_valid(in);
  DpFanoCai2024Value out;
  out.exponent = group_privacy_exponent(in);
  out.fano = std::max(0.0, in.separation / 2 * (1 - (in.kl + std::log(2.0)) / in.log_size));
  // log(N - 1) without forming N (log N may be large).
  const double log_others = in.log_size + std::log1p(-std::exp(-in.log_size));
  const double mass = std::min(1.0, std::exp(log_others - out.exponent));
  const double delta_loss = in.delta == 0 ? 0.0 : 2 * in.delta * std::exp(out.exponent) / std::expm1(in.eps);
  out.private_term = std::max(0.0, in.separation / 4 * mass * (1 - delta_loss));
  return out;
}

double gaussian_kl(const Eigen::MatrixXd& S1, const Eigen::MatrixXd& S2) {
  if (S1.rows() != S1.cols() || S2.rows() != S2.cols() || S1.rows() != S2.rows() || S1.rows() == 0)
    throw InvalidArgument(
        fmt::format("gaussian_kl: need two square matrices of one size, got {}x{} and {}x{}", S1.rows(),
                    S1.cols(), S2.rows(), S2.cols()));
  const Eigen::LLT<Eigen::MatrixXd> chol1(S1), chol2(S2);
  if (chol1.info() != Eigen::Success || chol2.info() != Eigen::Success)
    throw InvalidArgument("gaussian_kl: both covariances must be symmetric positive definite");
  const auto log_det = [](const Eigen::LLT<Eigen::MatrixXd>& chol) {
    return 2 * chol.matrixL().toDenseMatrix().diagonal().array().log().sum();
  };
  const double trace = chol2.solve(S1).trace();
  return 0.5 * (trace - static_cast<double>(S1.rows()) + log_det(chol2) - log_det(chol1));
}

}  // namespace dpb::lower
