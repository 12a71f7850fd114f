#include "algorithms/mutants/breaks.hpp"

#include <catch2/catch.hpp>
#include <utility>

#include "algorithms/mechanisms/accountant.hpp"
#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/registry.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/samplers.hpp"
#include "core/sample_matrices.hpp"

namespace {

dpb::alg::Ledger breaks_ledger;  // where the statistics record themselves; the tests read their values

using namespace dpb;

// Three records in d = 2 (columns): squared norms 2, 9, 0.5; largest |entry| 3.
Eigen::MatrixXd records() {
  Eigen::MatrixXd X(2, 3);
  X << 1, -3, 0.5,  //
      1, 0, -0.5;
  return X;
}

}  // namespace

TEST_CASE("inverted_epsilon hands the mechanism 1/eps and keeps delta and neighbours", "[mutants]") {
  const alg::Privacy broken = alg::mutants::inverted_epsilon({0.25, 1e-5, alg::Neighbours::add_remove});
  CHECK(broken.epsilon == 4);
  CHECK(broken.delta == 1e-5);
  CHECK(broken.neighbours == alg::Neighbours::add_remove);
  CHECK_THROWS_AS(alg::mutants::inverted_epsilon({0, 0, alg::Neighbours::replace}), InvalidArgument);
}

TEST_CASE("the data-derived bounds are the plain statistics of the records", "[mutants]") {
  const Eigen::MatrixXd X = records();
  alg::Input in;
  in.X = &X;
  CHECK(alg::mutants::max_squared_norm(in, "test", breaks_ledger) == 9);
  CHECK(alg::mutants::max_abs_entry(in, "test", breaks_ledger) == 3);
  // Centred records (2/3, 5/6), (-10/3, -1/6), (1/6, -4/6); covariance (1/3) sum c c^T.
  Eigen::MatrixXd centred = X.colwise() - X.rowwise().mean();
  const Eigen::MatrixXd covariance = centred * centred.transpose() / 3.0;
  const double top = dpb::core::symmetric_eigenvalues(covariance)(1);
  CHECK(alg::mutants::top_sample_covariance_eigenvalue(in, "test", breaks_ledger) ==
        Approx(top).epsilon(1e-12));
  const core::VectorSamples samples(X);
  alg::Input matrices;
  matrices.samples = &samples;
  // ||x x^T||_F = ||x||^2.
  CHECK(alg::mutants::max_sample_matrix_frobenius(matrices, "test", breaks_ledger) ==
        Approx(9).epsilon(1e-12));
}

TEST_CASE("the data-derived bounds refuse an input without the data they read", "[mutants]") {
  const alg::Input empty;
  CHECK_THROWS_AS(alg::mutants::max_squared_norm(empty, "test", breaks_ledger), InvalidArgument);
  CHECK_THROWS_AS(alg::mutants::max_abs_entry(empty, "test", breaks_ledger), InvalidArgument);
  CHECK_THROWS_AS(alg::mutants::top_sample_covariance_eigenvalue(empty, "test", breaks_ledger),
                  InvalidArgument);
  CHECK_THROWS_AS(alg::mutants::max_sample_matrix_frobenius(empty, "test", breaks_ledger), InvalidArgument);
}

TEST_CASE("noise_scaled_budget gives the budget whose analytic Gaussian noise is factor times smaller",
          "[mutants]") {
  const dpb::alg::Privacy asked{1.0, 1e-5, dpb::alg::Neighbours::replace};
  for (const double factor : {0.5, 0.7, 0.8}) {
    const auto broken = dpb::alg::mutants::noise_scaled_budget(asked, factor);
    CHECK(dpb::alg::analytic_gaussian_sigma(1, broken.epsilon, broken.delta) ==
          Approx(factor * dpb::alg::analytic_gaussian_sigma(1, 1.0, 1e-5)).epsilon(1e-9));
    CHECK(broken.epsilon > 1.0);
    CHECK(broken.delta == asked.delta);
  }
  CHECK_THROWS_AS(dpb::alg::mutants::noise_scaled_budget(asked, 1.0), dpb::InvalidArgument);
}

namespace {

// baseline.dp_gauss_1 (beta = 3) run on fixed data at (1, 1e-5), k = 1, with the stream (1, 1).
dpb::alg::Estimate dp_gauss_1_run(const std::string& id) {
  dpb::core::Rng data_rng(3, 0), rng(1, 1);
  static const Eigen::MatrixXd X = dpb::core::standard_normal_matrix(data_rng, 4, 60);
  dpb::alg::Input in;
  in.X = &X;
  in.k = 1;
  in.privacy = {1.0, 1e-5};
  return dpb::alg::algorithm_registry().make(id, {{"beta", 3.0}})->run(in, rng);
}

bool ledger_overspends(const dpb::alg::Estimate& e) {
  return !dpb::alg::within_claim(dpb::alg::account(e.ledger, 1e-5, dpb::alg::Neighbours::replace), e.claim);
}

}  // namespace

