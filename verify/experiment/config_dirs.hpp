#pragma once
// Where the shipped configs (configs/suites, configs/papers, ...) live, wherever dpbounds runs from:
// `dpbounds verify` names a suite ("quick"), `dpbounds reproduce` a paper, and both must find the file
// from a checkout, from the build tree and from an installed package alike.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace dpb::verify {

// The environment variable that names a configs directory, as the --configs flag does.
inline constexpr const char* kConfigsEnv = "DPBOUNDS_CONFIGS";

struct ConfigLocations {
  std::optional<std::filesystem::path> given;       // --configs DIR, else $DPBOUNDS_CONFIGS: the only place tried
  std::filesystem::path working_dir;                // ./configs (a checkout)
  std::optional<std::filesystem::path> executable;  // <exe>/../configs (build tree), <exe>/../share/dpbounds/configs
};

// The locations of this process: `flag` (empty: none) or the environment variable, the working directory,
// and the running executable.
ConfigLocations config_locations(const std::string& flag);

// The configs directories to try, in order: `given` alone when set; else <working_dir>/configs,
// <exe dir>/../configs, <exe dir>/../share/dpbounds/configs.
std::vector<std::filesystem::path> config_dir_candidates(const ConfigLocations& where);

// <first candidate>/<sub> that is a directory (sub: "suites", "papers"); InvalidArgument naming every
// place tried and how to point at another (--configs DIR or DPBOUNDS_CONFIGS) when none is.
std::filesystem::path find_config_subdir(const std::string& sub, const ConfigLocations& where);

}  // namespace dpb::verify
