#pragma once
// What `dpbounds list` prints: the ids (one per line) or details (JSON) of the algorithms, models
// and theorems dpbounds knows.
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace dpb::verify {

// The kinds `list` accepts, in the order `--help` shows them.
const std::vector<std::string>& catalog_kinds();

// Throws dpb::InvalidArgument naming the allowed kinds if `kind` is not one of them.
std::vector<std::string> catalog_ids(const std::string& kind);
nlohmann::json catalog_json(const std::string& kind);

}  // namespace dpb::verify
