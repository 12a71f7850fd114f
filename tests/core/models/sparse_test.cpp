#include "core/models/sparse.hpp"

#include <catch2/catch.hpp>
#include <set>

#include "core/errors.hpp"
#include "tests/core/models/model_checks.hpp"

using dpb::core::make_model;
using dpb::core::Rng;
using Eigen::Index;
using Eigen::MatrixXd;

namespace {

// Largest number of nonzeros in any row (Sigma is symmetric, so columns agree).
Index max_row_nnz(const MatrixXd& M) { return (M.array() != 0).cast<Index>().rowwise().sum().maxCoeff(); }

}  // namespace

TEST_CASE("sparse_block_spike: k-RCS Sigma, k-sparse v1, exact eigenvalues and gap", "[models]") {
  Rng rng(1, 0);
  const auto model =
      make_model("sparse_block_spike", {{"d", 11.0}, {"k", 3.0}, {"lambda", 5.0}, {"rho", 1.0}}, rng);
  const auto& info = model->info();
  CHECK(max_row_nnz(info.Sigma) == 3);  // 3 blocks of 3 (dense), 2 leftover diagonal coordinates
  CHECK((info.target.array() != 0).count() == 3);
  CHECK(info.eigenvalues[0] == 6);
  CHECK(info.eigenvalues[1] == 2);
  CHECK(info.eigenvalues[2] == 2);
  CHECK(info.eigenvalues[3] == 1);
  CHECK(info.params.at("gamma") == Approx(1 - 2.0 / 6));
  CHECK(info.params.at("subgaussian_sigma2") == 6);
  CHECK((info.Sigma * info.target - 6 * info.target).norm() < 1e-12);
  // Contiguous placement puts v1 on the first k coordinates.
  Rng rng2(1, 0);
  const auto plain = make_model("sparse_block_spike", {{"d", 11.0}, {"k", 3.0}, {"shuffle", 0.0}}, rng2);
  CHECK(plain->info().target.col(0).tail(8).isZero(0));
  CHECK_THROWS_WITH(make_model("sparse_block_spike", {{"rho", 5.0}}, rng), Catch::Contains("rho < lambda"));
  CHECK_THROWS_AS(make_model("sparse_block_spike", {{"d", 4.0}, {"k", 5.0}}, rng), dpb::InvalidArgument);
}

TEST_CASE("sparse_rcs_expander: k-RCS Sigma with a dense v1 = 1/sqrt(d) and a positive gap", "[models]") {
  Rng rng(2, 0);
  const auto model = make_model("sparse_rcs_expander", {{"d", 40.0}, {"k", 5.0}}, rng);
  const auto& info = model->info();
  CHECK(max_row_nnz(info.Sigma) <= 5);
  CHECK(info.eigenvalues[0] == Approx(1 + 8));  // floor + 4 h c with h = 2, c = 1
  CHECK((info.target.array() != 0).all());
  CHECK(info.params.at("gamma") > 0);
  CHECK(info.Sigma.rowwise().sum().isConstant(9, 1e-12));
  CHECK(info.eigenvalues.minCoeff() >= 1 - 1e-9);  // Sigma >= floor I
  CHECK_THROWS_WITH(make_model("sparse_rcs_expander", {{"k", 2.0}}, rng), Catch::Contains("[3,"));
}

TEST_CASE("sparse models: the empirical covariance converges to Sigma (CLT tolerance)", "[models]") {
  // model_checks' entrywise 6-standard-error test (a correct sampler fails an entry w.p. ~2e-9).
  for (const char* id : {"sparse_block_spike", "sparse_rcs_expander"}) {
    SECTION(id) {
      Rng rng(3, 0);
      const auto model = make_model(id, {{"d", 8.0}, {"k", 3.0}}, rng);
      Rng data(3, 1);
      dpb::test::check_second_moment(model->sample(100000, data), model->info().Sigma);
    }
  }
}
