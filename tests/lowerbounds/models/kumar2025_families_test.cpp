#include "lowerbounds/models/kumar2025_families.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "lowerbounds/catalog.hpp"
#include "lowerbounds/constructions/kumar2025_covariances.hpp"
#include "lowerbounds/constructions/padded_subcube.hpp"
#include "tests/core/models/model_checks.hpp"

using dpb::InvalidArgument;
using dpb::core::ParamMap;
using dpb::core::Rng;
using dpb::test::MessageContains;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

const int d19 = 30, d22 = 20, k = 6;

ParamMap params(int d, const std::string& distribution = "") {
  ParamMap p;
  p.set("d", double(d));
  p.set("k", double(k));
  if (!distribution.empty()) p.set("distribution", distribution);
  return p;
}

// The models are made through core's catalogue: the seam lowerbounds/catalog.cpp registers them through.
std::unique_ptr<dpb::core::Model> model(const std::string& id, const ParamMap& p, std::uint64_t seed) {
  REQUIRE_FALSE(dpb::lower::lower_bound_theorems().empty());  // links lowerbounds/catalog.cpp, the registration
  Rng rng(seed, 0);
  return dpb::core::make_model(id, p, rng);
}

// The top eigenvector of a symmetric matrix.
VectorXd top_eigenvector(const MatrixXd& sigma) {
  const dpb::core::EigenPairs eig = dpb::core::symmetric_eigenpairs(sigma);
  return eig.vectors.col(sigma.rows() - 1);
}

}  // namespace

TEST_CASE("kumar2025_lemma19_family: Sigma is Lemma 19's member Sigma_x for a weight-d/3 word x, target v_x",
          "[kumar2025][models]") {
  const auto m = model("kumar2025_lemma19_family", params(d19), 3);
  const auto& info = m->info();
  // x read back from the target (v_x = sqrt(3/(2d)) on x's ones, sqrt(3/(4d)) elsewhere) ...
  REQUIRE(info.target.cols() == 1);
  dpb::lower::Codeword x(d19, 0);
  int weight = 0;
  for (int i = 0; i < d19; ++i) {
    const double v = info.target(i, 0);
    const bool one = std::abs(v - std::sqrt(1.5 / d19)) < 1e-12;
    CHECK((one || std::abs(v - std::sqrt(0.75 / d19)) < 1e-12));
    x[static_cast<std::size_t>(i)] = one;
    weight += one;
  }
  CHECK(weight == d19 / 3);
  // ... and the construction rebuilt from the same seed (the graph is the model rng's first draw).
  Rng rng(3, 0);
  const auto c = dpb::lower::lemma19_construction(d19, k, {}, rng);
  CHECK(info.Sigma == dpb::lower::lemma19_family_member(c, x));
  CHECK(VectorXd(info.target.col(0)) == dpb::lower::lemma19_family_eigenvector(x));
  // v_x is the top eigenvector with eigenvalue 2, and the published quantities are the construction's.
  CHECK((info.Sigma * info.target.col(0) - 2 * info.target.col(0)).norm() < 1e-12);
  CHECK(std::abs(top_eigenvector(info.Sigma).dot(info.target.col(0))) == Approx(1).epsilon(1e-10));
  CHECK(info.params.at("lambda1") == 2);
  CHECK(info.params.at("lambda2") == Approx(c.lambda2).epsilon(1e-10));
  CHECK(info.params.at("d") == d19);
  CHECK(info.params.at("k") == k);
  CHECK(info.params.at("subgaussian_sigma2") == 2);
  CHECK(info.eigenvalues[d19 - 1] == Approx(0).margin(1e-10));  // Lemma 19: lambda_min = 0
  for (int i = 0; i < d19; ++i) CHECK((info.Sigma.row(i).array() != 0).count() <= k);  // k-RCS
}

