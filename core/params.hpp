#pragma once
// Named parameters as they arrive from YAML, the CLI or code: a value is a number, a string or a
// list of numbers. Typed getters validate and say what was expected.
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace dpb::core {

using ParamValue = std::variant<double, std::string, std::vector<double>>;

class ParamMap {
 public:
  ParamMap() = default;
  ParamMap(std::initializer_list<std::pair<const std::string, ParamValue>> init) : values_(init) {}

  void set(const std::string& name, ParamValue value) { values_[name] = std::move(value); }
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  const std::map<std::string, ParamValue>& values() const { return values_; }

  // Each getter throws dpb::InvalidArgument naming `owner` and the parameter when the value has the
  // wrong type (or, for get_int, is not integral).
  double get_real(const std::string& name, double fallback, const std::string& owner) const;
  long long get_int(const std::string& name, long long fallback, const std::string& owner) const;
  std::string get_string(const std::string& name, const std::string& fallback, const std::string& owner) const;
  std::optional<std::vector<double>> get_reals(const std::string& name, const std::string& owner) const;

  // Throws dpb::InvalidArgument listing the allowed names if any stored name is not among them.
  void require_known(const std::vector<std::string>& allowed, const std::string& owner) const;

  // Parses "name=value" (value: number, [a,b,...] list, or string) as given on a command line.
  static std::pair<std::string, ParamValue> parse_assignment(const std::string& text);

 private:
  std::map<std::string, ParamValue> values_;
};

// Strict number parsing: the whole string must be a finite number ("1e-3", "0.5"); otherwise throws
// dpb::InvalidArgument with `what` in the message.
double parse_number(const std::string& text, const std::string& what);

}  // namespace dpb::core
