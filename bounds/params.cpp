#include "bounds/params.hpp"

#include <cmath>
#include <fmt/core.h>

#include "core/errors.hpp"

namespace dpb::bounds {
namespace {

thread_local ParamReadLog* active_log = nullptr;

}  // namespace

ParamReadLog::ParamReadLog() : outer_(active_log) { active_log = this; }
ParamReadLog::~ParamReadLog() { active_log = outer_; }

const char* aliased(const Params& p, const char* name, const char* alias) {
  return p.count(name) || !p.count(alias) ? name : alias;
}

double param(const Params& p, const std::string& name) {
  if (active_log != nullptr) active_log->names_.insert(name);
  const auto it = p.find(name);
  if (it == p.end()) throw InvalidArgument(fmt::format("missing parameter '{}'", name));
  if (!std::isfinite(it->second)) throw InvalidArgument(fmt::format("parameter '{}' must be finite", name));
  return it->second;
}

double param_or(const Params& p, const std::string& name, double fallback) {
  return p.count(name) ? param(p, name) : fallback;
}

double positive(const Params& p, const std::string& name) {
  const double v = param(p, name);
  if (!(v > 0)) throw InvalidArgument(fmt::format("parameter '{}' = {} must be > 0", name, v));
  return v;
}

double unit_interval(const Params& p, const std::string& name) {
  const double v = param(p, name);
  if (!(v > 0 && v < 1)) throw InvalidArgument(fmt::format("parameter '{}' = {} must lie in (0, 1)", name, v));
  return v;
}

}  // namespace dpb::bounds
