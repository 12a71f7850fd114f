#pragma once
// A numpy check for the bench's tests: the script's JSON output, after run_numpy_script's prelude; nullopt,
// with a warning, where no python3 has numpy (the C++ suite still runs there); a failed script fails the
// test.
#include <catch2/catch.hpp>

#include "bench/support/numpy_runner.hpp"

inline std::optional<nlohmann::json> numpy_check(const std::string& script) {
  if (!dpb::bench::numpy_python()) {
    WARN("skipped: no python3 with numpy");
    return std::nullopt;
  }
  std::string why_not;
  auto result = dpb::bench::run_numpy_script(script, {}, why_not);
  INFO(why_not);
  REQUIRE(result);
  return result;
}

// The check's value `name` lies in [low, high].
inline void check_within(const nlohmann::json& result, const char* name, double low, double high) {
  INFO(name);
  CHECK(result.at(name).get<double>() >= low);
  CHECK(result.at(name).get<double>() <= high);
}
