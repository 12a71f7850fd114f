#include "core/models/spiked.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <string>

#include "core/errors.hpp"
#include "tests/core/models/model_checks.hpp"

using dpb::InvalidArgument;
using dpb::core::make_model;
using dpb::core::ParamMap;
using dpb::core::Rng;
using dpb::test::MessageContains;

namespace {

// d = 5, spikes (4, 1), sigma2 = 0.5: Sigma's eigenvalues are (4.5, 1.5, 0.5, 0.5, 0.5).
ParamMap two_spikes() { return {{"d", 5.0}, {"lambdas", std::vector<double>{4.0, 1.0}}, {"sigma2", 0.5}}; }

}  // namespace

TEST_CASE("spiked_gaussian: exact population quantities", "[models]") {
  Rng rng(1, 1);
  const auto model = make_model("spiked_gaussian", two_spikes(), rng);
  const auto& info = model->info();
  const Eigen::MatrixXd& U = info.target;
  REQUIRE(U.rows() == 5);
  REQUIRE(U.cols() == 2);
  CHECK((U.transpose() * U - Eigen::MatrixXd::Identity(2, 2)).norm() < 1e-12);
  const Eigen::Vector2d spikes(4.0, 1.0);
  CHECK((info.Sigma - (U * spikes.asDiagonal() * U.transpose() + 0.5 * Eigen::MatrixXd::Identity(5, 5)))
            .norm() < 1e-12);
  Eigen::VectorXd eigenvalues(5);
  eigenvalues << 4.5, 1.5, 0.5, 0.5, 0.5;
  CHECK(info.eigenvalues == eigenvalues);
  CHECK((info.Sigma * U - U * Eigen::Vector2d(4.5, 1.5).asDiagonal()).norm() < 1e-12);
  CHECK(*info.kappa == Approx(1.5));                  // 4.5 / (4.5 - 1.5)
  CHECK(*info.effective_rank == Approx(10.5 / 4.5));  // (2*4 + 5*0.5)/(4 + 0.5)
  CHECK(*info.V == Approx(7.5 / 4.5 + 1));            // tr(Sigma)/lambda1 + 1, tr = 7.5
  CHECK(*info.gamma2 == 2.0);
  CHECK(info.params.at("lambda1") == 4.5);
  CHECK(info.params.at("lambda2") == 1.5);
  CHECK(info.params.at("gap") == 1.0);  // lambda_r - lambda_{r+1} = 1.5 - 0.5 for the rank-2 target
  CHECK(info.params.at("gamma") == Approx(std::sqrt(2.0)));
  CHECK(info.params.at("lambda") == 4.0);
  CHECK(info.params.at("kappa0") == 4.0);
  CHECK(info.params.at("d") == 5);
  CHECK(info.params.at("p") == 5);
  CHECK(info.params.at("r") == 2);
  CHECK(info.params.at("sigma2") == 0.5);
  CHECK(info.params.at("V") == *info.V);
  CHECK(info.params.at("gamma2") == 2.0);
  CHECK(info.params.at("effective_rank") == *info.effective_rank);
}

TEST_CASE("spiked_gaussian: spike profiles from lambda, spacing and condition", "[models]") {
  Rng rng(1, 2);
  const auto spikes_of = [&](ParamMap p) {
    p.set("d", 6.0);
    p.set("sigma2", 1.0);
    return Eigen::VectorXd(make_model("spiked_gaussian", p, rng)->info().eigenvalues.head(3).array() - 1.0);
  };
  CHECK(spikes_of({{"r", 3.0}, {"lambda", 8.0}}) == Eigen::Vector3d(8, 8, 8));
  CHECK(spikes_of({{"r", 3.0}, {"lambda", 8.0}, {"spacing", "linear"}, {"condition", 4.0}})
            .isApprox(Eigen::Vector3d(8, 5, 2)));
  CHECK(spikes_of({{"r", 3.0}, {"lambda", 8.0}, {"spacing", "geometric"}, {"condition", 4.0}})
            .isApprox(Eigen::Vector3d(8, 4, 2)));
  // Equal spikes with r >= 2: lambda1 = lambda2, so liu2022's kappa is infinite and left empty.
  const auto equal = make_model("spiked_gaussian", {{"d", 6.0}, {"r", 2.0}}, rng);
  CHECK_FALSE(equal->info().kappa.has_value());
  CHECK(equal->info().params.count("kappa") == 0);
  // cai2024's p is an alias of d.
  CHECK(make_model("spiked_gaussian", {{"p", 7.0}}, rng)->info().d() == 7);
}

