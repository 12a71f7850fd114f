#pragma once
// Bit-for-bit equality, for tests of speed-ups that must keep the bits of the code they replace (signed zeros
// included, which == does not tell apart).
#include <Eigen/Core>
#include <bit>
#include <cstdint>

namespace dpb::test {

inline bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

inline bool same_bits(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    if (!same_bits(a.data()[i], b.data()[i])) return false;
  return true;
}

}  // namespace dpb::test
