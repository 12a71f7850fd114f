#pragma once
// Text made safe for one cell of a Markdown table: '|' escaped, line breaks turned into spaces.
#include <string>

namespace dpb::verify {

inline std::string md_cell(const std::string& text) {
  std::string out;
  for (const char c : text) out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return out;
}

}  // namespace dpb::verify
