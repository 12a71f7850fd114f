#include "lowerbounds/constructions/kumar2025_covariances.hpp"

#include <fmt/format.h>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "lowerbounds/constructions/kumar2025_priors.hpp"

namespace dpb::lower {

namespace {

// Number of ones of a 0/1 codeword of length d, after checking it is one.
int codeword_weight(const Codeword& x, int d) {
  if (static_cast<int>(x.size()) != d)
    throw InvalidArgument(fmt::format("Lemma 19 family: codeword length {} must equal d = {}", x.size(), d));
  int weight = 0;
  for (auto bit : x) {
    if (bit > 1) throw InvalidArgument("Lemma 19 family: codeword entries must be 0 or 1");
    weight += bit;
  }
  return weight;
}

}  // namespace

Lemma19Construction lemma19_construction(int d, int k, const GraphAcceptance& acceptance, core::Rng& rng) {
  if (d < 3 || d % 3 != 0 || k < 6 || k % 2 != 0 || k > d / 3)
    throw InvalidArgument(
        fmt::format("Lemma 19 (kumar2025): need 3 | d, k >= 6 even and k <= d/3, got d = {}, k = {}", d, k));
  Lemma19Construction c;
  c.d = d;
  c.k = k;
  c.shape = {d / 3, 2, (k - 2) / 2};
  c.graph = accepted_biregular_graph(c.shape, acceptance.slack, acceptance.max_attempts, rng);
  const double weight = std::sqrt(2.0) / (k - 2);
  c.sigma_star = Eigen::MatrixXd::Identity(d, d) + weight * c.graph.graph.adjacency();
  c.v1.resize(d);
  c.v1.head(2 * d / 3).setConstant(std::sqrt(3.0 / (4.0 * d)));
  c.v1.tail(d / 3).setConstant(std::sqrt(3.0 / (2.0 * d)));
  c.lambda2 = 1 + weight * c.graph.spectrum.lambda2;
  c.gamma0 = 1 - c.lambda2 / 2;
  return c;
}

double lemma19_ramanujan_gap(int k) {
  return 1 - 0.5 * (1 + (std::sqrt(k - 4.0) + std::sqrt(2.0 * k - 6.0)) / (k - 2.0));
}

Eigen::MatrixXd lemma19_family_member(const Lemma19Construction& c, const Codeword& x) {
  if (codeword_weight(x, c.d) != c.d / 3)
    throw InvalidArgument(fmt::format("Lemma 19 family: codeword weight must be d/3 = {}", c.d / 3));
  // pi(i): the construction coordinate that data coordinate i plays (L block 0..2d/3-1, then R).
  std::vector<int> pi(static_cast<std::size_t>(c.d));
  int next_left = 0, next_right = 2 * c.d / 3;
  for (int i = 0; i < c.d; ++i)
    pi[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(i)] ? next_right++ : next_left++;
  Eigen::MatrixXd sigma(c.d, c.d);
  for (int i = 0; i < c.d; ++i)
    for (int j = 0; j < c.d; ++j)
      sigma(i, j) = c.sigma_star(pi[static_cast<std::size_t>(i)], pi[static_cast<std::size_t>(j)]);
  return sigma;
}

Eigen::MatrixXd lemma19_family_samples(const Lemma19Construction& c, const Codeword& x, Eigen::Index n,
                                       core::Rng& rng) {
  return gaussian_samples(lemma19_family_member(c, x), n, rng, "kumar2025 Lemma 19 family");
}

Eigen::VectorXd lemma19_family_eigenvector(const Codeword& x) {
  const double d = static_cast<double>(x.size());
  Eigen::VectorXd v(static_cast<Eigen::Index>(x.size()));
  for (std::size_t i = 0; i < x.size(); ++i)
    v[static_cast<Eigen::Index>(i)] = x[i] ? std::sqrt(3 / (2 * d)) : std::sqrt(3 / (4 * d));
  return v;
}

std::size_t lemma19_decode(const Eigen::VectorXd& estimate, const BinaryCode& code) {
  if (code.words.empty() || estimate.size() != code.length)
    throw InvalidArgument(fmt::format(
        "Lemma 19 decoder: need a nonempty code of length {} = the estimate's size", estimate.size()));
  const double norm = estimate.norm();
  const Eigen::VectorXd v_hat = norm > 0 ? Eigen::VectorXd(estimate / norm)
                                         : Eigen::VectorXd(Eigen::VectorXd::Unit(estimate.size(), 0));
  std::size_t best = 0;
  double best_distance = std::numeric_limits<double>::infinity();
  for (std::size_t j = 0; j < code.words.size(); ++j) {
    const Eigen::VectorXd v = lemma19_family_eigenvector(code.words[j]);
    const double distance = std::min((v_hat - v).norm(), (v_hat + v).norm());  // d_sign
    if (distance < best_distance) {
      best_distance = distance;
      best = j;
    }
  }
  return best;
}

Lemma22Construction lemma22_construction(int d, int k, const GraphAcceptance& acceptance, core::Rng& rng) {
  if (d < 2 || d % 2 != 0 || k < 6 || k % 2 != 0 || d / 2 < k - 1)
    throw InvalidArgument(fmt::format(
        "Lemma 22 (kumar2025): need d even, k >= 6 even and d/2 >= k - 1, got d = {}, k = {}", d, k));
  Lemma22Construction c;
  c.d = d;
  c.k = k;
  c.shape = {d / 2, 1, k - 1};
  c.graph = accepted_biregular_graph(c.shape, acceptance.slack, acceptance.max_attempts, rng);
  c.adjacency = c.graph.graph.adjacency();
  c.lambda2 = 1 + c.graph.spectrum.lambda2 / (k - 1);
  c.gamma0 = 1 - c.lambda2 / 2;
  return c;
}

double lemma22_ramanujan_gap(int k) { return 1 - 0.5 * (1 + 2 * std::sqrt(k - 2.0) / (k - 1.0)); }

Eigen::MatrixXd lemma22_covariance(const Lemma22Construction& c, const Eigen::VectorXd& s) {
  if (s.size() != c.d || !(s.array().abs() == 1).all())
    throw InvalidArgument(fmt::format("Lemma 22: s must be a +-1 vector of length d = {}", c.d));
  return Eigen::MatrixXd::Identity(c.d, c.d) + (s.asDiagonal() * c.adjacency * s.asDiagonal()) / (c.k - 1.0);
}

}  // namespace dpb::lower
