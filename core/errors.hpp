#pragma once
// The two error types every layer throws (DESIGN.md §3 "Errors"). The CLI turns either into one
// line on stderr and exit code 2.
#include <stdexcept>
#include <string>

namespace dpb {

// Invalid parameters or data: the message says what was wrong and what is allowed.
class InvalidArgument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A problem in a configuration file; the message carries file:line:column.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace dpb
