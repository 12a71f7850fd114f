#include "app/pca/expected_accuracy.hpp"

#include <algorithm>
#include <limits>

#include "bounds/theorem.hpp"
#include "core/errors.hpp"

namespace dpb::app {

std::optional<ExpectedAccuracy> expected_accuracy(const std::string& algorithm, long n, long d,
                                                  const alg::Privacy& privacy, const Eigen::VectorXd& explained,
                                                  double total) {
  if (explained.size() < 1 || d < 2) return std::nullopt;
  ExpectedAccuracy accuracy;
  accuracy.lambda1 = explained(0);
  accuracy.lambda2 = explained.size() >= 2 ? explained(1) : std::max(0.0, total - explained(0)) / double(d - 1);
  const bounds::Params at{{"n", double(n)},     {"d", double(d)},           {"epsilon", privacy.epsilon},
                          {"delta", privacy.delta}, {"lambda1", accuracy.lambda1}, {"lambda2", accuracy.lambda2}};
  for (const auto& theorem : bounds::upper_bound_theorems()) {
    if (theorem.loss.name != bounds::Loss::Name::sin || !theorem.semantics.high_probability ||
        std::find(theorem.applies.begin(), theorem.applies.end(), algorithm) == theorem.applies.end())
      continue;
    accuracy.theorem = theorem.id;
    accuracy.source = theorem.source;
    accuracy.zeta = theorem.semantics.zeta;
    if (!(accuracy.lambda1 > accuracy.lambda2)) {  // no gap out of the noise: kappa, and the rate, unbounded
      accuracy.rate = std::numeric_limits<double>::infinity();
      accuracy.conditions_hold = false;
      return accuracy;
    }
    try {
      accuracy.rate = theorem.rate(at);
      accuracy.conditions_hold = std::all_of(theorem.conditions.begin(), theorem.conditions.end(),
                                             [&](const bounds::Condition& c) { return c.holds(at); });
    } catch (const InvalidArgument&) {
      continue;  // the rate reads a parameter user data cannot give (sigma, a model constant)
    }
    return accuracy;
  }
  return std::nullopt;
}

}  // namespace dpb::app
