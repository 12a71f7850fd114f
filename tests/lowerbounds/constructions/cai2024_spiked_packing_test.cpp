#include "lowerbounds/constructions/cai2024_spiked_packing.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/metrics.hpp"

using namespace dpb::lower;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

SubspacePacking small_packing() { return build_subspace_packing({6, 2, 2.0, 0.8, 10, 1000, 3}); }

double lifted_distance(const SubspacePacking& packing, std::size_t i, std::size_t j, double eps0, double q) {
  return dpb::core::projector_distance(lift_frame(packing.frames[i], eps0),
                                       lift_frame(packing.frames[j], eps0),
                                       {dpb::core::Norm::schatten, q, false});
}

SpikedFanoProblem problem(double n, double eps) {
  SpikedFanoProblem pr;
  pr.p = 10;
  pr.r = 2;
  pr.spike = 5;
  pr.noise = 1;
  pr.n = n;
  pr.eps = eps;
  pr.delta = 0;
  pr.q = 2;
  pr.normalization = std::sqrt(2.0);
  pr.packing_size = 16;
  return pr;
}

}  // namespace

TEST_CASE("cai2024 lift: U_V is orthonormal, Sigma_V has eigenvalues spike + noise (r times) and noise",
          "[cai2024][constructions]") {
  const auto packing = small_packing();
  const Eigen::MatrixXd U = lift_frame(packing.frames[0], 0.3);
  REQUIRE(U.rows() == 8);
  CHECK((U.transpose() * U - Eigen::MatrixXd::Identity(2, 2)).cwiseAbs().maxCoeff() < 1e-12);
  CHECK(U.topRows(2).isApprox(std::sqrt(1 - 0.09) * Eigen::MatrixXd::Identity(2, 2)));
  const Eigen::VectorXd eig =
      dpb::core::symmetric_eigenvalues(spiked_covariance(U, 5, 2));
  CHECK(eig.tail(2).isApprox(Eigen::Vector2d(7, 7)));
  CHECK(eig.head(6).isApprox(Eigen::VectorXd::Constant(6, 2)));
  CHECK_THROWS_AS(lift_frame(packing.frames[0], 1.0), dpb::InvalidArgument);
}

TEST_CASE("cai2024 lift: principal sines from the r x r parts match the explicit lifted frames",
          "[cai2024][constructions]") {
  const auto packing = small_packing();
  REQUIRE(packing.size() >= 3);
  const LiftedSubspacePacking lifted(packing);
  for (const double eps0 : {1e-4, 0.3, 0.7})
    for (const double q : {1.0, 2.0, kInf}) {
      double smallest = kInf, largest_fro2 = 0;
      for (std::size_t i = 0; i < packing.size(); ++i)
        for (std::size_t j = i + 1; j < packing.size(); ++j) {
          const Eigen::VectorXd sines = lifted.principal_sines(i, j, eps0);
          const double from_sines =
              std::isinf(q) ? sines.maxCoeff() : std::pow(2 * sines.array().pow(q).sum(), 1 / q);
          const double direct = lifted_distance(packing, i, j, eps0, q);
          CHECK(from_sines == Approx(direct).epsilon(1e-7));
          smallest = std::min(smallest, direct);
          largest_fro2 = std::max(largest_fro2, std::pow(lifted_distance(packing, i, j, eps0, 2), 2));
        }
      const auto g = lifted.geometry(eps0, q);
      CHECK(g.min_distance == Approx(smallest).epsilon(1e-7));
      CHECK(g.max_fro2 == Approx(largest_fro2).epsilon(1e-7));
    }
  CHECK_THROWS_AS(lifted.principal_sines(1, 1, 0.3), dpb::InvalidArgument);
}

TEST_CASE("cai2024 lift: the closed-form KL is the exact Gaussian KL (equal determinants)",
          "[cai2024][constructions]") {
  const auto packing = small_packing();
  for (const double eps0 : {0.05, 0.5}) {
    const Eigen::MatrixXd Ui = lift_frame(packing.frames[0], eps0), Uj = lift_frame(packing.frames[1], eps0);
    const double fro2 = (Ui * Ui.transpose() - Uj * Uj.transpose()).squaredNorm();
    CHECK(equal_spike_kl(5, 2, fro2) ==
          Approx(gaussian_kl(spiked_covariance(Ui, 5, 2), spiked_covariance(Uj, 5, 2))).epsilon(1e-9));
  }
}

TEST_CASE("cai2024 spiked DP Fano: the reported value is Lemma 6 at the reported eps0 and beats other eps0",
          "[cai2024][constructions]") {
  const SpikedFanoProblem pr = problem(200, 1);
  const auto best = spiked_dp_fano_bound(pr);
  REQUIRE(best.value > 0);
  // Rebuild the same packing and evaluate Lemma 6 by hand at a few eps0 (l0 = n KL, t0 = n sqrt(KL/2)).
  const auto packing = build_subspace_packing({8, 2, 2.0, 0.5 * std::sqrt(2.0), 16, 4096, 1});
  CHECK(best.log_size == Approx(packing.log_size()));
  const LiftedSubspacePacking lifted(packing);
  const auto at = [&](double eps0) {
    const auto g = lifted.geometry(eps0, 2);
    const double kl = equal_spike_kl(5, 1, g.max_fro2);
    return dp_fano_cai2024(
               {packing.log_size(), g.min_distance / std::sqrt(2.0), 200 * kl, 200 * std::sqrt(kl / 2), 1, 0})
        .value();
  };
  CHECK(at(best.eps0) == Approx(best.value).epsilon(1e-12));
  for (const double eps0 : {1e-3, 0.01, 0.05, 0.1, 0.3, 0.7}) CHECK(at(eps0) <= best.value * (1 + 1e-12));
}

TEST_CASE("cai2024 spiked DP Fano: non-increasing in n and eps, deterministic for a seed",
          "[cai2024][constructions]") {
  double previous = kInf;
  for (const double n : {10.0, 100.0, 1000.0, 10000.0}) {
    const double v = spiked_dp_fano_bound(problem(n, 1)).value;
    CHECK(v <= previous * (1 + 1e-9));
    previous = v;
  }
  CHECK(spiked_dp_fano_bound(problem(10000, 1)).value < spiked_dp_fano_bound(problem(10, 1)).value);
  previous = kInf;
  for (const double eps : {0.1, 0.3, 1.0, 3.0}) {
    const double v = spiked_dp_fano_bound(problem(1000, eps)).value;
    CHECK(v <= previous * (1 + 1e-9));
    previous = v;
  }
  CHECK(spiked_dp_fano_bound(problem(300, 1)).value == spiked_dp_fano_bound(problem(300, 1)).value);
  SpikedFanoProblem bad = problem(100, 1);
  bad.p = 3;  // 2r > p
  CHECK_THROWS_WITH(spiked_dp_fano_bound(bad), Catch::Contains("2r <= p"));
}
