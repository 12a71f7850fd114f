#pragma once
// The content of an experiment that decides its rows, in a canonical form, and the hash that keys its
// results (DESIGN.md §5 "Runner"): any change to model, grid, privacy, algorithms (with defaults
// resolved, so a changed default changes the hash too, and with an external program's file contents),
// metrics, trials, seed or the dpbounds version gives a new hash, and old rows are never mixed in. Checks, report and source text do not change rows and are left out, so
// editing them reuses the stored trials.
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "verify/experiment/spec.hpp"

namespace dpb::verify {

nlohmann::json canonical_form(const ExperimentSpec& spec);
// 16 hex digits: FNV-1a 64 (core::hash_name) of canonical_form(spec).dump().
std::string content_hash(const ExperimentSpec& spec);

// A parameter value as JSON (number, string or list of numbers).
nlohmann::json to_json(const core::ParamValue& value);
nlohmann::json to_json(const core::ParamMap& params);

}  // namespace dpb::verify