TEST_CASE("kumar2025_lemma22_family: Sigma is the padded-subcube member Sigma_s, target v_s = s_bar/sqrt(d)",
          "[kumar2025][models]") {
  for (const std::string distribution : {"edge_spike", "gaussian"}) {
    SECTION(distribution) {
      const auto m = model("kumar2025_lemma22_family", params(d22, distribution), 4);
      const auto& info = m->info();
      const VectorXd v = info.target.col(0);
      const VectorXd s_bar = std::sqrt(double(d22)) * v;
      CHECK(s_bar.cwiseAbs().isOnes(1e-12));
      CHECK(s_bar.head(d22 / 2).isOnes(1e-12));  // the padded half
      Rng rng(4, 0);
      const auto cube = dpb::lower::padded_subcube(d22, k, {}, rng);
      const VectorXd s = s_bar.tail(d22 / 2).array().round();
      CHECK(info.Sigma == cube.covariance(s));
      CHECK((info.Sigma * v - 2 * v).norm() < 1e-12);
      CHECK(std::abs(top_eigenvector(info.Sigma).dot(v)) == Approx(1).epsilon(1e-10));
      // spec A17: the edge spike is d-sub-Gaussian; N(0, Sigma) is ||Sigma||_op = 2-sub-Gaussian.
      CHECK(info.params.at("subgaussian_sigma2") == (distribution == "edge_spike" ? d22 : 2));
    }
  }
}

TEST_CASE("kumar2025 family models: the samples' second moment converges to Sigma", "[kumar2025][models]") {
  // check_second_moment allows 6 standard errors per entry (model_checks.hpp): a wrong Sigma or sampler
  // fails, a correct one with probability ~2e-9 per entry.
  for (const auto& [id, p] : {std::pair{std::string("kumar2025_lemma19_family"), params(d19)},
                              std::pair{std::string("kumar2025_lemma22_family"), params(d22, "edge_spike")},
                              std::pair{std::string("kumar2025_lemma22_family"), params(d22, "gaussian")}}) {
    INFO(id);
    const auto m = model(id, p, 5);
    Rng rng(5, 1);
    const MatrixXd X = m->sample(40000, rng);
    REQUIRE(X.rows() == m->info().d());
    dpb::test::check_second_moment(X, m->info().Sigma);
  }
}

TEST_CASE("kumar2025 family models: one seed builds one member, another seed another", "[kumar2025][models]") {
  for (const auto& [id, d] : {std::pair{std::string("kumar2025_lemma19_family"), d19},
                              std::pair{std::string("kumar2025_lemma22_family"), d22}}) {
    INFO(id);
    const auto a = model(id, params(d), 8), b = model(id, params(d), 8), c = model(id, params(d), 9);
    CHECK(a->info().Sigma == b->info().Sigma);
    CHECK(a->info().target == b->info().target);
    CHECK(a->info().Sigma != c->info().Sigma);
    Rng ra(8, 2), rb(8, 2);
    CHECK(a->sample(5, ra) == b->sample(5, rb));
  }
}

TEST_CASE("kumar2025 family models: bad parameters say what is allowed", "[kumar2025][models]") {
  const auto fails = [](const std::string& id, const ParamMap& p, const std::string& text) {
    INFO(id << ": " << text);
    CHECK_THROWS_MATCHES(model(id, p, 1), InvalidArgument, MessageContains(id) && MessageContains(text));
  };
  fails("kumar2025_lemma19_family", params(31), "need 3 | d, k >= 6 even and k <= d/3");
  fails("kumar2025_lemma19_family", params(15), "k <= d/3");  // k = 6 > 15/3
  ParamMap odd_k = params(d19);
  odd_k.set("k", 7.0);
  fails("kumar2025_lemma19_family", odd_k, "k >= 6 even");
  fails("kumar2025_lemma22_family", params(21), "need d even");
  fails("kumar2025_lemma22_family", params(d22, "uniform"), "distribution must be edge_spike or gaussian");
  ParamMap unknown = params(d22);
  unknown.set("lambda", 2.0);
  fails("kumar2025_lemma22_family", unknown, "lambda");
}
