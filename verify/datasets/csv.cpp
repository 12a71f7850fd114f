#include "verify/datasets/csv.hpp"

#include <fmt/core.h>

#include "core/errors.hpp"

namespace dpb::verify {
namespace {

void trim_blanks(std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return s.clear();
  s = s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

}  // namespace

bool CsvReader::next(CsvRecord& record) {
  record.fields.clear();
  for (;;) {  // skip blank lines
    const int c = in_.peek();
    if (c == std::char_traits<char>::eof()) return false;
    if (c == '\n') {
      in_.get();
      ++line_;
    } else if (c == '\r') {
      in_.get();
    } else {
      break;
    }
  }
  record.line = line_;
  std::string field;
  bool quoted = false;  // the current field was quoted (its text is final once the quote closes)
  for (;;) {
    const int c = in_.get();
    if (c == std::char_traits<char>::eof() || c == '\n' || c == ',') {
      if (!quoted) trim_blanks(field);
      record.fields.push_back(std::move(field));
      field.clear();
      quoted = false;
      if (c == ',') continue;
      if (c == '\n') ++line_;
      if (in_.bad()) throw InvalidArgument(fmt::format("{}: read error", name_));
      return true;
    }
    if (c == '\r') continue;
    if (quoted) {
      if (c != ' ' && c != '\t')
        throw InvalidArgument(fmt::format("{}: line {}: text after the closing quote of a field (write a quote inside "
                                          "a quoted field as \"\")",
                                          name_, line_));
      continue;
    }
    if (c == '"') {
      if (field.find_first_not_of(" \t") != std::string::npos)
        throw InvalidArgument(fmt::format("{}: line {}: a quote inside an unquoted field (quote the whole field, and "
                                          "write the quote as \"\")",
                                          name_, line_));
      field.clear();
      const std::size_t opened = line_;
      for (;;) {
        const int q = in_.get();
        if (q == std::char_traits<char>::eof())
          throw InvalidArgument(fmt::format("{}: line {}: a quoted field is never closed", name_, opened));
        if (q == '"') {
          if (in_.peek() != '"') break;
          in_.get();
        }
        if (q == '\n') ++line_;
        field.push_back(static_cast<char>(q));
      }
      quoted = true;
      continue;
    }
    field.push_back(static_cast<char>(c));
  }
}

}  // namespace dpb::verify
