#include "core/params.hpp"

#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"

namespace dpb::core {
namespace {

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  return first == std::string::npos ? std::string() : s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

}  // namespace

double parse_number(const std::string& text, const std::string& what) {
  double value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  // from_chars takes no leading '+'; skip one, but not before a '-' ("+-1" is no number).
  if (first != last && *first == '+' && first + 1 != last && first[1] != '-') ++first;
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (text.empty() || ec != std::errc() || ptr != last || !std::isfinite(value))
    throw InvalidArgument(fmt::format("{}: '{}' is not a finite number", what, text));
  return value;
}

double ParamMap::get_real(const std::string& name, double fallback, const std::string& owner) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  if (const double* v = std::get_if<double>(&it->second)) return *v;
  throw InvalidArgument(fmt::format("{}: parameter '{}' must be a number", owner, name));
}

long long ParamMap::get_int(const std::string& name, long long fallback, const std::string& owner) const {
  const double v = get_real(name, static_cast<double>(fallback), owner);
  if (v != std::floor(v) || std::abs(v) > 9.0e15)
    throw InvalidArgument(fmt::format("{}: parameter '{}' must be an integer, got {}", owner, name, v));
  return static_cast<long long>(v);
}

std::string ParamMap::get_string(const std::string& name, const std::string& fallback,
                                 const std::string& owner) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  if (const std::string* v = std::get_if<std::string>(&it->second)) return *v;
  throw InvalidArgument(fmt::format("{}: parameter '{}' must be a name (string)", owner, name));
}

std::optional<std::vector<double>> ParamMap::get_reals(const std::string& name, const std::string& owner) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  if (const auto* v = std::get_if<std::vector<double>>(&it->second)) return *v;
  if (const double* v = std::get_if<double>(&it->second)) return std::vector<double>{*v};
  throw InvalidArgument(fmt::format("{}: parameter '{}' must be a list of numbers", owner, name));
}

void ParamMap::require_known(const std::vector<std::string>& allowed, const std::string& owner) const {
  for (const auto& [name, value] : values_) {
    bool known = false;
    for (const auto& a : allowed) known = known || a == name;
    if (!known)
      throw InvalidArgument(fmt::format("{}: unknown parameter '{}' (allowed: {})", owner, name,
                                        fmt::join(allowed, ", ")));
  }
}

std::pair<std::string, ParamValue> ParamMap::parse_assignment(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InvalidArgument(fmt::format("parameter '{}' must be written name=value", text));
  const std::string name = text.substr(0, eq), raw = text.substr(eq + 1);
  if (raw.empty())
    throw InvalidArgument(fmt::format("parameter '{}' has no value (write {}=value)", name, name));
  if (raw.size() >= 2 && raw.front() == '[' && raw.back() == ']') {
    const std::string inner = trim(raw.substr(1, raw.size() - 2));
    std::vector<double> list;
    for (std::size_t start = 0; !inner.empty();) {
      const auto comma = inner.find(',', start);
      list.push_back(parse_number(trim(inner.substr(start, comma - start)), "parameter " + name));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    return {name, list};
  }
  try {
    return {name, parse_number(raw, name)};
  } catch (const InvalidArgument&) {
    return {name, raw};
  }
}

}  // namespace dpb::core
