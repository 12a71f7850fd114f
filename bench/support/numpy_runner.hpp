#pragma once
// Running the numpy code a researcher would write for a workload, in the same bench run as dpbounds (issue
// 23: the ratio is what a user weighs). The script prints one JSON object of timings on stdout.
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace dpb::bench {

// An interpreter that has numpy: $DPB_PYTHON, python3 on PATH, or Debian's (bootstrap installs python3-numpy
// for it); nullopt when none has.
std::optional<std::string> numpy_python();

// `script` with every %KEY% of `values` replaced, run by numpy_python() with one BLAS thread after a prelude
// that imports json, time and numpy as np and defines `rng` (seeded) and median_cpu(f, runs=5); its stdout
// parsed as JSON. On failure,
// nullopt and `why_not` says why (no interpreter with numpy, or the script failed).
std::optional<nlohmann::json> run_numpy_script(std::string script, const std::map<std::string, std::string>& values,
                                               std::string& why_not);

}  // namespace dpb::bench
