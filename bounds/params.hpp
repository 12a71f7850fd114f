#pragma once
// Reading a theorem's parameters: a missing or out-of-domain one is a dpb::InvalidArgument that names it.
#include <set>
#include <string>

#include "bounds/theorem.hpp"

namespace dpb::bounds {

// While one lives, the helpers below record every name they read on this thread: the parameters a
// theorem's formulas actually use at a point, so that `dpbounds bound` can reject a given one that is
// ignored (a typo such as lamda1, or d for a theorem that reads p). Logs nest: the innermost records.
class ParamReadLog {
 public:
  ParamReadLog();
  ~ParamReadLog();
  ParamReadLog(const ParamReadLog&) = delete;
  ParamReadLog& operator=(const ParamReadLog&) = delete;
  const std::set<std::string>& names() const { return names_; }

 private:
  friend double param(const Params& p, const std::string& name);
  std::set<std::string> names_;
  ParamReadLog* outer_;
};

// `name` if present, else `alias` if that is present, else `name` (so a miss names the spec's name):
// a theorem reads "p" where the verifier's cells carry "d", and so on.
const char* aliased(const Params& p, const char* name, const char* alias);
// The value of `name`; throws if it is absent or not finite.
double param(const Params& p, const std::string& name);
// The value of `name`, or `fallback` when absent.
double param_or(const Params& p, const std::string& name, double fallback);
// The value of `name`; throws unless it is > 0 (n, d, epsilon, lambda1, ...).
double positive(const Params& p, const std::string& name);
// The value of `name`; throws unless it lies in the open interval (0, 1) (delta, zeta, ...).
double unit_interval(const Params& p, const std::string& name);

}  // namespace dpb::bounds