TEST_CASE("the DP-Gauss-1 noise mutants add 0.7 and 0.8 of the real noise, and their ledgers say so",
          "[mutants]") {
  const auto real = dp_gauss_1_run("baseline.dp_gauss_1");
  for (const auto& [id, factor] : {std::pair<const char*, double>{"mutant.dp_gauss_1_noise_x07", 0.7},
                                   {"mutant.dp_gauss_1_noise_x08", 0.8}}) {
    INFO(id);
    const auto broken = dp_gauss_1_run(id);
    REQUIRE(broken.ledger.entries().size() == 1);
    CHECK(broken.ledger.entries()[0].noise_scale == Approx(factor * real.ledger.entries()[0].noise_scale));
    CHECK(broken.claim.epsilon == real.claim.epsilon);
    CHECK(ledger_overspends(broken));
  }
}

TEST_CASE("mutant.dp_gauss_1_add_remove_sensitivity calibrates for beta^2 where replace-one moves sqrt(2) beta^2",
          "[mutants]") {
  const auto real = dp_gauss_1_run("baseline.dp_gauss_1");
  const auto broken = dp_gauss_1_run("mutant.dp_gauss_1_add_remove_sensitivity");
  REQUIRE(broken.ledger.entries().size() == 1);
  const auto& entry = broken.ledger.entries()[0];
  CHECK(entry.sensitivity == Approx(real.ledger.entries()[0].sensitivity));  // the true sqrt(2) beta^2
  CHECK(entry.noise_scale == Approx(real.ledger.entries()[0].noise_scale / std::sqrt(2.0)).epsilon(1e-6));
  CHECK(broken.claim.epsilon == real.claim.epsilon);
  CHECK(ledger_overspends(broken));
}

TEST_CASE("the Private Oja noise mutants add 0.7 of the real noise per step, and their ledgers say so", "[mutants]") {
  // The real algorithms at the settings each mutant pins (liu2022: no shuffle, so the proven calibration is the
  // analytic one; dugler2026: the analytic calibration), explicit constants so no oracle is needed.
  dpb::core::Rng data_rng(3, 0);
  const Eigen::MatrixXd X = dpb::core::standard_normal_matrix(data_rng, 3, 400);
  const dpb::core::VectorSamples samples(X);
  dpb::alg::Input in;
  in.samples = &samples;
  in.k = 1;
  in.privacy = {0.5, 1e-5};
  struct Case {
    const char* real;
    const char* mutant;
    dpb::core::ParamMap params;
    const char* noise_counter;
  };
  const Case cases[] = {
      {"liu2022.private_oja", "mutant.private_oja_noise_x07",
       {{"lambda1", 3.0}, {"lambda2", 1.0}, {"gamma", 1.0}, {"shuffle", std::string("false")}}, "noise_multiplier"},
      {"dugler2026.private_oja", "mutant.dugler2026_private_oja_noise_x07",
       {{"clip_radius", 5.0}, {"calibration", std::string("analytic")}}, "sigma"},
  };
  for (const Case& c : cases) {
    INFO(c.mutant);
    const auto& registry = dpb::alg::algorithm_registry();
    dpb::core::ParamMap mutant_params;
    for (const auto& [name, value] : c.params.values())
      if (name != "shuffle" && name != "calibration") mutant_params.set(name, value);
    dpb::core::Rng r1(1, 1), r2(1, 1);
    const auto real = registry.make(c.real, c.params)->run(in, r1);
    const auto broken = registry.make(c.mutant, mutant_params)->run(in, r2);
    CHECK(broken.diagnostics.counters.at(c.noise_counter) ==
          Approx(0.7 * real.diagnostics.counters.at(c.noise_counter)).epsilon(1e-9));
    CHECK(broken.claim.epsilon == real.claim.epsilon);
    CHECK_FALSE(dpb::alg::within_claim(dpb::alg::account(broken.ledger, 1e-5, dpb::alg::Neighbours::replace),
                                       broken.claim));
    CHECK(dpb::alg::within_claim(dpb::alg::account(real.ledger, 1e-5, dpb::alg::Neighbours::replace), real.claim));
  }
}
