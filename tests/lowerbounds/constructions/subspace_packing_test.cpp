#include "lowerbounds/constructions/subspace_packing.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "core/metrics.hpp"

using dpb::lower::build_subspace_packing;
using dpb::lower::SubspacePackingSpec;

namespace {

// ||V V^T - W W^T||_q from the dense projectors (independent of core::projector_distance's principal angles).
double dense_distance(const Eigen::MatrixXd& V, const Eigen::MatrixXd& W, double q) {
  return dpb::core::schatten_norm(V * V.transpose() - W * W.transpose(), q);
}

}  // namespace

TEST_CASE("subspace packing: orthonormal frames, every pair at least min_distance apart, measured",
          "[constructions]") {
  const double inf = std::numeric_limits<double>::infinity();
  for (const double q : {1.0, 2.0, inf}) {
    // Random 2-planes of R^9 are far apart: half the largest possible distance is easy to keep.
    const double largest = std::isinf(q) ? 1.0 : std::pow(2 * 2.0, 1 / q);  // two sines of 1, each twice
    const SubspacePackingSpec spec{9, 2, q, largest / 2, 12, 2000, 7};
    const auto packing = build_subspace_packing(spec);
    REQUIRE(packing.size() == 12);
    CHECK(packing.log_size() == Approx(std::log(12.0)));
    double smallest = inf;
    for (std::size_t i = 0; i < packing.size(); ++i) {
      const auto& V = packing.frames[i];
      REQUIRE(V.rows() == 9);
      REQUIRE(V.cols() == 2);
      CHECK((V.transpose() * V - Eigen::MatrixXd::Identity(2, 2)).cwiseAbs().maxCoeff() < 1e-12);
      CHECK(packing.distances(i, i) == 0);
      for (std::size_t j = i + 1; j < packing.size(); ++j) {
        const double d = dense_distance(V, packing.frames[j], q);
        CHECK(packing.distances(i, j) == Approx(d).epsilon(1e-9));
        CHECK(packing.distances(j, i) == packing.distances(i, j));
        CHECK(d >= spec.min_distance - 1e-12);
        smallest = std::min(smallest, d);
      }
    }
    CHECK(packing.min_distance() == Approx(smallest).epsilon(1e-9));
  }
}

TEST_CASE("subspace packing: a separation no two subspaces reach keeps one frame", "[constructions]") {
  // Every r = p frame spans R^p: all projectors are I, so distance 0 < 0.1 rejects every later candidate.
  const auto packing = build_subspace_packing({3, 3, 2.0, 0.1, 10, 50, 1});
  CHECK(packing.size() == 1);
  CHECK(packing.min_distance() == std::numeric_limits<double>::infinity());
  // Distance >= 0 accepts everything: the size is max_size.
  CHECK(build_subspace_packing({3, 3, 2.0, 0.0, 10, 50, 1}).size() == 10);
}

TEST_CASE("subspace packing: deterministic for a seed, different across seeds", "[constructions]") {
  const SubspacePackingSpec spec{6, 2, 2.0, 0.5, 8, 500, 42};
  const auto a = build_subspace_packing(spec), b = build_subspace_packing(spec);
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(a.frames[i] == b.frames[i]);
  SubspacePackingSpec other = spec;
  other.seed = 43;
  CHECK(build_subspace_packing(other).frames[0] != a.frames[0]);
}

TEST_CASE("subspace packing: invalid specs are refused with the reason", "[constructions]") {
  CHECK_THROWS_WITH(build_subspace_packing({4, 5, 2.0, 0.1, 4, 10, 1}), Catch::Contains("rank"));
  CHECK_THROWS_WITH(build_subspace_packing({4, 1, 0.5, 0.1, 4, 10, 1}), Catch::Contains("q"));
  CHECK_THROWS_AS(build_subspace_packing({4, 1, 2.0, -1, 4, 10, 1}), dpb::InvalidArgument);
  CHECK_THROWS_AS(build_subspace_packing({4, 1, 2.0, 0.1, 0, 10, 1}), dpb::InvalidArgument);
}
