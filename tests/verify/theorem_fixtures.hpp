#pragma once
// Small synthetic theorems with known rates, so the theorem tools are tested independently of what the
// papers' catalogues hold.
#include <cmath>
#include <string>

#include "bounds/params.hpp"
#include "bounds/theorem.hpp"

namespace dpb::test {

// A theorem of `kind` on the sin loss in setting "demo.model" whose rate is `rate`, no conditions.
inline bounds::Theorem synthetic_theorem(const std::string& id, bounds::Kind kind,
                                         std::function<double(const bounds::Params&)> rate,
                                         bounds::Params example = {}) {
  bounds::Theorem t;
  t.id = id;
  t.source = "Synthetic 2026, " + id;
  t.kind = kind;
  t.applies = {kind == bounds::Kind::upper ? "demo.algorithm" : "(eps,0)-DP"};
  t.rate = std::move(rate);
  t.latex = R"(\sqrt{d/n})";
  t.setting = "demo.model";
  t.example = std::move(example);
  return t;
}

// The condition `name` >= `threshold`, named "<name> >= <threshold>".
inline bounds::Condition at_least(const std::string& name, double threshold) {
  return {name + " >= " + std::to_string(static_cast<long long>(threshold)), "sample-size regime",
          [name, threshold](const bounds::Params& p) { return bounds::param(p, name) >= threshold; }};
}

}  // namespace dpb::test
