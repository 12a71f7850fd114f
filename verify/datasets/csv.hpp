#pragma once
// Comma-separated records as RFC 4180 writes them: fields may be quoted ("a, b", "say ""hi"""), and a
// quoted field may hold commas and line breaks; lines end in LF or CRLF. Unquoted fields are trimmed of
// blanks (spreadsheets pad them). Errors name the line, so a user can go straight to it.
#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace dpb::verify {

struct CsvRecord {
  std::vector<std::string> fields;
  std::size_t line = 0;  // the line the record starts on (1-based)
};

class CsvReader {
 public:
  // `name` labels the errors (the file's path).
  CsvReader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}
  // The next non-blank record; false at the end of the input. Throws dpb::InvalidArgument for a quoted
  // field that is never closed or text after a closing quote.
  bool next(CsvRecord& record);

 private:
  std::istream& in_;
  std::string name_;
  std::size_t line_ = 1;
};

}  // namespace dpb::verify
