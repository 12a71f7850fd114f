#pragma once
// Test helpers for theorem catalogues: look a theorem up by id, a condition by name, edit a parameter
// point one entry at a time, and check what every catalogue entry owes its users.
#include <catch2/catch.hpp>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "bounds/theorem.hpp"

namespace dpb::test {

// The theorem `id` in `all`; fails the test when there is none.
inline const bounds::Theorem& find_theorem(const std::vector<bounds::Theorem>& all, const std::string& id) {
  for (const auto& t : all)
    if (t.id == id) return t;
  FAIL("no theorem " << id);
  throw;  // unreachable: FAIL throws
}

// The condition `name` of `t`; fails the test when there is none.
inline const bounds::Condition& find_condition(const bounds::Theorem& t, const std::string& name) {
  for (const auto& c : t.conditions)
    if (c.name == name) return c;
  FAIL("no condition " << name << " in " << t.id);
  throw;  // unreachable: FAIL throws
}

// `p` with `name` set to `value`.
inline bounds::Params with(bounds::Params p, const std::string& name, double value) {
  p[name] = value;
  return p;
}

// `p` without the entry `name`.
inline bounds::Params without(bounds::Params p, const std::string& name) {
  p.erase(name);
  return p;
}

// The ids of `all`, each checked to occur once.
inline std::set<std::string> unique_ids(const std::vector<bounds::Theorem>& all) {
  std::set<std::string> ids;
  for (const auto& t : all) {
    INFO(t.id);
    CHECK(ids.insert(t.id).second);
  }
  return ids;
}

// Every descriptive field `dpbounds theorems` prints is filled, the example lies inside every condition,
// and the rate there is finite and positive.
inline void check_catalogue_entry(const bounds::Theorem& t) {
  INFO(t.id);
  CHECK_FALSE(t.applies.empty());
  CHECK_FALSE(t.setting.empty());
  CHECK_FALSE(t.latex.empty());
  CHECK_FALSE(t.hides.empty());
  for (const auto& c : t.conditions) {
    INFO(c.name);
    CHECK(c.holds(t.example));
  }
  const double rate = t.rate(t.example);
  CHECK(std::isfinite(rate));
  CHECK(rate > 0);
}

}  // namespace dpb::test
