#pragma once
// Reading a theorem's parameters: a missing or out-of-domain one is a dpb::InvalidArgument that names it.
#include <string>

#include "bounds/theorem.hpp"

namespace dpb::bounds {

// `name` if present, else `alias` if that is present, else `name` (so a miss names the spec's name):
// a theorem reads "p" where the verifier's cells carry "d", and so on.
const char* aliased(const Params& p, const char* name, const char* alias);
// The value of `name`; throws if it is absent or not finite.
double param(const Params& p, const std::string& name);
// The value of `name`, or `fallback` when absent.
double param_or(const Params& p, const std::string& name, double fallback);
// The value of `name`; throws unless it is > 0 (n, d, eps, lambda1, ...).
double positive(const Params& p, const std::string& name);
// The value of `name`; throws unless it lies in the open interval (0, 1) (delta, zeta, ...).
double unit_interval(const Params& p, const std::string& name);

}  // namespace dpb::bounds