TEST_CASE("spiked models: the empirical covariance, V and gamma^2 match the stated values", "[models]") {
  // n = 5e5 in d = 5: the spectral-norm tolerances of check_V / check_gamma2 come out at 3-6% of the values.
  const Eigen::Index n = 500000;
  for (const std::string id :
       {"spiked_gaussian", "spiked_rademacher", "spiked_uniform", "spiked_student_t"}) {
    SECTION(id) {
      Rng rng(3, 1);
      ParamMap params = two_spikes();
      // nu = 12: finite 8th moments, so the CLT applies to the |x|^2 x x^T averages behind V.
      if (id == "spiked_student_t") params.set("nu", 12.0);
      const auto model = make_model(id, params, rng);
      const auto& info = model->info();
      const Eigen::MatrixXd X = model->sample(n, rng);
      REQUIRE(X.rows() == 5);
      REQUIRE(X.cols() == n);
      dpb::test::check_second_moment(X, info.Sigma);
      REQUIRE(info.V.has_value());
      dpb::test::check_V(X, info.Sigma, info.eigenvalues[0], *info.V);
      if (id == "spiked_gaussian") {
        dpb::test::check_gamma2(X, info.Sigma, info.eigenvalues[0], *info.gamma2, info.target.col(0), rng);
      } else {
        CHECK_FALSE(info.gamma2.has_value());  // no closed form off the Gaussian case
      }
    }
  }
}

TEST_CASE("spiked_student_t: V is absent when the fourth moment is infinite", "[models]") {
  Rng rng(1, 3);
  CHECK_FALSE(make_model("spiked_student_t", {{"d", 4.0}, {"nu", 4.0}}, rng)->info().V.has_value());
  CHECK(make_model("spiked_student_t", {{"d", 4.0}, {"nu", 5.0}}, rng)->info().V.has_value());
}

TEST_CASE("spiked models: invalid parameters are rejected with what is allowed", "[models]") {
  Rng rng(1, 4);
  const auto rejects = [&](const std::string& id, const ParamMap& p, const std::string& says) {
    INFO(id << ": expecting a message containing '" << says << "'");
    CHECK_THROWS_MATCHES(make_model(id, p, rng), InvalidArgument, MessageContains(says));
  };
  rejects("spiked_gaussian", {{"nu", 5.0}}, "allowed: d, p, r, lambda");
  rejects("spiked_gaussian", {{"d", 1.0}}, "'d' must be an integer in [2,");
  rejects("spiked_gaussian", {{"d", 5.5}}, "must be an integer");
  rejects("spiked_gaussian", {{"d", 5.0}, {"p", 6.0}}, "alias");
  rejects("spiked_gaussian", {{"d", 5.0}, {"r", 6.0}}, "'r' must be an integer in [1, 5]");
  rejects("spiked_gaussian", {{"lambda", 0.0}}, "'lambda' must be a finite number > 0");
  rejects("spiked_gaussian", {{"sigma2", -1.0}}, "'sigma2' must be a finite number > 0");
  rejects("spiked_gaussian", {{"lambdas", std::vector<double>{1.0, 2.0}}}, "non-increasing");
  rejects("spiked_gaussian", {{"lambdas", std::vector<double>{2.0, 1.0}}, {"r", 3.0}}, "must have 3 entries");
  rejects("spiked_gaussian", {{"lambdas", std::vector<double>{2.0, -1.0}}}, "> 0");
  rejects("spiked_gaussian", {{"lambdas", std::vector<double>{2.0}}, {"lambda", 3.0}}, "not both");
  rejects("spiked_gaussian", {{"spacing", "cubic"}}, "equal, linear, geometric");
  rejects("spiked_gaussian", {{"r", 2.0}, {"spacing", "linear"}, {"condition", 0.5}}, "must be >= 1");
  rejects("spiked_gaussian", {{"r", 2.0}, {"condition", 3.0}}, "needs spacing linear or geometric");
  rejects("spiked_gaussian", {{"r", 1.0}, {"spacing", "geometric"}, {"condition", 3.0}}, "r >= 2");
  rejects("spiked_student_t", {{"nu", 2.0}}, "'nu' must be > 2");
  rejects("spiked_rademacher", {{"nu", 5.0}}, "unknown parameter 'nu'");
  Rng sample_rng(1, 5);
  CHECK_THROWS_AS(make_model("spiked_gaussian", {}, rng)->sample(-1, sample_rng), InvalidArgument);
}

