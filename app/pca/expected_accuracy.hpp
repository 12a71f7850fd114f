#pragma once
// What a theorem says about the accuracy of a private PCA at the size of the user's data: the rate of
// the first upper bound in the catalogue that covers the algorithm and measures the sine of the angle
// to the top principal component, at (n, d, eps, delta) and the eigenvalues as privately estimated.
#include <optional>
#include <string>

#include <Eigen/Dense>

#include "algorithms/privacy.hpp"

namespace dpb::app {

struct ExpectedAccuracy {
  std::string theorem;          // "liu2022.eq3"
  std::string source;           // where the theorem is printed
  double rate = 0;              // constants and polylog factors dropped: an order of magnitude, not a guarantee;
                                // infinite when the estimated lambda1 does not exceed lambda2
  double zeta = 0.01;           // the theorem holds with probability 1 - zeta
  bool conditions_hold = true;  // at the estimated parameters
  double lambda1 = 0, lambda2 = 0;  // the eigenvalues used (private estimates)
};

// `explained` holds the private variance along each released component and `total` the private total,
// so lambda1 = explained(0) and lambda2 = explained(1) (k >= 2), or the unexplained variance averaged over
// the d - 1 other directions (k = 1). nullopt when no theorem covers `algorithm` with the sine loss, or
// its rate needs a parameter these do not give.
std::optional<ExpectedAccuracy> expected_accuracy(const std::string& algorithm, long n, long d,
                                                  const alg::Privacy& privacy, const Eigen::VectorXd& explained,
                                                  double total);

}  // namespace dpb::app
