#pragma once
// Reading what a test's run wrote.
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace dpb::test {

// The whole file, or "" when it cannot be read.
inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// How often `what` occurs in `text`, overlapping occurrences counted.
inline std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

}  // namespace dpb::test
