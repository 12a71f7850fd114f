#pragma once
// A ledger and a claim as JSON, for every machine-readable output (`dpbounds pca --json`, the Python
// package's results): one shape everywhere.
#include <nlohmann/json_fwd.hpp>

#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/privacy.hpp"

namespace dpb::alg {

// One object per entry: step, mechanism, sensitivity, norm, noise_scale, uses, calibrated_for {epsilon,
// delta}, cost_per_use {epsilon, delta, theorem} (entry_cost under `neighbours`).
nlohmann::json to_json(const Ledger& ledger, Neighbours neighbours);

// epsilon, delta, neighbours, scope, conditions and the one-line statement (describe).
nlohmann::json to_json(const PrivacyClaim& claim);

}  // namespace dpb::alg
