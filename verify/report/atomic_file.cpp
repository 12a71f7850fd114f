#include "verify/report/atomic_file.hpp"

#include <fmt/format.h>
#include <cctype>
#include <fstream>
#include <system_error>

#include "core/errors.hpp"

namespace dpb::verify {

std::filesystem::path partial_path(const std::filesystem::path& path) {
  // Built by appending: GCC 12 warns (-Wrestrict, a false positive) on "." + std::string.
  std::string hidden = ".";
  hidden += path.filename().string();
  hidden += ".partial";
  return path.parent_path() / hidden;
}

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec)
    throw InvalidArgument(
        fmt::format("cannot create directory {}: {}", path.parent_path().string(), ec.message()));
  const auto partial = partial_path(path);
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out << content;
    out.close();
    if (!out) {
      std::filesystem::remove(partial, ec);
      throw InvalidArgument(fmt::format("cannot write {}", path.string()));
    }
  }
  std::filesystem::rename(partial, path, ec);
  if (ec) {
    const std::string why = ec.message();
    std::filesystem::remove(partial, ec);
    throw InvalidArgument(fmt::format("cannot move {} into place: {}", path.string(), why));
  }
}

std::string file_stem(const std::string& name) {
  std::string out = name;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
  return out;
}

}  // namespace dpb::verify
