#include "algorithms/baselines/trace_clipping.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dpb::alg::baselines {

Eigen::VectorXd trace_clip_weights(const PsdSamples& data, double beta, Diagnostics& diagnostics) {
  return trace_and_l1_clip_weights(data, beta, std::numeric_limits<double>::infinity(), diagnostics);
}

Eigen::VectorXd trace_and_l1_clip_weights(const PsdSamples& data, double beta, double alpha,
                                          Diagnostics& diagnostics) {
  const double beta2 = beta * beta, alpha2 = alpha * alpha;
  const bool use_alpha = std::isfinite(alpha);
  Eigen::VectorXd c(data.n());
  long clipped = 0, by_alpha = 0;
  for (Eigen::Index i = 0; i < data.n(); ++i) {
    const double tr = data.trace(i);
    const double by_trace = tr > beta2 ? beta2 / tr : 1.0;
    double w = by_trace;
    if (use_alpha) {
      const double s = data.sum_sqrt_diagonal(i);
      const double by_l1 = s * s > alpha2 ? alpha2 / (s * s) : 1.0;
      if (by_l1 < w) {
        w = by_l1;
        ++by_alpha;
      }
    }
    c[i] = w;
    clipped += w < 1.0;
  }
  diagnostics.count("clipped", static_cast<double>(clipped));
  if (use_alpha) diagnostics.count("clipped_by_alpha", static_cast<double>(by_alpha));
  return c;
}

}  // namespace dpb::alg::baselines
