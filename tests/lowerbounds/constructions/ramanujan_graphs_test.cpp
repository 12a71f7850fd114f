#include "lowerbounds/constructions/ramanujan_graphs.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "core/errors.hpp"
#include "core/linalg.hpp"

using dpb::core::Rng;
using namespace dpb::lower;

TEST_CASE("random_biregular_graph: exact degrees, simple, deterministic for a seed",
          "[kumar2025][constructions]") {
  // The last shape is dense (h > g/2): drawn as the complement of a 2-regular block.
  for (const BiregularShape shape :
       {BiregularShape{30, 2, 3}, BiregularShape{20, 1, 5}, BiregularShape{8, 2, 6}}) {
    Rng rng(11, 3);
    const BipartiteGraph graph = random_biregular_graph(shape, rng);
    CHECK(graph.left == shape.t * shape.g);
    CHECK(graph.right == shape.g);
    const auto left = graph.left_degrees(), right = graph.right_degrees();
    CHECK(std::all_of(left.begin(), left.end(), [&](int deg) { return deg == shape.h; }));
    CHECK(std::all_of(right.begin(), right.end(), [&](int deg) { return deg == shape.t * shape.h; }));
    const std::set<std::pair<int, int>> distinct(graph.edges.begin(), graph.edges.end());
    CHECK(distinct.size() == graph.edges.size());  // no repeated edge: a simple graph
    Rng again(11, 3);
    CHECK(random_biregular_graph(shape, again).edges == graph.edges);
    Rng other(12, 3);
    CHECK(random_biregular_graph(shape, other).edges != graph.edges);
  }
}

TEST_CASE("random_biregular_graph: h = g is the complete bipartite graph (lambda_2 = 0)",
          "[kumar2025][constructions]") {
  Rng rng(2, 0);
  const BipartiteGraph complete = random_biregular_graph({5, 1, 5}, rng);
  CHECK(complete.edges.size() == 25);
  const SpectralReport s = spectral_test(complete, {5, 1, 5}, 0);
  CHECK(s.lambda1 == Approx(5));
  CHECK(s.lambda2 == Approx(0).margin(1e-12));
  CHECK(s.accepted);
}

TEST_CASE("spectral_test: lambda_1 = h sqrt(t), lambda_2 measured below the Ramanujan threshold",
          "[kumar2025][constructions]") {
  const BiregularShape shape{30, 2, 3};
  Rng rng(5, 0);
  const AcceptedGraph accepted = accepted_biregular_graph(shape, 0.05, 50, rng);
  const SpectralReport& s = accepted.spectrum;
  CHECK(s.lambda1 == Approx(3 * std::sqrt(2.0)).epsilon(1e-12));  // Lemma 18: sqrt(c1 c2) = sqrt(3 * 6)
  CHECK(s.ramanujan == Approx(std::sqrt(2.0) + std::sqrt(5.0)));  // Prop. 2: sqrt(h-1) + sqrt(th-1)
  CHECK(s.lambda2 <= s.threshold);
  CHECK(s.lambda2 < s.lambda1);
  CHECK(s.accepted);
  // The report agrees with a dense eigensolver on the full adjacency matrix.
  const Eigen::VectorXd eig =
      dpb::core::symmetric_eigenvalues(accepted.graph.adjacency());
  CHECK(eig[eig.size() - 1] == Approx(s.lambda1).epsilon(1e-10));
  CHECK(eig[eig.size() - 2] == Approx(s.lambda2).epsilon(1e-10));
}

TEST_CASE("spectral_test: a disconnected graph is refused, bad shapes are named",
          "[kumar2025][constructions]") {
  // Two disjoint edges: 1-regular, lambda_1 = lambda_2 = 1.
  const BipartiteGraph matching{2, 2, {{0, 0}, {1, 1}}};
  const SpectralReport s = spectral_test(matching, {2, 1, 1}, 10);
  CHECK_FALSE(s.connected);
  CHECK_FALSE(s.accepted);
  Rng rng(1, 1);
  CHECK_THROWS_WITH(random_biregular_graph({3, 1, 4}, rng), Catch::Contains("1 <= h <= g"));
  CHECK_THROWS_WITH(spectral_test(matching, {2, 1, 1}, -1), Catch::Contains("slack"));
  // A perfect matching (h = 1) is never connected: every draw is refused and the error names the best one.
  CHECK_THROWS_WITH(accepted_biregular_graph({10, 1, 1}, 0, 3, rng), Catch::Contains("best lambda_2"));
}
