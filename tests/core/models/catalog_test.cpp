#include <catch2/catch.hpp>
#include <set>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/models/model.hpp"
#include "tests/core/models/model_checks.hpp"

using dpb::InvalidArgument;
using dpb::core::find_model;
using dpb::core::make_model;
using dpb::core::model_catalog;
using dpb::core::Rng;
using dpb::test::MessageContains;

namespace {

// A_i Q for every i with Q = I: the sample matrices themselves, whatever the model's data type.
std::vector<Eigen::MatrixXd> matrices(const dpb::core::Model& model, Eigen::Index n, Rng rng) {
  const auto samples = model.sample_matrices(n, rng);
  const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(samples->d(), samples->d());
  std::vector<Eigen::MatrixXd> out(n, Eigen::MatrixXd(samples->d(), samples->d()));
  for (Eigen::Index i = 0; i < n; ++i) samples->apply(i, I, out[i]);
  return out;
}

}  // namespace

TEST_CASE("model catalogue: ids are unique and documented, unknown ids list the known ones", "[models]") {
  std::set<std::string> ids;
  for (const auto& e : model_catalog()) {
    CHECK(ids.insert(e.id).second);
    CHECK_FALSE(e.summary.empty());
    CHECK_FALSE(e.source.empty());
    REQUIRE_FALSE(e.params.empty());
    for (const auto& p : e.params) {
      CHECK_FALSE(p.name.empty());
      CHECK_FALSE(p.default_value.empty());
      CHECK_FALSE(p.doc.empty());
    }
    CHECK(&find_model(e.id) == &e);
  }
  for (const char* id :
       {"spiked_gaussian", "spiked_rademacher", "spiked_uniform", "spiked_student_t", "signal_plus_noise",
        "heavy_tail_mixture", "fixed_gap_heavy_tail", "dugler_k1", "dugler_shifted"})
    CHECK(ids.count(id) == 1);
  Rng rng(6, 1);
  CHECK_THROWS_MATCHES(make_model("nope", {}, rng), InvalidArgument,
                       MessageContains("unknown model 'nope'") && MessageContains("spiked_gaussian") &&
                           MessageContains("dugler_shifted"));
}

TEST_CASE("model catalogue: every model builds from its defaults with a consistent ModelInfo", "[models]") {
  for (const auto& e : model_catalog()) {
    SECTION(e.id) {
      Rng rng(6, 2);
      const auto model = make_model(e.id, {}, rng);
      const auto& info = model->info();
      CHECK(info.model == e.id);
      const Eigen::Index d = info.d();
      REQUIRE(info.Sigma.cols() == d);
      CHECK(info.Sigma.isApprox(info.Sigma.transpose()));
      // The closed-form eigenvalues are Sigma's, descending, and the target spans the top r.
      Eigen::VectorXd numeric =
          dpb::core::symmetric_eigenvalues(info.Sigma).reverse();
      CHECK((numeric - info.eigenvalues).cwiseAbs().maxCoeff() < 1e-10 * info.eigenvalues[0]);
      const Eigen::Index r = info.r();
      CHECK((info.target.transpose() * info.target - Eigen::MatrixXd::Identity(r, r)).norm() < 1e-12);
      CHECK((info.Sigma * info.target - info.target * info.eigenvalues.head(r).asDiagonal()).norm() <
            1e-10 * info.eigenvalues[0]);
      CHECK(info.params.at("d") == static_cast<double>(d));
      CHECK(info.params.at("lambda1") == info.eigenvalues[0]);
      CHECK(info.params.at("lambda2") == info.eigenvalues[1]);
      if (info.kappa)
        CHECK(*info.kappa == Approx(info.eigenvalues[0] / (info.eigenvalues[0] - info.eigenvalues[1])));
    }
  }
}

TEST_CASE("model catalogue: the same seed gives identical data, another seed different data", "[models]") {
  for (const auto& e : model_catalog()) {
    SECTION(e.id) {
      const auto build = [&](std::uint64_t seed) {
        Rng rng(seed, 3);
        return make_model(e.id, {{"d", 6.0}}, rng);
      };
      const auto a = build(7), b = build(7), c = build(8);
      CHECK(a->info().Sigma == b->info().Sigma);
      CHECK(matrices(*a, 50, Rng(7, 4)) == matrices(*b, 50, Rng(7, 4)));
      CHECK(matrices(*a, 50, Rng(7, 4)) != matrices(*a, 50, Rng(8, 4)));
      CHECK(a->info().Sigma != c->info().Sigma);
    }
  }
}

TEST_CASE("model catalogue: unknown parameters are rejected with the allowed names", "[models]") {
  for (const auto& e : model_catalog()) {
    Rng rng(6, 5);
    CHECK_THROWS_MATCHES(make_model(e.id, {{"bogus", 1.0}}, rng), InvalidArgument,
                         MessageContains("unknown parameter 'bogus'") && MessageContains("allowed: d, p"));
  }
}

TEST_CASE("model catalogue: register_model refuses a taken id, and any model once the catalogue is in use",
          "[models]") {
  const auto entry = [](std::string id) {
    dpb::core::ModelEntry e = find_model("spiked_gaussian");
    e.id = std::move(id);
    return e;
  };
  CHECK_THROWS_MATCHES(dpb::core::register_model(entry("spiked_gaussian")), InvalidArgument,
                       MessageContains("already exists"));
  const std::size_t size = model_catalog().size();
  CHECK_THROWS_MATCHES(dpb::core::register_model(entry("late_model")), InvalidArgument,
                       MessageContains("already in use"));
  CHECK(model_catalog().size() == size);
}
