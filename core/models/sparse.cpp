#include "core/models/sparse.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/models/support.hpp"
#include "core/samplers.hpp"

namespace dpb::core {

using namespace model_support;

ModelInfo sparse_model_info(const std::string& id, Eigen::MatrixXd Sigma, Eigen::VectorXd eigenvalues,
                            const Eigen::VectorXd& v1, Eigen::Index k) {
  ModelInfo info;
  info.model = id;
  info.Sigma = std::move(Sigma);
  info.eigenvalues = std::move(eigenvalues);
  info.target = v1;
  const double lambda1 = info.eigenvalues[0], lambda2 = info.eigenvalues[1];
  info.kappa = lambda1 / (lambda1 - lambda2);
  const double d = static_cast<double>(info.Sigma.rows());
  info.params = {{"d", d},
                 {"p", d},
                 {"r", 1},
                 {"k", static_cast<double>(k)},
                 {"lambda1", lambda1},
                 {"lambda2", lambda2},
                 {"gamma", 1 - lambda2 / lambda1},  // spec: kumar2025 §1.2 relative gap
                 {"subgaussian_sigma2", lambda1},   // §1.3: N(0, Sigma) is ||Sigma||_op-sub-Gaussian
                 {"nnz_v1", static_cast<double>((v1.array() != 0).count())}};
  publish_closed_forms(info);
  return info;
}

namespace {

std::unique_ptr<Model> make_block_spike(const ParamMap& params, Rng& rng) {
  const std::string id = "sparse_block_spike";
  params.require_known({"d", "p", "k", "lambda", "rho", "floor", "shuffle"}, id);
  const Eigen::Index d = read_dimension(params, 50, id);
  const Eigen::Index k = read_int_in(params, "k", std::min<long long>(5, d), 1, d, id);
  const double lambda = read_positive(params, "lambda", 4.0, id);
  const double rho = params.get_real("rho", 2.0, id);
  const double floor = read_positive(params, "floor", 1.0, id);
  const bool shuffle = read_int_in(params, "shuffle", 1, 0, 1, id) == 1;
  if (!(rho >= 0 && rho < lambda))
    throw InvalidArgument(
        fmt::format("{}: need 0 <= rho < lambda (a gap), got rho = {}, lambda = {}", id, rho, lambda));
  const Eigen::Index blocks = d / k;
  std::vector<Eigen::Index> coordinate(static_cast<std::size_t>(d));
  std::iota(coordinate.begin(), coordinate.end(), Eigen::Index{0});
  if (shuffle) coordinate = random_permutation(rng, d);
  Eigen::MatrixXd Sigma = floor * Eigen::MatrixXd::Identity(d, d);
  Eigen::VectorXd v1 = Eigen::VectorXd::Zero(d);
  for (Eigen::Index b = 0; b < blocks; ++b) {
    const Eigen::VectorXd w = unit_sphere(rng, k);
    const double strength = b == 0 ? lambda : rho;
    for (Eigen::Index j = 0; j < k; ++j) {
      const Eigen::Index cj = coordinate[static_cast<std::size_t>(b * k + j)];
      if (b == 0) v1[cj] = w[j];
      for (Eigen::Index i = 0; i < k; ++i)
        Sigma(coordinate[static_cast<std::size_t>(b * k + i)], cj) += strength * w[i] * w[j];
    }
  }
  Eigen::VectorXd eigenvalues = Eigen::VectorXd::Constant(d, floor);
  eigenvalues[0] += lambda;
  if (rho > 0) eigenvalues.segment(1, blocks - 1).array() += rho;
  Eigen::Index largest = 0;  // sign convention of core::top_eigenpairs: largest-magnitude entry positive
  v1.cwiseAbs().maxCoeff(&largest);
  if (v1[largest] < 0) v1 = -v1;
  return std::make_unique<GaussianFactorModel>(
      sparse_model_info(id, std::move(Sigma), std::move(eigenvalues), v1, k));
}

std::unique_ptr<Model> make_rcs_expander(const ParamMap& params, Rng& rng) {
  const std::string id = "sparse_rcs_expander";
  params.require_known({"d", "p", "k", "coupling", "floor"}, id);
  const Eigen::Index d = read_dimension(params, 50, id);
  if (d < 3) throw InvalidArgument(fmt::format("{}: need d >= 3, got d = {}", id, d));
  const Eigen::Index k = read_int_in(params, "k", std::min<long long>(5, d), 3, d, id);
  const double c = read_positive(params, "coupling", 1.0, id);
  const double floor = read_positive(params, "floor", 1.0, id);
  const Eigen::Index h = (k - 1) / 2;
  const double diagonal =
      floor + 2.0 * static_cast<double>(h) * c;  // lambda_min(c A) >= -2hc: Sigma >= floor I
  for (int attempt = 0; attempt < 100; ++attempt) {
    Eigen::MatrixXd Sigma = diagonal * Eigen::MatrixXd::Identity(d, d);
    for (Eigen::Index j = 0; j < h; ++j) {
      const auto pi = random_permutation(rng, d);
      for (Eigen::Index i = 0; i < d; ++i) {
        Sigma(i, pi[static_cast<std::size_t>(i)]) += c;  // P_j
        Sigma(pi[static_cast<std::size_t>(i)], i) += c;  // P_j^T
      }
    }
    Eigen::VectorXd eigenvalues =
        symmetric_eigenvalues(Sigma).reverse();
    const double lambda1 = diagonal + 2.0 * static_cast<double>(h) * c;  // row sums: the Perron eigenvalue
    if (eigenvalues[1] > lambda1 * (1 - 1e-9)) continue;                 // disconnected: v_1 not unique
    eigenvalues[0] = lambda1;
    return std::make_unique<GaussianFactorModel>(
        sparse_model_info(id, std::move(Sigma), std::move(eigenvalues),
                    Eigen::VectorXd::Constant(d, 1 / std::sqrt(double(d))), k));
  }
  throw InvalidArgument(
      fmt::format("{}: 100 random graphs on d = {} vertices were all disconnected; raise k", id, d));
}

}  // namespace

GaussianFactorModel::GaussianFactorModel(ModelInfo info) : info_(std::move(info)) {
  Eigen::LLT<Eigen::MatrixXd> llt(info_.Sigma);
  if (llt.info() != Eigen::Success) throw InvalidArgument(info_.model + ": Sigma is not positive definite");
  factor_ = llt.matrixL();
}

Eigen::MatrixXd GaussianFactorModel::sample(Eigen::Index n, Rng& rng) const {
  require_sample_count(n, info_.model);
  return factor_ * standard_normal_matrix(rng, factor_.rows(), n);  // x = L g, drawn column by column
}

std::vector<Eigen::Index> random_permutation(Rng& rng, Eigen::Index d) {
  std::vector<Eigen::Index> pi(static_cast<std::size_t>(d));
  std::iota(pi.begin(), pi.end(), Eigen::Index{0});
  for (Eigen::Index i = d - 1; i > 0; --i) {
    const auto j = static_cast<Eigen::Index>(uniform01(rng) * static_cast<double>(i + 1));
    std::swap(pi[static_cast<std::size_t>(i)], pi[static_cast<std::size_t>(std::min(j, i))]);
  }
  return pi;
}

std::vector<ModelEntry> sparse_entries() {
  return {
      {"sparse_block_spike",
       "Model 2 (sparse PCA): Gaussian, Sigma = floor I + k x k blocks, a planted spike lambda u u^T on one "
       "block "
       "and rho w w^T on the others; k-RCS, nnz(v_1) = k, gap 1 - (floor + rho)/(floor + lambda)",
       "Kumar, Pandey, Sarkar, Tian 2025, Model 2 (kumar2025 spec §1.4, §4.1 item 3: block-diagonal k-RCS)",
       {{"d", "50", "dimension (>= 2)"},
        {"p", "= d", "alias of d"},
        {"k", "min(5, d)", "block size = row sparsity = nnz(v_1), 1 <= k <= d"},
        {"lambda", "4", "planted spike on the first block (> rho)"},
        {"rho", "2", "spike of every other block, 0 <= rho < lambda (0 = diagonal blocks)"},
        {"floor", "1", "the identity part floor I (> 0)"},
        {"shuffle", "1", "1 = blocks on a uniformly random permutation of the coordinates, 0 = contiguous"}},
       make_block_spike},
      {"sparse_rcs_expander",
       "Model 1 (k-RCS covariance, dense v_1): Gaussian, Sigma = (floor + 2hc) I + c (sum of h random "
       "permutation matrices and their transposes), h = floor((k-1)/2); v_1 = 1/sqrt(d)",
       "Kumar, Pandey, Sarkar, Tian 2025, Model 1 (kumar2025 spec §1.4; random matching unions, A21)",
       {{"d", "50", "dimension (>= 3)"},
        {"p", "= d", "alias of d"},
        {"k", "min(5, d)", "row sparsity bound, 3 <= k <= d (rows have <= 2 floor((k-1)/2) + 1 nonzeros)"},
        {"coupling", "1", "off-diagonal weight c > 0"},
        {"floor", "1", "lambda_min(Sigma) >= floor > 0"}},
       make_rcs_expander},
  };
}

}  // namespace dpb::core
