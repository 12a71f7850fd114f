#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/registry.hpp"
#include "core/errors.hpp"
#include "core/models/model.hpp"

using dpb::alg::algorithm_registry;
using dpb::core::Rng;

namespace {
const char* const kIds[] = {"kumar2025.priv_cov", "kumar2025.priv_pca", "kumar2025.priv_norm",
                            "kumar2025.sparse_pca_pipeline", "kumar2025.exp_mech_support"};
}

TEST_CASE("kumar2025 registry: every algorithm is documented with spec references", "[kumar2025]") {
  for (const char* id : kIds) {
    const auto& e = algorithm_registry().find(id);
    CHECK_FALSE(e.summary.empty());
    CHECK(e.source.find("Kumar") != std::string::npos);
    CHECK_FALSE(e.privacy.empty());
    CHECK(e.needs == dpb::alg::DataNeed::vectors);
    for (const auto& p : e.params) {
      INFO(id << " " << p.name);
      CHECK_FALSE(p.doc.empty());
      CHECK(p.spec_ref.find("kumar2025") != std::string::npos);
    }
    if (std::string(id) != "kumar2025.exp_mech_support")
      CHECK(e.privacy.find("scaled_not_private") != std::string::npos);
  }
  const auto& pca = algorithm_registry().find("kumar2025.priv_pca");
  bool has_delta_p = false;
  for (const auto& p : pca.params)
    has_delta_p =
        has_delta_p || (p.name == "delta_p" && std::get<std::string>(p.default_value) == "rigorous");
  CHECK(has_delta_p);
}

TEST_CASE("kumar2025 registry: scaled mode is unmistakable in claim and diagnostics; oracle reads",
          "[kumar2025]") {
  Rng model_rng(1, 0);
  const auto model = dpb::core::make_model("sparse_block_spike", {{"d", 10.0}, {"k", 2.0}}, model_rng);
  Rng data_rng(1, 1);
  const Eigen::MatrixXd X = model->sample(4000, data_rng);
  dpb::alg::Input in;
  in.X = &X;
  in.k = 2;
  in.privacy = {1.0, 1e-5};
  in.oracle = &model->info();
  const auto priv = algorithm_registry().make("kumar2025.priv_cov", {});
  CHECK(priv->claim(in).epsilon == 1.0);
  const auto scaled =
      algorithm_registry().make("kumar2025.priv_cov", {{"constants", std::string("scaled_not_private")}});
  Rng rng(2, 2);
  const auto e = scaled->run(in, rng);
  CHECK(e.claim.scope == dpb::alg::ClaimScope::not_private);
  REQUIRE_FALSE(e.claim.conditions.empty());
  CHECK(e.claim.conditions.front().find("scaled_not_private") != std::string::npos);
  CHECK(describe(e.claim).find("NOT differentially private") != std::string::npos);
  bool noted = false;
  for (const auto& n : e.diagnostics.notes)
    noted = noted || n.find("scaled_not_private") != std::string::npos;
  CHECK(noted);
  CHECK(e.Sigma);
  CHECK(e.diagnostics.counters.count("lambda_samp_obs"));
  // Without an oracle, sigma2 = 0 cannot be resolved: a clear error.
  in.oracle = nullptr;
  CHECK_THROWS_WITH(priv->run(in, rng), Catch::Contains("sigma2"));
  // exp_mech_support is pure DP and PrivPCA reads lambda1 / gamma from the oracle.
  in.oracle = &model->info();
  const auto em = algorithm_registry().make("kumar2025.exp_mech_support", {});
  in.privacy = {1.0, 0.0};
  CHECK(em->claim(in).delta == 0);
  CHECK(em->claim(in).scope == dpb::alg::ClaimScope::worst_case);
  CHECK(em->run(in, rng).Q);
  // Lines 12-13 as printed release the data's eigenvector on the support: no privacy is claimed.
  const auto printed = algorithm_registry().make("kumar2025.exp_mech_support", {{"release", std::string("as_printed")}});
  CHECK(printed->claim(in).scope == dpb::alg::ClaimScope::not_private);
  in.privacy = {1.0, 1e-5};
  const auto pca =
      algorithm_registry().make("kumar2025.priv_pca", {{"constants", std::string("scaled_not_private")},
                                                       {"m", 10.0},
                                                       {"final_threshold", 1.0},
                                                       {"c_tau", 2.0}});
  const auto r = pca->run(in, rng);
  CHECK(r.diagnostics.counters.count("certified_blocks"));
  CHECK(r.claim.scope == dpb::alg::ClaimScope::not_private);
}
