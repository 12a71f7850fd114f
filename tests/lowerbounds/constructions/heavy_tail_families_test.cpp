#include "lowerbounds/constructions/heavy_tail_families.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "lowerbounds/constructions/liu2022_packing.hpp"

namespace {

// The d = 11 Lemma C.5 packing: weight l = 1, so all 10 unit codewords, alpha as given.
dpb::lower::SpherePacking packing(double alpha) {
  return dpb::lower::codeword_packing(dpb::lower::liu2022_lemma_c5_code(11, 1, 100).code, alpha);
}

// Number of columns of X lying exactly on the atoms +-c v.
int atom_count(const Eigen::MatrixXd& X, const Eigen::VectorXd& v, double c) {
  int count = 0;
  for (Eigen::Index i = 0; i < X.cols(); ++i)
    if ((X.col(i) - c * v).norm() < 1e-12 || (X.col(i) + c * v).norm() < 1e-12) ++count;
  return count;
}

}  // namespace

TEST_CASE("Thm C.1 family: exact parameters and spike frequency", "[constructions][liu2022]") {
  const auto pack = packing(std::sqrt(0.5));
  const auto family = dpb::lower::liu2022_thmC1_family(pack, 2, 1);
  REQUIRE(family.members.size() == 10);
  // p = (1 - 1/2)/11, c = sqrt(11 * 2), Gaussian variance 1/(1 - p); Sigma = (2 - 1) v v^T + 1 I.
  const double p = 0.5 / 11;
  CHECK(family.spike_probability == Approx(p));
  CHECK(family.pairwise_tv == Approx(p));
  CHECK(family.spike_radius == Approx(std::sqrt(22.0)));
  CHECK(family.gaussian_variance == Approx(1 / (1 - p)));
  CHECK(family.lambda1 == Approx(2));
  CHECK(family.lambda2 == Approx(1));
  const Eigen::VectorXd v = pack.vectors.col(3);
  const Eigen::MatrixXd expected = v * v.transpose() + Eigen::MatrixXd::Identity(11, 11);
  CHECK((family.members[3]->info().Sigma - expected).norm() < 1e-12);
  // Spike frequency: Binomial(20000, p) has mean 909.1 and sd 29.5; 5 sd = 147 (fixed seed).
  dpb::core::Rng rng(11, 0);
  const Eigen::MatrixXd X = family.members[3]->sample(20000, rng);
  CHECK(std::abs(atom_count(X, v, family.spike_radius) - 20000 * p) < 147);
  CHECK_THROWS_AS(dpb::lower::liu2022_thmC1_family(pack, 1, 2), dpb::InvalidArgument);
}

TEST_CASE("Thm 5.4 family: eigenvalues of the Eq. (25) mixture", "[constructions][liu2022]") {
  const auto pack = packing(std::sqrt(0.5));
  const double alpha = 0.01;
  const auto family = dpb::lower::liu2022_thm54_family(pack, alpha);
  // lambda1 = 1 - alpha + sqrt(alpha) = 1.09, lambda2 = 1 - alpha = 0.99, atoms at alpha^{-1/4} = 10^{1/2}.
  CHECK(family.lambda1 == Approx(1.09));
  CHECK(family.lambda2 == Approx(0.99));
  CHECK(family.spike_radius == Approx(std::sqrt(10.0)));
  CHECK(family.pairwise_tv == Approx(alpha));
  CHECK_THROWS_AS(dpb::lower::liu2022_thm54_family(pack, 0), dpb::InvalidArgument);
}
