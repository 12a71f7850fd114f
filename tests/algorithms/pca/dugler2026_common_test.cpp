#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/pca/dugler2026_common.hpp"
#include "algorithms/pca/dugler2026_support.hpp"
#include "core/errors.hpp"
#include "core/samplers.hpp"

using namespace dpb;
using namespace dpb::alg::dugler2026;
namespace dt = dpb::test::dugler;

TEST_CASE("dugler2026 QR: orthonormal factor with a positive diagonal of R, in place", "[dugler2026]") {
  core::Rng rng(1, 1);
  const Eigen::MatrixXd Y0 = core::standard_normal_matrix(rng, 7, 3);
  Eigen::MatrixXd Y = Y0;
  orthonormalize_in_place(Y);
  CHECK((Y.transpose() * Y - Eigen::MatrixXd::Identity(3, 3)).norm() < 1e-14);
  const Eigen::MatrixXd R = Y.transpose() * Y0;  // Y0 = Y R, R upper triangular with R_jj > 0
  for (int j = 0; j < 3; ++j) {
    CHECK(R(j, j) > 0);
    for (int i = j + 1; i < 3; ++i) CHECK(std::abs(R(i, j)) < 1e-13);
  }
  CHECK((Y * R - Y0).norm() < 1e-13);
  Eigen::MatrixXd flipped = -Eigen::MatrixXd::Identity(3, 2);
  orthonormalize_in_place(flipped);  // -I = (-I) I: R = I has the positive diagonal
  CHECK(flipped == -Eigen::MatrixXd::Identity(3, 2));
  Eigen::MatrixXd deficient(3, 2);
  deficient << 1, 2, 1, 2, 1, 2;  // parallel columns: the residual is rounding, not a direction
  CHECK_THROWS_AS(orthonormalize_in_place(deficient), InvalidArgument);
  Eigen::MatrixXd zero = Eigen::MatrixXd::Identity(3, 2);
  zero.col(1).setZero();
  CHECK_THROWS_AS(orthonormalize_in_place(zero), InvalidArgument);
  Eigen::MatrixXd nan = Eigen::MatrixXd::Identity(3, 2);
  nan(0, 0) = std::nan("");
  CHECK_THROWS_AS(orthonormalize_in_place(nan), InvalidArgument);
}

TEST_CASE("dugler2026 projections: P_{S_Q} symmetrises the Q block, Pi_Q removes it", "[dugler2026]") {
  core::Rng rng(2, 1);
  const Eigen::MatrixXd Q = core::haar_frame(rng, 6, 2), Qp = dt::complement(Q);
  const Eigen::MatrixXd Y = core::standard_normal_matrix(rng, 6, 2);
  Eigen::MatrixXd kk, P = Y, T = Y;
  project_onto_SQ(Q, P, kk);
  project_onto_tangent(Q, T, kk);
  const Eigen::MatrixXd QtY = Q.transpose() * Y, QtP = Q.transpose() * P;
  CHECK((QtP - 0.5 * (QtY + QtY.transpose())).norm() < 1e-14);  // Q^T P = sym(Q^T Y)
  CHECK((Qp.transpose() * (P - Y)).norm() < 1e-14);             // the Q_perp part unchanged
  CHECK((Q.transpose() * T).norm() < 1e-14);                    // Pi_Q Y lies in T_Q
  CHECK((Qp.transpose() * (T - Y)).norm() < 1e-14);
  Eigen::MatrixXd P2 = P;
  project_onto_SQ(Q, P2, kk);  // idempotent
  CHECK((P2 - P).norm() < 1e-14);
}

TEST_CASE("dugler2026 noise: tangent noise lies in T_Q, symmetric noise has a symmetric Q block",
          "[dugler2026]") {
  core::Rng qr(3, 1);
  const Eigen::MatrixXd Q = core::haar_frame(qr, 5, 2), Qp = dt::complement(Q);
  NoiseWorkspace ws;
  ws.resize(5, 2);
  dt::BlockVariance tangent, symmetric;
  const alg::LedgerEntry entry =
      alg::gaussian_entry("noise", 0.1, 0.5, alg::Privacy{1, 0.01, alg::Neighbours::replace});
  alg::Ledger ledger;
  for (int r = 0; r < 2000; ++r) {
    core::Rng rng(4, r);
    Eigen::MatrixXd t = Eigen::MatrixXd::Zero(5, 2), s = Eigen::MatrixXd::Zero(5, 2);
    add_tangent_noise(Q, entry, ledger, rng, ws, t);
    add_symmetric_noise(Q, entry, ledger, rng, ws, s);
    tangent.add(Q, Qp, t, 0.5);
    symmetric.add(Q, Qp, s, 0.5);
  }
  // The sd is the entry's; every draw is recorded, once per call (the GOE block is part of the release).
  REQUIRE(ledger.entries().size() == 1);
  CHECK(ledger.entries()[0].step == "noise");
  CHECK(ledger.entries()[0].uses == 4000);
  // Standardised entries: perp N(0, 1) (12000 entries, sd 0.013), GOE diagonal N(0, 2) (4000, sd 0.045),
  // off-diagonal N(0, 1) (4000, sd 0.022): 6 sd bands.
  CHECK(tangent.var_perp() == Approx(1.0).margin(0.08));
  CHECK(tangent.var_diag() < 1e-25);
  CHECK(tangent.var_off() < 1e-25);
  CHECK(symmetric.var_perp() == Approx(1.0).margin(0.08));
  CHECK(symmetric.var_diag() == Approx(2.0).margin(0.27));
  CHECK(symmetric.var_off() == Approx(1.0).margin(0.14));
  CHECK(symmetric.max_asym < 1e-12);
}

