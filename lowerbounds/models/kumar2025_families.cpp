#include "lowerbounds/models/kumar2025_families.hpp"

#include <fmt/format.h>
#include <functional>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/models/sparse.hpp"
#include "core/models/support.hpp"
#include "core/samplers.hpp"
#include "lowerbounds/constructions/kumar2025_covariances.hpp"
#include "lowerbounds/constructions/kumar2025_priors.hpp"
#include "lowerbounds/constructions/padded_subcube.hpp"

namespace dpb::lower {

namespace {

using core::model_support::read_dimension;
using core::model_support::read_int_in;
using core::model_support::require_sample_count;

// Plain literals: kumar2025_family_models() runs at static initialisation (lowerbounds/catalog.cpp).
constexpr char lemma19_id[] = "kumar2025_lemma19_family";
constexpr char lemma22_id[] = "kumar2025_lemma22_family";
constexpr long long default_k = 6;  // the smallest k Lemmas 19 and 22 allow

// One member of a construction's family: its population quantities and the sampler of its distribution.
class FamilyMemberModel final : public core::Model {
 public:
  using Sampler = std::function<Eigen::MatrixXd(Eigen::Index, core::Rng&)>;
  FamilyMemberModel(core::ModelInfo info, Sampler sampler) : info_(std::move(info)), sampler_(std::move(sampler)) {}
  const core::ModelInfo& info() const override { return info_; }
  Eigen::MatrixXd sample(Eigen::Index n, core::Rng& rng) const override {
    require_sample_count(n, info_.model);
    return sampler_(n, rng);
  }

 private:
  core::ModelInfo info_;
  Sampler sampler_;
};

// The construction's own InvalidArgument ("need 3 | d, ...") with the model's id in front.
template <class Build>
auto build_construction(const std::string& id, Build build) {
  try {
    return build();
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(fmt::format("{}: {}", id, e.what()));
  }
}

std::unique_ptr<core::Model> make_lemma19_family(const core::ParamMap& params, core::Rng& rng) {
  params.require_known({"d", "p", "k"}, lemma19_id);
  const auto d = static_cast<int>(read_dimension(params, 30, lemma19_id));
  const auto k = static_cast<int>(read_int_in(params, "k", default_k, 1, d, lemma19_id));
  const Lemma19Construction c =
      build_construction(lemma19_id, [&] { return lemma19_construction(d, k, GraphAcceptance{}, rng); });
  // A uniform weight-d/3 word: the first d/3 coordinates of a uniform permutation go to R. Every such word
  // is a codeword of some Lemma 20 code (a coordinate permutation of one), and Thm 4's value reads only |C|.
  const auto order = core::random_permutation(rng, d);
  Codeword x(static_cast<std::size_t>(d), 0);
  for (int i = 0; i < d / 3; ++i) x[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] = 1;
  Eigen::MatrixXd sigma = lemma19_family_member(c, x);
  Eigen::VectorXd eigenvalues = core::descending_eigenvalues(sigma);
  eigenvalues[0] = 2;  // Lemma 19 item 1: lambda_1 = 2 exactly (v_x is its eigenvector)
  core::ModelInfo info =
      core::sparse_model_info(lemma19_id, std::move(sigma), std::move(eigenvalues), lemma19_family_eigenvector(x), k);
  info.params["graph_attempts"] = c.graph.attempts;
  return std::make_unique<FamilyMemberModel>(
      std::move(info), [c, x](Eigen::Index n, core::Rng& r) { return lemma19_family_samples(c, x, n, r); });
}

std::unique_ptr<core::Model> make_lemma22_family(const core::ParamMap& params, core::Rng& rng) {
  params.require_known({"d", "p", "k", "distribution"}, lemma22_id);
  const auto d = static_cast<int>(read_dimension(params, 20, lemma22_id));
  const auto k = static_cast<int>(read_int_in(params, "k", default_k, 1, d, lemma22_id));
  const std::string distribution = params.get_string("distribution", "edge_spike", lemma22_id);
  if (distribution != "edge_spike" && distribution != "gaussian")
    throw InvalidArgument(fmt::format("{}: distribution must be edge_spike or gaussian, got '{}'", lemma22_id,
                                      distribution));
  const PaddedSubcube cube =
      build_construction(lemma22_id, [&] { return padded_subcube(d, k, GraphAcceptance{}, rng); });
  Eigen::VectorXd s(cube.m);
  for (int i = 0; i < cube.m; ++i) s[i] = core::rademacher(rng);
  const Eigen::MatrixXd sigma = cube.covariance(s);
  Eigen::VectorXd eigenvalues = core::descending_eigenvalues(sigma);
  eigenvalues[0] = 2;  // Lemma 22 item 1: lambda_1 = 2 exactly (v_s is its eigenvector)
  core::ModelInfo info = core::sparse_model_info(lemma22_id, sigma, std::move(eigenvalues), cube.eigenvector(s), k);
  info.params["graph_attempts"] = cube.base.graph.attempts;
  if (distribution == "gaussian")
    return std::make_unique<FamilyMemberModel>(std::move(info), [sigma](Eigen::Index n, core::Rng& r) {
      return gaussian_samples(sigma, n, r, lemma22_id);
    });
  info.params["subgaussian_sigma2"] = d;  // spec A17: the edge spike is d-sub-Gaussian, not ||Sigma||_op
  return std::make_unique<FamilyMemberModel>(
      std::move(info), [cube, s](Eigen::Index n, core::Rng& r) { return sample_edge_spike(cube, s, n, r); });
}

}  // namespace

std::vector<core::ModelEntry> kumar2025_family_models() {
  return {
      {lemma19_id,
       "Thm 4's family: Gaussian N(0, Sigma_x), Sigma_x = Pi_x (I + sqrt(2)/(k-2) A) Pi_x^T for Lemma 19's "
       "random (h, 2h)-biregular graph A (h = (k-2)/2) and a uniform weight-d/3 word x; k-RCS, lambda_1 = 2, "
       "lambda_min = 0, dense v_x",
       "Kumar, Pandey, Sarkar, Tian 2025, Lemma 19 and Theorem 4 (kumar2025 spec §5.2)",
       {{"d", "30", "dimension, a multiple of 3 with d/3 >= k"},
        {"p", "= d", "alias of d"},
        {"k", "6", "row sparsity, even, 6 <= k <= d/3"}},
       make_lemma19_family},
      {lemma22_id,
       "Thm 5's family: a member s_bar = (1_{d/2}, s), s uniform on {+-1}^{d/2}, of the padded subcube over "
       "Sigma_s = I + (1/(k-1)) D_s A D_s for Lemma 22's random (k-1)-regular bipartite graph A; data from "
       "the edge spike D_s (Def. 5, d-sub-Gaussian) or N(0, Sigma_s); lambda_1 = 2, v_s = s_bar/sqrt(d)",
       "Kumar, Pandey, Sarkar, Tian 2025, Lemma 22, Definitions 5-6, Theorem 5 (kumar2025 spec §5.3)",
       {{"d", "20", "dimension, even, d/2 >= k - 1"},
        {"p", "= d", "alias of d"},
        {"k", "6", "row sparsity, even, k >= 6"},
        {"distribution", "edge_spike",
         "edge_spike (Def. 5's D_s, the distribution Thm 5 is proved on) or gaussian (N(0, Sigma_s))"}},
       make_lemma22_family},
  };
}

}  // namespace dpb::lower
