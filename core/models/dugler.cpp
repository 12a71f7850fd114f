#include "core/models/dugler.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/models/signal_plus_noise.hpp"
#include "core/models/support.hpp"
#include "core/samplers.hpp"

namespace dpb::core {

using namespace model_support;

namespace {

// Lambda from `lambdas`, or the recommended profile Lambda_j = gap (1 + (k - j)/k), j = 1..k, so that
// Lambda_k = gap (spec: dugler2026 §7 "Recommended defaults" [inferred]).
Eigen::VectorXd read_shift_eigenvalues(const ParamMap& params, Eigen::Index d, const std::string& owner) {
  if (params.has("lambdas")) {
    if (params.has("gap"))
      throw InvalidArgument(fmt::format("{}: give either 'lambdas' or 'gap', not both", owner));
    return read_spike_list(params, "lambdas", "k", d, owner);
  }
  const Eigen::Index k = read_int_in(params, "k", 5, 1, d, owner);
  const double gap = read_positive(params, "gap", 1.0, owner);
  Eigen::VectorXd lambdas(k);
  for (Eigen::Index j = 1; j <= k; ++j)
    lambdas[j - 1] = gap * (1.0 + static_cast<double>(k - j) / static_cast<double>(k));
  return lambdas;
}

ModelEntry dugler_k1_entry() {
  const std::string id = "dugler_k1";
  return {id,
          "x = s lambda1 v + n, s = +-1, v = g/|g|, n ~ N(0, sigma^2 I); Sigma = lambda1^2 v v^T + sigma^2 I "
          "(lambda1 is an amplitude)",
          "Dügler, Sanyal 2026, App. F.1, k = 1 (dugler2026 spec §7 F.1)",
          {{"d", "20", "dimension (>= 2)"},
           {"p", "= d", "alias of d"},
           {"lambda1", "1",
            "signal amplitude > 0 (Sigma's top eigenvalue is lambda1^2 + sigma^2; "
            "ModelInfo's lambda1 is that eigenvalue, the amplitude is 'amplitude')"},
           {"sigma", "0.5", "noise standard deviation > 0"}},
          [id](const ParamMap& params, Rng& rng) -> std::unique_ptr<Model> {
            params.require_known({"d", "p", "lambda1", "sigma"}, id);
            const Eigen::Index d = read_dimension(params, 20, id);
            const double amplitude = read_positive(params, "lambda1", 1.0, id);
            const double sigma = read_positive(params, "sigma", 0.5, id);
            return std::make_unique<SignedSpikePlusNoise>(id, unit_sphere(rng, d), amplitude, sigma);
          }};
}

[[noreturn]] void no_vector_form(const std::string& model, const std::string& form) {
  throw InvalidArgument(fmt::format(
      "{} produces sample matrices {}, not vectors; use an algorithm that takes sample matrices", model, form));
}

// The two rank-k models (F.1's k > 1 generator, Corollary 2's): d, k and Lambda, sigma; the model is built from
// a Haar V_k drawn from the model's rng.
template <class RankKModel>
ModelEntry rank_k_entry(const std::string& id, std::string summary, std::string source) {
  return {id,
          std::move(summary),
          std::move(source),
          {{"d", "20", "dimension (>= 2)"},
           {"p", "= d", "alias of d"},
           {"k", "5", "rank k of V_k, 1 <= k <= d"},
           {"lambdas", "none", "the k entries of Lambda, non-increasing, > 0 (replaces gap)"},
           {"gap", "1",
            "Lambda_k (Sigma's eigengap); the profile is Lambda_j = gap (1 + (k - j)/k) (spec's recommended default)"},
           {"sigma", "0.5", "noise standard deviation > 0"}},
          [id](const ParamMap& params, Rng& rng) -> std::unique_ptr<Model> {
            params.require_known({"d", "p", "k", "lambdas", "gap", "sigma"}, id);
            const Eigen::Index d = read_dimension(params, 20, id);
            const Eigen::VectorXd lambdas = read_shift_eigenvalues(params, d, id);
            const double sigma = read_positive(params, "sigma", 0.5, id);
            return std::make_unique<RankKModel>(id, haar_frame(rng, d, lambdas.size()), lambdas, sigma);
          }};
}

}  // namespace

RankKSpikedMatrices::RankKSpikedMatrices(const std::string& id, const Eigen::MatrixXd& Vk,
                                         const Eigen::VectorXd& lambdas, double sigma)
    : info_(low_rank_plus_identity_info(id, Vk, lambdas, static_cast<double>(lambdas.size()) * sigma * sigma)),
      signal_(Vk * lambdas.cwiseSqrt().asDiagonal()),
      sigma_(sigma) {
  info_.params["k"] = static_cast<double>(lambdas.size());
  info_.params["gap"] = lambdas[lambdas.size() - 1];  // mu_k - mu_{k+1} = Lambda_k
  info_.params["lambda"] = lambdas[0];                // Lambda_1, as Corollary 2 writes lambda_1
  info_.params["sigma"] = sigma;
  info_.params["sigma2"] = sigma * sigma;
}

Eigen::MatrixXd RankKSpikedMatrices::sample(Eigen::Index, Rng&) const {
  no_vector_form(info_.model, "A_i = X_i X_i^T of rank k");
}

std::unique_ptr<SampleMatrices> RankKSpikedMatrices::sample_matrices(Eigen::Index n, Rng& rng) const {
  require_sample_count(n, info_.model);
  const Eigen::Index k = signal_.cols();
  // Column-major: sample i's d x k noise block Z_i is drawn in one piece, column by column.
  Eigen::MatrixXd X = sigma_ * standard_normal_matrix(rng, signal_.rows(), n * k);
  for (Eigen::Index i = 0; i < n; ++i) X.middleCols(i * k, k) += signal_;
  return std::make_unique<FactorSamples>(std::move(X), k);
}

ShiftedSpikedMatrices::ShiftedSpikedMatrices(const std::string& id, const Eigen::MatrixXd& Vk,
                                             const Eigen::VectorXd& lambdas, double sigma)
    : info_(low_rank_plus_identity_info(id, Vk, lambdas, sigma * sigma)),
      Vk_(Vk),
      lambdas_(lambdas),
      sigma_(sigma) {
  // A_i - Sigma = z z^T - sigma^2 I, so [computed] E[(A - Sigma)^2] = E[|z|^2 z z^T] - sigma^4 I
  // = (d + 1) sigma^4 I and lambda1^2 H_u = E[(z^T u)^2 z z^T] - sigma^4 u u^T = sigma^4 (I + u u^T).
  const double d = static_cast<double>(Vk.rows()), s4 = sigma * sigma * sigma * sigma;
  const double lambda1_sq = info_.eigenvalues[0] * info_.eigenvalues[0];
  info_.V = (d + 1) * s4 / lambda1_sq;
  info_.gamma2 = 2 * s4 / lambda1_sq;
  info_.params["k"] = static_cast<double>(lambdas.size());
  info_.params["gap"] = lambdas[lambdas.size() - 1];
  info_.params["sigma"] = sigma;
  info_.params["sigma2"] = sigma * sigma;
  // PRIVRANGE's targets at every frame Q (dugler2026 Thm 5, spec §7 F.1): Lambda(Q) = ||sigma^4 (I + q q^T)||
  // = 2 sigma^4, and Alg. 3's g_Q^2 = ||Pi_Q sigma^4 (I + q q^T) Pi_Q|| = sigma^4.
  info_.params["Lambda_Q"] = 2 * s4;
  info_.params["g_Q2"] = s4;
  publish_closed_forms(info_);
}

Eigen::MatrixXd ShiftedSpikedMatrices::sample(Eigen::Index, Rng&) const {
  no_vector_form(info_.model, "A_i = V_k Lambda V_k^T + z_i z_i^T");
}

std::unique_ptr<SampleMatrices> ShiftedSpikedMatrices::sample_matrices(Eigen::Index n, Rng& rng) const {
  require_sample_count(n, info_.model);
  // Column-major: sample i's d entries of z_i are drawn together, in order.
  return std::make_unique<ShiftedVectorSamples>(Vk_, lambdas_,
                                                sigma_ * standard_normal_matrix(rng, Vk_.rows(), n));
}

std::vector<ModelEntry> dugler_entries() {
  return {dugler_k1_entry(),
          rank_k_entry<ShiftedSpikedMatrices>(
              "dugler_shifted",
              "A_i = V_k Lambda V_k^T + z_i z_i^T, z_i ~ N(0, sigma^2 I), V_k Haar; Sigma = V_k Lambda V_k^T + "
              "sigma^2 I (sample matrices only)",
              "Dügler, Sanyal 2026, App. F.1, k > 1 (dugler2026 spec §7 F.1)"),
          rank_k_entry<RankKSpikedMatrices>(
              "dugler_rank_k",
              "A_i = X_i X_i^T, X_i = V_k Lambda^{1/2} + sigma Z_i with Z_i a d x k standard Gaussian matrix, V_k "
              "Haar; Sigma = V_k Lambda V_k^T + k sigma^2 I (sample matrices only)",
              "Dügler, Sanyal 2026, Corollary 2 (rank-k spiked covariance)")};
}

}  // namespace dpb::core
