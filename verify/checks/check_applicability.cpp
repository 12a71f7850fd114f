#include "verify/checks/check_applicability.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "verify/runner/statistic_metrics.hpp"
#include "verify/theorems/theorem_table.hpp"

namespace dpb::verify {
namespace {

using Name = bounds::Loss::Name;

constexpr const char* kNormalized = "_normalized";

// The metric names (without _normalized) that measure `loss`.
std::vector<std::string> measuring_metrics(const bounds::Loss& loss) {
  const auto schatten = [&](const char* prefix) -> std::vector<std::string> {
    if (std::isinf(loss.q)) return {std::string(prefix) + "_op"};
    if (loss.q == 2) return {std::string(prefix) + "_fro"};
    if (loss.q == 1) return {std::string(prefix) + "_nuclear"};
    return {};
  };
  switch (loss.name) {
    case Name::sin:
    case Name::projector_op: return {"sin", "projector_op"};
    case Name::projector_fro: return {"projector_fro"};
    case Name::projector_schatten: return schatten("projector");
    case Name::cov_op: return {"cov_op"};
    case Name::cov_fro: return {"cov_fro"};
    case Name::cov_schatten: return schatten("cov");
    case Name::statistic: return {};
  }
  return {};
}

bool measures(const std::string& metric, const bounds::Loss& loss, const std::string& vary) {
  if (loss.name == Name::statistic) return is_statistic_metric(metric) || metric.rfind("diagnostic.", 0) == 0;
  std::string base = metric;
  const bool normalized = base.size() > std::string(kNormalized).size() &&
                          base.compare(base.size() - std::string(kNormalized).size(), std::string::npos, kNormalized) == 0;
  if (normalized) base.erase(base.size() - std::string(kNormalized).size());
  const auto names = measuring_metrics(loss);
  if (std::find(names.begin(), names.end(), base) == names.end()) return false;
  // Normalising by r^{1/q} is a constant unless the check varies r.
  return normalized == loss.normalized_by_rank || vary != "r";
}

}  // namespace

std::string applicability_problem(const CheckSpec& check, const std::string& algorithm_id,
                                  const bounds::Theorem& theorem) {
  if (!measures(check.metric, theorem.loss, check.vary)) {
    const auto names = measuring_metrics(theorem.loss);
    return fmt::format("metric '{}' does not measure {}'s loss, {} (measured by {})", check.metric, theorem.id,
                       to_string(theorem.loss),
                       theorem.loss.name == Name::statistic ? "a scalar_* metric, sample_mean_error or diagnostic.<name>"
                                                            : fmt::format("{}", fmt::join(names, " or ")));
  }
  if (theorem.kind == bounds::Kind::upper &&
      std::find(theorem.applies.begin(), theorem.applies.end(), algorithm_id) == theorem.applies.end())
    return fmt::format("{} is an upper bound for {}, not for {}", theorem.id, fmt::join(theorem.applies, ", "),
                       algorithm_id);
  return "";
}

}  // namespace dpb::verify
