#include "lowerbounds/constructions/ramanujan_graphs.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/models/sparse.hpp"
#include "core/samplers.hpp"

namespace dpb::lower {

namespace {

// Repairs per matching edge before giving up: a repeated edge is fixed by one swap with probability
// about (1 - h/g)^2, so this is generous for every shape with h well below g.
constexpr int repairs_per_edge = 1000;

void validate(const BiregularShape& s) {
  if (s.g < 1 || s.t < 1 || s.h < 1 || s.h > s.g)
    throw InvalidArgument(fmt::format(
        "biregular graph: need g >= 1, t >= 1 and 1 <= h <= g (a simple graph), got g = {}, t = {}, h = {}",
        s.g, s.t, s.h));
}

}  // namespace

std::vector<int> BipartiteGraph::left_degrees() const {
  std::vector<int> deg(static_cast<std::size_t>(left), 0);
  for (const auto& [l, r] : edges) ++deg[static_cast<std::size_t>(l)];
  return deg;
}

std::vector<int> BipartiteGraph::right_degrees() const {
  std::vector<int> deg(static_cast<std::size_t>(right), 0);
  for (const auto& [l, r] : edges) ++deg[static_cast<std::size_t>(r)];
  return deg;
}

Eigen::MatrixXd BipartiteGraph::biadjacency() const {
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(left, right);
  for (const auto& [l, r] : edges) B(l, r) = 1;
  return B;
}

Eigen::MatrixXd BipartiteGraph::adjacency() const {
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(left + right, left + right);
  const Eigen::MatrixXd B = biadjacency();
  A.topRightCorner(left, right) = B;
  A.bottomLeftCorner(right, left) = B.transpose();
  return A;
}

double ramanujan_value(const BiregularShape& shape) {
  validate(shape);
  return std::sqrt(shape.h - 1.0) + std::sqrt(static_cast<double>(shape.t) * shape.h - 1.0);
}

BipartiteGraph random_biregular_graph(const BiregularShape& shape, core::Rng& rng) {
  validate(shape);
  const int g = shape.g;
  // Dense blocks (h > g/2) are drawn as the complement of a sparse (g - h)-regular block: matchings then
  // rarely collide, and h = g (the complete block) needs none.
  const bool complement = 2 * shape.h > g;
  const int drawn = complement ? g - shape.h : shape.h;
  std::vector<std::vector<char>> present(static_cast<std::size_t>(shape.left()),
                                         std::vector<char>(static_cast<std::size_t>(g), 0));
  auto has = [&](int l, int r) {
    return present[static_cast<std::size_t>(l)][static_cast<std::size_t>(r)] != 0;
  };
  for (int block = 0; block < shape.t; ++block) {
    const int first = block * g;
    for (int matching = 0; matching < drawn; ++matching) {
      const auto pi = core::random_permutation(rng, g);  // left vertex first + i -> right vertex pi[i]
      std::vector<int> right_of(pi.begin(), pi.end());
      for (int i = 0; i < g; ++i) {
        int repairs = 0;
        while (has(first + i, right_of[static_cast<std::size_t>(i)])) {
          if (++repairs > repairs_per_edge)
            throw InvalidArgument(fmt::format(
                "biregular graph: could not repair a repeated edge with g = {}, h = {}; change h or raise g",
                g, shape.h));
          const int j = std::min(g - 1, static_cast<int>(core::uniform01(rng) * g));
          const int ri = right_of[static_cast<std::size_t>(i)], rj = right_of[static_cast<std::size_t>(j)];
          if (j != i && !has(first + i, rj) && !has(first + j, ri))
            std::swap(right_of[static_cast<std::size_t>(i)], right_of[static_cast<std::size_t>(j)]);
        }
      }
      for (int i = 0; i < g; ++i)
        present[static_cast<std::size_t>(first + i)]
               [static_cast<std::size_t>(right_of[static_cast<std::size_t>(i)])] = 1;
    }
  }
  BipartiteGraph graph{shape.left(), shape.right(), {}};
  graph.edges.reserve(static_cast<std::size_t>(shape.left()) * static_cast<std::size_t>(shape.h));
  for (int l = 0; l < shape.left(); ++l)
    for (int r = 0; r < g; ++r)
      if (has(l, r) != complement) graph.edges.emplace_back(l, r);
  return graph;
}

SpectralReport spectral_test(const BipartiteGraph& graph, const BiregularShape& shape, double slack) {
  if (!(slack >= 0)) throw InvalidArgument(fmt::format("spectral test: slack = {} must be >= 0", slack));
  if (graph.right < 2)
    throw InvalidArgument("spectral test: need at least 2 right vertices for a second eigenvalue");
  const Eigen::MatrixXd B = graph.biadjacency();
  // sigma_i(B)^2 are the eigenvalues of B^T B (right x right), ascending.
  const Eigen::VectorXd squares = core::symmetric_eigenvalues(B.transpose() * B);
  const Eigen::Index last = squares.size() - 1;
  SpectralReport report;
  report.lambda1 = std::sqrt(std::max(0.0, squares[last]));
  report.lambda2 = std::sqrt(std::max(0.0, squares[last - 1]));
  report.ramanujan = ramanujan_value(shape);
  report.threshold = report.ramanujan + slack;
  report.connected = report.lambda2 < report.lambda1 * (1 - connectivity_tolerance);
  report.accepted = report.connected && report.lambda2 <= report.threshold;
  return report;
}

AcceptedGraph accepted_biregular_graph(const BiregularShape& shape, double slack, int max_attempts,
                                       core::Rng& rng) {
  if (max_attempts < 1)
    throw InvalidArgument(fmt::format("biregular graph: max_attempts = {} must be >= 1", max_attempts));
  double best = std::numeric_limits<double>::infinity();
  for (int attempt = 1; attempt <= max_attempts; ++attempt) {
    BipartiteGraph graph = random_biregular_graph(shape, rng);
    const SpectralReport report = spectral_test(graph, shape, slack);
    if (report.accepted) return {std::move(graph), report, attempt};
    best = std::min(best, report.lambda2);
  }
  throw InvalidArgument(
      fmt::format("biregular graph (g = {}, t = {}, h = {}): no draw in {} passed the spectral test; best "
                  "lambda_2 = {:.4f} "
                  "vs threshold {:.4f} (raise slack or max_attempts)",
                  shape.g, shape.t, shape.h, max_attempts, best, ramanujan_value(shape) + slack));
}

}  // namespace dpb::lower
