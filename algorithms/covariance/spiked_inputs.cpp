#include "algorithms/covariance/spiked_inputs.hpp"

#include <fmt/format.h>
#include <utility>

#include "algorithms/mechanisms/gaussian.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"

namespace dpb::alg {

const char* const kModelAssumptionPrivacyText =
    "PRIVATE ONLY UNDER THE MODEL: the guarantee holds with high probability (>= 1 - O(n^-99)) over data "
    "drawn iid from the spiked Gaussian model, for neighbours that replace one sample by a fresh draw from "
    "the same model; it does not hold for an arbitrary replacement (there is no clipping), and the "
    "sensitivity constants are calibrated by Monte Carlo (cai2024 Lemma 2, spec A1, A2).";

LedgerEntry spiked_release(std::string step, double sensitivity, const Budget& budget,
                           GaussianCalibration calibration, const char* owner) {
  if (calibration == GaussianCalibration::classical &&
      !classical_gaussian_applies(budget.epsilon, budget.delta))
    throw InvalidArgument(fmt::format(
        "{}: the classical Gaussian calibration (the paper's) is proven only for a per-release epsilon < 1, "
        "but the {} gets ({:g}, {:g}); lower epsilon or set calibration=analytic",
        owner, step, budget.epsilon, budget.delta));
  const double sd = gaussian_sigma(calibration, sensitivity, budget.epsilon, budget.delta);
  return gaussian_entry(std::move(step), sensitivity, sd,
                        {budget.epsilon, budget.delta, Neighbours::replace});
}

const Eigen::MatrixXd& require_samples(const Input& in, const char* owner) {
  if (in.X == nullptr)
    throw InvalidArgument(
        fmt::format("{}: needs the data as vectors (Input.X, p x n, columns are samples)", owner));
  const Eigen::MatrixXd& X = *in.X;
  if (X.rows() < 2 || X.cols() < 1)
    throw InvalidArgument(
        fmt::format("{}: X must be p x n with p >= 2 and n >= 1, got {} x {}", owner, X.rows(), X.cols()));
  core::require_finite(X, owner);
  validate(in.privacy);
  if (!(in.privacy.delta > 0))
    throw InvalidArgument(fmt::format("{}: the Gaussian mechanism needs delta in (0, 1), got 0", owner));
  if (in.privacy.neighbours != Neighbours::replace)
    throw InvalidArgument(
        fmt::format("{}: only replace-one neighbours are supported (the notion of cai2024's sensitivity "
                    "analysis), got {}",
                    owner, to_string(in.privacy.neighbours)));
  return X;
}

ModelQuantity model_quantity(double given, const Input& in, const char* name, const char* owner) {
  if (given > 0) return {given, false};
  if (in.oracle != nullptr) {
    const auto it = in.oracle->params.find(name);
    if (it != in.oracle->params.end()) return {it->second, true};
  }
  throw InvalidArgument(fmt::format(
      "{}: the sensitivity needs '{}': pass it as a parameter (a public value, > 0) or run on a model "
      "that knows it (oracle)",
      owner, name));
}

SpikedQuantities spiked_quantities(double lambda, double sigma2, const Input& in, const char* owner) {
  return {model_quantity(lambda, in, "lambda", owner), model_quantity(sigma2, in, "sigma2", owner)};
}

PrivacyClaim cai2024_claim(const Input& in, double share, std::string sensitivity,
                           GaussianCalibration calibration, bool reads_oracle) {
  validate(in.privacy);
  std::vector<std::string> conditions = {std::move(sensitivity)};
  if (calibration == GaussianCalibration::classical)
    conditions.push_back("classical Gaussian calibration: each release's epsilon < 1");
  if (reads_oracle) conditions.push_back(oracle_condition("lambda, sigma^2"));
  return model_assumption_claim({share * in.privacy.epsilon, share * in.privacy.delta},
                                std::move(conditions));
}

void finish_estimate(Estimate& out, bool oracle_used, PrivacyClaim claim) {
  if (oracle_used) out.diagnostics.notes.push_back(oracle_condition("lambda and/or sigma^2"));
  note_model_assumption(out.diagnostics);
  out.claim = std::move(claim);
}

PrivacyClaim model_assumption_claim(const Budget& total, std::vector<std::string> conditions) {
  PrivacyClaim claim;
  claim.epsilon = total.epsilon;
  claim.delta = total.delta;
  claim.neighbours = Neighbours::replace;
  claim.scope = ClaimScope::under_model_assumptions;
  claim.conditions = {
      "holds only with probability >= 1 - O(n^-99) over data X_1..X_n iid N(0, Sigma) from the spiked "
      "model (cai2024 Lemma 2); no clipping",
      "neighbours replace one sample X_i by a fresh copy X_i' ~ N(0, Sigma); NO guarantee for an "
      "arbitrary replacement (spec: cai2024 A2)",
      "sensitivity constants are Monte-Carlo calibrated, not proven (spec: cai2024 A1)"};
  for (auto& c : conditions) claim.conditions.push_back(std::move(c));
  return claim;
}

std::string oracle_condition(const char* quantities) {
  return fmt::format(
      "sensitivities use the model's true {} (oracle, simulation only); on real data they must be public "
      "values (spec: cai2024 A5)",
      quantities);
}

void note_model_assumption(Diagnostics& diagnostics) {
  diagnostics.notes.push_back(
      "privacy holds only under the model's assumptions (w.h.p. for spiked Gaussian data and fresh-copy "
      "neighbours), not in the worst case: do not read this run as a worst-case DP guarantee on real data");
}

}  // namespace dpb::alg
