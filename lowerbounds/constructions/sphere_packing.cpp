#include "lowerbounds/constructions/sphere_packing.hpp"

#include <fmt/core.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.hpp"

namespace dpb::lower {

SpherePacking measure_packing(Eigen::MatrixXd vectors) {
  const Eigen::Index m = vectors.cols();
  if (m < 2) throw InvalidArgument(fmt::format("measure_packing: need at least two vectors, got {}", m));
  for (Eigen::Index i = 0; i < m; ++i)
    if (std::abs(vectors.col(i).norm() - 1) > unit_norm_tolerance)
      throw InvalidArgument(
          fmt::format("measure_packing: vector {} has norm {}, not 1", i, vectors.col(i).norm()));
  const Eigen::MatrixXd gram = vectors.transpose() * vectors;
  SpherePacking packing;
  packing.log_size = std::log(static_cast<double>(m));
  packing.min_distance = std::numeric_limits<double>::infinity();
  packing.min_sin = std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < m; ++i)
    for (Eigen::Index j = i + 1; j < m; ++j) {
      const double inner = std::clamp(gram(i, j), -1.0, 1.0);
      const double distance = std::sqrt(std::max(0.0, 2 - 2 * inner));  // unit vectors
      packing.min_distance = std::min(packing.min_distance, distance);
      packing.max_distance = std::max(packing.max_distance, distance);
      packing.min_sin = std::min(packing.min_sin, std::sqrt(1 - inner * inner));
    }
  packing.vectors = std::move(vectors);
  return packing;
}

SpherePacking codeword_packing(const BinaryCode& code, double alpha) {
  const CodeCheck check = verify_code(code);
  if (check.size < 2 || !check.constant_weight || *check.constant_weight < 1)
    throw InvalidArgument("codeword_packing: need a constant-weight (>= 1) code of at least two words");
  Eigen::MatrixXd vectors(code.length + 1, static_cast<Eigen::Index>(code.words.size()));
  for (std::size_t i = 0; i < code.words.size(); ++i)
    vectors.col(static_cast<Eigen::Index>(i)) = codeword_to_vector(code.words[i], alpha);
  return measure_packing(std::move(vectors));
}

}  // namespace dpb::lower
