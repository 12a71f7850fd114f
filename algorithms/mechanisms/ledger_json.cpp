#include "algorithms/mechanisms/ledger_json.hpp"

#include <nlohmann/json.hpp>

#include "algorithms/mechanisms/accountant.hpp"

namespace dpb::alg {

nlohmann::json to_json(const Ledger& ledger, Neighbours neighbours) {
  nlohmann::json entries = nlohmann::json::array();
  for (const auto& e : ledger.entries()) {
    const EntryCost cost = entry_cost(e, neighbours);
    entries.push_back({{"step", e.step},
                       {"mechanism", to_string(e.mechanism)},
                       {"sensitivity", e.sensitivity},
                       {"norm", to_string(e.norm)},
                       {"noise_scale", e.noise_scale},
                       {"uses", e.uses},
                       {"calibrated_for", {{"epsilon", e.calibrated_for.epsilon}, {"delta", e.calibrated_for.delta}}},
                       {"cost_per_use", {{"epsilon", cost.epsilon}, {"delta", cost.delta}, {"theorem", cost.theorem}}}});
  }
  return entries;
}

nlohmann::json to_json(const PrivacyClaim& claim) {
  return {{"epsilon", claim.epsilon},
          {"delta", claim.delta},
          {"neighbours", to_string(claim.neighbours)},
          {"scope", to_string(claim.scope)},
          {"conditions", claim.conditions},
          {"statement", describe(claim)}};
}

}  // namespace dpb::alg
