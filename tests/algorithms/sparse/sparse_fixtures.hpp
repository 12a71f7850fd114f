#pragma once
// Hand-built datasets for the kumar2025 block algorithms (PrivPCA, PrivNorm, the pipeline). A block of
// b = d points whose point j is sqrt(b s_j) e_j has second moment exactly diag(s); repeating blocks gives
// datasets whose block moments, certification and friend counts are known in closed form.
#include <Eigen/Dense>
#include <catch2/catch.hpp>
#include <vector>

#include "algorithms/mechanisms/ledger.hpp"

namespace dpb::test {

// One block of d points with second moment diag(s).
inline Eigen::MatrixXd diagonal_block(const Eigen::VectorXd& s) {
  const Eigen::Index d = s.size();
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(d, d);
  for (Eigen::Index j = 0; j < d; ++j) B(j, j) = std::sqrt(static_cast<double>(d) * s[j]);
  return B;
}

// One block of d points with second moment J (all ones): T_tau keeps all d^2 entries, so it is not
// k-RCS for k < d and is never certified.
inline Eigen::MatrixXd dense_block(Eigen::Index d) {
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(d, d);
  B.col(0).setConstant(std::sqrt(static_cast<double>(d)));
  return B;
}

// The blocks side by side, in order.
inline Eigen::MatrixXd concat_blocks(const std::vector<Eigen::MatrixXd>& blocks) {
  Eigen::Index n = 0;
  for (const auto& b : blocks) n += b.cols();
  Eigen::MatrixXd X(blocks.front().rows(), n);
  Eigen::Index at = 0;
  for (const auto& b : blocks) {
    X.middleCols(at, b.cols()) = b;
    at += b.cols();
  }
  return X;
}

// `good` copies of diagonal_block(s) followed by `bad` copies of `other`.
inline Eigen::MatrixXd repeated_blocks(const Eigen::MatrixXd& first, int good, const Eigen::MatrixXd& other,
                                       int bad) {
  std::vector<Eigen::MatrixXd> blocks(static_cast<std::size_t>(good), first);
  for (int i = 0; i < bad; ++i) blocks.push_back(other);
  return concat_blocks(blocks);
}

// s = (top, 1, ..., 1): lambda_1 = top, gap 1 - 1/top, v_1 = e_1.
inline Eigen::VectorXd spike_diagonal(Eigen::Index d, double top) {
  Eigen::VectorXd s = Eigen::VectorXd::Ones(d);
  s[0] = top;
  return s;
}

// A ledger planned before the run (claim()) names the same releases, sensitivities and noise as the run's.
inline void check_plan_matches(const alg::Ledger& plan, const alg::Ledger& ran) {
  REQUIRE(plan.entries().size() == ran.entries().size());
  for (std::size_t i = 0; i < plan.entries().size(); ++i) {
    CHECK(plan.entries()[i].step == ran.entries()[i].step);
    CHECK(plan.entries()[i].sensitivity == ran.entries()[i].sensitivity);
    CHECK(plan.entries()[i].noise_scale == ran.entries()[i].noise_scale);
  }
}

}  // namespace dpb::test