TEST_CASE("dugler2026 SampleRange and MatrixChunks give the products of the base samples", "[dugler2026]") {
  const auto data = dt::shifted(5, 2, 0.5, 40, 6);
  const core::SampleMatrices& S = *data.samples;
  core::Rng rng(5, 1);
  const Eigen::MatrixXd Q = core::haar_frame(rng, 5, 2);
  const SampleRange part(S, 10, 25);
  CHECK(part.n() == 25);
  CHECK(part.d() == 5);
  Eigen::MatrixXd a(5, 2), b(5, 2), many(5, 2 * 25);
  part.apply_range(0, 25, Q, many);
  for (long i = 0; i < 25; ++i) {
    part.apply(i, Q, a);
    S.apply(10 + i, Q, b);
    CHECK(a == b);
    CHECK(many.middleCols(2 * i, 2) == b);  // apply_range is bit for bit apply
  }
  CHECK_THROWS_AS(SampleRange(S, 30, 11), InvalidArgument);
  Eigen::MatrixXd too_far(5, 12);
  CHECK_THROWS_AS(part.apply_range(20, 6, Q, too_far), InvalidArgument);

  Eigen::MatrixXd buffer, kk;
  MatrixChunks plain(S, 10, 25, Q, false, buffer, kk);
  CHECK(plain.size() == 25);
  CHECK(plain.k() == 2);
  CHECK(plain.chunk_size() >= 1);
  CHECK(plain.get(3, 7) == many.middleCols(6, 14));
  MatrixChunks tangent(S, 10, 25, Q, true, buffer, kk);
  const Eigen::MatrixXd t = tangent.get(0, 25);
  for (long i = 0; i < 25; ++i) {
    Eigen::MatrixXd y = many.middleCols(2 * i, 2);
    project_onto_tangent(Q, y, kk);
    // The chunk is projected by one product for all blocks: equal to the per-block projection up to
    // rounding (the summation order of Q^T G may differ).
    CHECK((t.middleCols(2 * i, 2) - y).cwiseAbs().maxCoeff() <= 1e-14);
  }
  MatrixChunks stored(many, 2);
  CHECK(stored.size() == 25);
  CHECK(stored.get(24, 1) == many.rightCols(2));
  CHECK_THROWS_AS(stored.get(20, 6), InvalidArgument);
  CHECK_THROWS_AS(MatrixChunks(many.leftCols(3), 2), InvalidArgument);
}

TEST_CASE("dugler2026 input checks, oracle reading and the replace-one claim", "[dugler2026]") {
  const auto data = dt::shifted(4, 2, 0.5, 50, 7);
  auto in = data.input(2, 1, 0.01);
  CHECK_NOTHROW(check_input(in, "own", true, 50));
  CHECK_THROWS_WITH(check_input(in, "own", true, 51), Catch::Contains("n >= 51"));
  auto bad = in;
  bad.k = 5;
  CHECK_THROWS_WITH(check_input(bad, "own", false), Catch::Contains("k <= d"));
  bad = in;
  bad.samples = nullptr;
  CHECK_THROWS_AS(check_input(bad, "own", false), InvalidArgument);
  bad = in;
  bad.privacy.delta = 0;
  CHECK_NOTHROW(check_input(bad, "own", false));  // not checked for non-private algorithms
  CHECK_THROWS_WITH(check_input(bad, "own", true), Catch::Contains("delta"));
  bad = in;
  bad.privacy.neighbours = alg::Neighbours::add_remove;
  CHECK_THROWS_WITH(check_input(bad, "own", true), Catch::Contains("replace"));

  CHECK(oracle_sigma(in, "own", "sigma") == 0.5);
  bad = in;
  bad.oracle = nullptr;
  CHECK_THROWS_WITH(oracle_sigma(bad, "own", "the parameter sigma"), Catch::Contains("the parameter sigma"));

  const auto classical = replace_claim(in.privacy, alg::GaussianCalibration::classical, false, {"extra"});
  CHECK(classical.epsilon == 1);
  CHECK(classical.delta == 0.01);
  CHECK(classical.neighbours == alg::Neighbours::replace);
  CHECK(classical.scope == alg::ClaimScope::worst_case);
  REQUIRE(classical.conditions.size() == 2);
  CHECK(classical.conditions[0].find("0 < eps < 1") != std::string::npos);
  CHECK(classical.conditions[1] == "extra");
  CHECK(replace_claim(in.privacy, alg::GaussianCalibration::classical, true, {}).conditions[0].find(
            "eps/2 < 1") != std::string::npos);
  CHECK(replace_claim(in.privacy, alg::GaussianCalibration::analytic, true, {}).conditions[0].find(
            "analytic") != std::string::npos);

  core::Rng r1(8, 1), r2(8, 1);
  const Eigen::MatrixXd Q0 = random_start(6, 3, r1);
  CHECK((Q0.transpose() * Q0 - Eigen::MatrixXd::Identity(3, 3)).norm() < 1e-14);
  CHECK(Q0 == random_start(6, 3, r2));
}
