#include "verify/experiment/config_dirs.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>
#include <system_error>

#include "core/errors.hpp"

namespace dpb::verify {

ConfigLocations config_locations(const std::string& flag) {
  ConfigLocations where;
  if (!flag.empty()) where.given = flag;
  else if (const char* env = std::getenv(kConfigsEnv); env && *env) where.given = env;
  std::error_code ec;
  where.working_dir = std::filesystem::current_path(ec);
  // Linux names the running binary here; elsewhere the executable-relative places are skipped.
  if (auto exe = std::filesystem::read_symlink("/proc/self/exe", ec); !ec) where.executable = exe;
  return where;
}

std::vector<std::filesystem::path> config_dir_candidates(const ConfigLocations& where) {
  if (where.given) return {*where.given};
  std::vector<std::filesystem::path> dirs{where.working_dir / "configs"};
  if (where.executable) {
    const auto bin = where.executable->parent_path();
    dirs.push_back((bin.parent_path() / "configs").lexically_normal());                     // build/dpbounds
    dirs.push_back((bin.parent_path() / "share" / "dpbounds" / "configs").lexically_normal());  // bin/dpbounds
  }
  return dirs;
}

std::filesystem::path find_config_subdir(const std::string& sub, const ConfigLocations& where) {
  std::vector<std::string> tried;
  for (const auto& dir : config_dir_candidates(where)) {
    std::error_code ec;
    if (std::filesystem::is_directory(dir / sub, ec)) return dir / sub;
    tried.push_back((dir / sub).string());
  }
  throw InvalidArgument(fmt::format("no {} directory of the shipped configs (looked in {}); point at a configs "
                                    "directory with --configs DIR or {}=DIR",
                                    sub, fmt::join(tried, ", "), kConfigsEnv));
}

}  // namespace dpb::verify
