#include "lowerbounds/constructions/padded_subcube.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "core/samplers.hpp"

namespace dpb::lower {

namespace {

struct DirectedEdge {
  int from = 0, to = 0;  // data coordinates; left vertices are 0..d/2-1, right ones d/2..d-1
};

std::vector<DirectedEdge> directed_edges(const PaddedSubcube& cube) {
  const int half = cube.d() / 2;
  std::vector<DirectedEdge> out;
  out.reserve(2 * cube.base.graph.graph.edges.size());
  for (const auto& [l, r] : cube.base.graph.graph.edges) {
    out.push_back({l, half + r});
    out.push_back({half + r, l});
  }
  return out;
}

// One draw of (U, V, g) of Definition 5.
struct SpikeDraw {
  DirectedEdge edge;
  double g = 0;
};

SpikeDraw draw_spike(const std::vector<DirectedEdge>& edges, core::Rng& rng) {
  const auto count = edges.size();
  const auto index =
      std::min(count - 1, static_cast<std::size_t>(core::uniform01(rng) * static_cast<double>(count)));
  return {edges[index], core::standard_normal(rng)};
}

void write_spike(Eigen::Ref<Eigen::VectorXd> x, const SpikeDraw& draw, const Eigen::VectorXd& s_bar,
                 double c) {
  x.setZero();
  x[draw.edge.from] = c * draw.g * s_bar[draw.edge.from];
  x[draw.edge.to] = c * draw.g * s_bar[draw.edge.to];
}

}  // namespace

Eigen::VectorXd PaddedSubcube::padded(const Eigen::VectorXd& s) const {
  if (s.size() != m || !(s.array().abs() == 1).all())
    throw InvalidArgument(fmt::format("padded subcube: s must be a +-1 vector of length m = d/2 = {}", m));
  Eigen::VectorXd s_bar(d());
  s_bar.head(d() - m).setOnes();
  s_bar.tail(m) = s;
  return s_bar;
}

Eigen::MatrixXd PaddedSubcube::covariance(const Eigen::VectorXd& s) const {
  return lemma22_covariance(base, padded(s));
}

Eigen::VectorXd PaddedSubcube::eigenvector(const Eigen::VectorXd& s) const {
  return padded(s) / std::sqrt(static_cast<double>(d()));
}

PaddedSubcube padded_subcube(int d, int k, const GraphAcceptance& acceptance, core::Rng& rng) {
  PaddedSubcube cube;
  cube.base = lemma22_construction(d, k, acceptance, rng);
  cube.m = d / 2;
  return cube;
}

Eigen::MatrixXd sample_edge_spike(const PaddedSubcube& cube, const Eigen::VectorXd& s, Eigen::Index n,
                                  core::Rng& rng) {
  if (n < 1) throw InvalidArgument(fmt::format("edge spike: n = {} must be >= 1", n));
  const Eigen::VectorXd s_bar = cube.padded(s);
  const auto edges = directed_edges(cube);
  const double c = std::sqrt(cube.d() / 2.0);  // Definition 5
  Eigen::MatrixXd X(cube.d(), n);
  for (Eigen::Index j = 0; j < n; ++j) write_spike(X.col(j), draw_spike(edges, rng), s_bar, c);
  return X;
}

CoupledDatasets couple_edge_spike(const PaddedSubcube& cube, Eigen::VectorXd s, int i, Eigen::Index n,
                                  core::Rng& rng) {
  if (i < 0 || i >= cube.m)
    throw InvalidArgument(
        fmt::format("edge-spike coupling: coordinate i = {} must lie in [0, m = {})", i, cube.m));
  if (n < 1) throw InvalidArgument(fmt::format("edge-spike coupling: n = {} must be >= 1", n));
  s[i] = 1;
  const Eigen::VectorXd plus_bar = cube.padded(s);
  s[i] = -1;
  const Eigen::VectorXd minus_bar = cube.padded(s);
  const auto edges = directed_edges(cube);
  const double c = std::sqrt(cube.d() / 2.0);
  CoupledDatasets out{Eigen::MatrixXd(cube.d(), n), Eigen::MatrixXd(cube.d(), n), 0};
  for (Eigen::Index j = 0; j < n; ++j) {
    const SpikeDraw draw = draw_spike(edges, rng);
    write_spike(out.plus.col(j), draw, plus_bar, c);
    write_spike(out.minus.col(j), draw, minus_bar, c);
    if (out.plus.col(j) != out.minus.col(j)) ++out.differing;
  }
  return out;
}

double coordinate_touch_probability(const PaddedSubcube& cube, int i) {
  if (i < 0 || i >= cube.m)
    throw InvalidArgument(
        fmt::format("touch probability: coordinate i = {} must lie in [0, m = {})", i, cube.m));
  // Cube coordinate i is data coordinate d/2 + i: right vertex i of the graph (m = d/2, the left half
  // padded).
  const double degree = cube.base.graph.graph.right_degrees()[static_cast<std::size_t>(i)];
  const double directed = 2.0 * static_cast<double>(cube.base.graph.graph.edges.size());
  return 2 * degree / directed;  // P(U = i) + P(V = i): each undirected edge at i gives two directed ones
}

double measured_separation(const PaddedSubcube& cube) {
  const Eigen::VectorXd ones = Eigen::VectorXd::Ones(cube.m);
  const Eigen::VectorXd v = cube.eigenvector(ones);
  double tau = std::numeric_limits<double>::infinity();
  Eigen::VectorXd flipped = ones;
  for (int t = 1; t <= cube.m; ++t) {
    flipped[t - 1] = -1;
    tau = std::min(tau, core::sin2_angle(v, cube.eigenvector(flipped)) / (2.0 * t));
  }
  return tau;
}

}  // namespace dpb::lower