// The samples are drawn a block of columns at a time: the bits must be those of one (r + d) x n draw and
// whole products, at every n around the block boundaries (the block is 2^15 / (r + d) columns rounded down
// to a multiple of 8, at least 32; the last block takes a short tail). Unrounded, d = 63, r = 8 and d = 14,
// r = 8 gave blocks of 461 and 1489 columns, and columns beside the boundaries summed in another order.
TEST_CASE("spiked models: samples drawn in blocks are the bits of one whole draw", "[models]") {
  using dpb::core::EntryNoise;
  for (const auto kind : {EntryNoise::gaussian, EntryNoise::rademacher, EntryNoise::student_t}) {
    const dpb::core::StandardizedEntries entries{kind, kind == EntryNoise::student_t ? 5.0 : 0.0};
    for (const auto& [d, r] : {std::pair<Eigen::Index, Eigen::Index>{2, 1},
                               {10, 1},
                               {10, 3},
                               {200, 3},
                               {63, 8},
                               {14, 8},
                               {40, 20}}) {
      Rng setup(7, 1);
      const Eigen::MatrixXd U = dpb::core::haar_frame(setup, d, r);
      Eigen::VectorXd spikes = Eigen::VectorXd::LinSpaced(r, 3.0, 1.0 + 1.0 / double(r));
      const double sigma2 = 0.7;
      const dpb::core::SpikedModel model("spiked_test", U, spikes, sigma2, entries);
      const Eigen::MatrixXd loadings =
          U * spikes.cwiseSqrt().asDiagonal();  // a matrix, as the model holds it
      const Eigen::Index block = std::max<Eigen::Index>(32, (Eigen::Index{1} << 15) / (r + d) / 8 * 8);
      for (const Eigen::Index n : {Eigen::Index{1}, Eigen::Index{31}, Eigen::Index{33}, block, block + 31,
                                   block + 32, block + 33, 3 * block + 7}) {
        Rng a(11, 2), b(11, 2);
        const Eigen::MatrixXd X = model.sample(n, a);
        Eigen::MatrixXd draws(r + d, n);
        entries.fill(b, {draws.data(), static_cast<std::size_t>(draws.size())});
        Eigen::MatrixXd expected(d, n);
        expected.noalias() = std::sqrt(sigma2) * draws.bottomRows(d);
        expected.noalias() += loadings * draws.topRows(r);
        INFO("kind " << int(kind) << ", d = " << d << ", r = " << r << ", n = " << n);
        CHECK(std::memcmp(X.data(), expected.data(), sizeof(double) * std::size_t(X.size())) == 0);
        CHECK(a() == b());  // the stream is left where one whole draw leaves it
      }
    }
  }
}
