#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "core/models/model.hpp"
#include "verify/runner/trial_input.hpp"

using namespace dpb;

TEST_CASE("trial inputs give each family the data form it declares", "[verify][trial_input]") {
  core::Rng rng(3, 1);
  const core::ParamMap gaussian_params{{"d", 6.0}, {"r", 1.0}, {"lambda", 4.0}};
  const auto gaussian = core::make_model("spiked_gaussian", gaussian_params, rng);
  const auto& registry = alg::algorithm_registry();
  const auto& vectors_entry = registry.find("baseline.nonprivate_pca");
  const auto& matrices_entry = registry.find("liu2022.oja");
  REQUIRE(vectors_entry.needs == alg::DataNeed::vectors);
  REQUIRE(matrices_entry.needs == alg::DataNeed::sample_matrices);

  const auto with_vectors = verify::draw_trial_data(*gaussian, vectors_entry, 50, rng);
  REQUIRE(with_vectors.X);
  CHECK(with_vectors.X->cols() == 50);
  const auto in = verify::make_input(vectors_entry, with_vectors, 2, alg::Privacy{1.0, 1e-5}, &gaussian->info());
  CHECK(in.X == &*with_vectors.X);
  CHECK(in.samples->n() == 50);
  // The sample matrices are x_i x_i^T of the same vectors.
  Eigen::MatrixXd Q = Eigen::MatrixXd::Identity(6, 1), out(6, 1);
  in.samples->apply(7, Q, out);
  CHECK((out - with_vectors.X->col(7) * (*with_vectors.X)(0, 7)).norm() < 1e-12);

  CHECK_THROWS_WITH(verify::make_input(vectors_entry, with_vectors, 7, alg::Privacy{1.0, 1e-5}, nullptr),
                    Catch::Contains("1..d"));

  const core::ParamMap shifted_params{{"d", 6.0}, {"k", 2.0}};
  const auto shifted = core::make_model("dugler_shifted", shifted_params, rng);
  const auto matrices_only = verify::draw_trial_data(*shifted, matrices_entry, 20, rng);
  CHECK_FALSE(matrices_only.X);
  CHECK(verify::make_input(matrices_entry, matrices_only, 1, alg::Privacy{1.0, 1e-5}, nullptr).samples->n() == 20);
  CHECK_THROWS_WITH(verify::make_input(vectors_entry, matrices_only, 1, alg::Privacy{1.0, 1e-5}, nullptr),
                    Catch::Contains("needs data vectors"));
}

TEST_CASE("the dugler2026 baselines read records, or F.1's matrices C + z z^T where the model has no records",
          "[verify][trial_input]") {
  core::Rng rng(5, 1);
  const auto& entry = alg::algorithm_registry().find("baseline.dp_gauss_1");
  REQUIRE(entry.needs == alg::DataNeed::psd_samples);
  const core::ParamMap gaussian_params{{"d", 6.0}, {"r", 2.0}, {"lambda", 4.0}};
  const auto gaussian = core::make_model("spiked_gaussian", gaussian_params, rng);
  CHECK(verify::draw_trial_data(*gaussian, entry, 30, rng).X);

  const core::ParamMap shifted_params{{"d", 6.0}, {"k", 2.0}, {"gap", 4.0}, {"sigma", 0.3}};
  const auto shifted = core::make_model("dugler_shifted", shifted_params, rng);
  CHECK_FALSE(shifted->gives_vectors());
  const auto data = verify::draw_trial_data(*shifted, entry, 4000, rng);
  CHECK_FALSE(data.X);
  const auto in = verify::make_input(entry, data, 2, alg::Privacy{1.0, 1e-5}, &shifted->info());
  core::Rng run_rng(9, 0);
  const auto estimate = alg::algorithm_registry().make(entry.id, {})->run(in, run_rng);
  // The release follows the shifted matrices' top-2 space (the fixed V_k Lambda V_k^T, gap 4): with beta from the
  // oracle nothing is clipped and the noise (sd ~ 5 beta^2 on a sum of 4000 matrices) is small against 4000 x 4.
  const Eigen::MatrixXd& target = shifted->info().target;
  REQUIRE(estimate.Q);
  const Eigen::MatrixXd& Q = *estimate.Q;
  const double projector_error = (Q * Q.transpose() - target * target.transpose()).norm();
  CHECK(projector_error < 0.2);
  CHECK(estimate.diagnostics.counters.at("clipped") == 0);
}
