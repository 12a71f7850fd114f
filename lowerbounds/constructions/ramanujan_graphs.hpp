#pragma once
// Random (bi)regular bipartite graphs with a spectral acceptance test (spec: kumar2025 §5.2 "Practical
// graph construction", §5.3 Lemma 22 item 5, A21). The paper takes its graphs from GM21's existence
// theorem (Proposition 2); we draw unions of random perfect matchings instead and accept a draw only if
// its second eigenvalue is within `slack` of the Ramanujan value sqrt(h-1) + sqrt(t h - 1) and the graph
// is connected. Every structural fact the lower bounds use (lambda_1, the explicit top eigenvector, PSD,
// k-RCS) holds for any connected biregular graph; lambda_2 only sets the gap gamma_0, which is reported.
#include <Eigen/Dense>
#include <utility>
#include <vector>

#include "core/rng.hpp"

namespace dpb::lower {

// Proposition 2's shape: |L| = t g, |R| = g, every left vertex of degree h, every right vertex of
// degree t h. t = 1 is an h-regular bipartite graph on g + g vertices.
struct BiregularShape {
  int g = 0;
  int t = 1;
  int h = 0;
  int left() const { return t * g; }
  int right() const { return g; }
};

// A simple bipartite graph on L = {0..left-1} and R = {0..right-1}; edges are (l, r) pairs.
struct BipartiteGraph {
  int left = 0;
  int right = 0;
  std::vector<std::pair<int, int>> edges;

  std::vector<int> left_degrees() const;
  std::vector<int> right_degrees() const;
  // left x right 0/1 biadjacency matrix B.
  Eigen::MatrixXd biadjacency() const;
  // (left + right) x (left + right) adjacency A = [0 B; B^T 0]: left vertices first, then right ones.
  Eigen::MatrixXd adjacency() const;
};

// Prop. 2's bound on lambda_2(A): sqrt(h - 1) + sqrt(t h - 1) (2 sqrt(h - 1) when t = 1).
double ramanujan_value(const BiregularShape& shape);

// A (h, t h)-biregular simple bipartite graph: each of the t left blocks L_c = {c g .. c g + g - 1} is
// joined to R by h random perfect matchings (core::random_permutation), a matching edge that repeats an
// existing edge being repaired by swapping its right end with that of another random left vertex of the
// block (both new edges fresh). When h > g/2 the block is the complement of g - h such matchings. Edges are
// listed by left vertex, then right vertex. Needs g >= 1, t >= 1, 1 <= h <= g; throws
// dpb::InvalidArgument otherwise, or if the repairs do not converge (not seen at any shape tried).
BipartiteGraph random_biregular_graph(const BiregularShape& shape, core::Rng& rng);

struct SpectralReport {
  double lambda1 = 0;      // measured top eigenvalue of A (exactly h sqrt(t) for a biregular graph)
  double lambda2 = 0;      // measured second eigenvalue of A
  double ramanujan = 0;    // ramanujan_value(shape)
  double threshold = 0;    // ramanujan + slack
  bool connected = false;  // lambda2 < lambda1 - connectivity_tolerance
  bool accepted = false;   // connected and lambda2 <= threshold
};

// Relative tolerance below lambda_1 under which lambda_2 counts as a distinct eigenvalue (connected).
inline constexpr double connectivity_tolerance = 1e-9;

// Eigenvalues of A from the singular values of B (A's spectrum is +-sigma_i(B) and zeros), so the
// eigenproblem is g x g. Throws dpb::InvalidArgument if slack < 0 or the graph has fewer than 2 vertices
// on its right side.
SpectralReport spectral_test(const BipartiteGraph& graph, const BiregularShape& shape, double slack);

struct AcceptedGraph {
  BipartiteGraph graph;
  SpectralReport spectrum;
  int attempts = 0;  // draws made, the accepted one included
};

// Draws random_biregular_graph until spectral_test accepts, at most max_attempts times; throws
// dpb::InvalidArgument naming the best lambda_2 seen if none is accepted.
AcceptedGraph accepted_biregular_graph(const BiregularShape& shape, double slack, int max_attempts,
                                       core::Rng& rng);

}  // namespace dpb::lower
