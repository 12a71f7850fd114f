#pragma once
// A finished run read back from its store, for `dpbounds check / table / plot RESULTS`: the checks and
// the report are redone from the rows and the settings the run stored (verify/experiment/settings.hpp).
#include <filesystem>
#include <string>
#include <vector>

#include "verify/experiment/settings.hpp"
#include "verify/store/results.hpp"

namespace dpb::verify {

struct LoadedRun {
  ResultSet results;
  RunSettings settings;
  std::filesystem::path dir;  // the experiment's results directory (the store's folder)
};

// The latest run of the store at `results` (a results.sqlite file or its directory).
LoadedRun load_run(const std::filesystem::path& results);

// The run's tables in `format` (md | tex | csv), one after another; the experiment's report tables,
// or one default table (rows n, columns algorithm) when it names none. Throws dpb::InvalidArgument
// for another format.
std::string stored_tables(const LoadedRun& run, const std::string& format);

// Writes the run's figures into <dir>/figures and returns their paths (none when the report names no
// figure; no PNG/SVG without gnuplot).
std::vector<std::filesystem::path> stored_figures(const LoadedRun& run);

}  // namespace dpb::verify
