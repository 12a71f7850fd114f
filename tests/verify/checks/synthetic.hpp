#pragma once
// Synthetic result sets and theorems for the check and report tests: errors with a known power law
// in the swept variable, so every check has a known answer.
#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "bounds/params.hpp"
#include "bounds/theorem.hpp"
#include "core/rng.hpp"
#include "core/samplers.hpp"
#include "verify/checks/check_spec.hpp"
#include "verify/store/results.hpp"

namespace dpb::test {

// One algorithm's trials: cell i sweeps n = ns[i] (eps = 1, delta = 1e-5 fixed), each trial's
// `metric` is error(n, trial).
inline void add_trials(verify::ResultSet& results, const std::string& algorithm, const std::string& metric,
                       const std::vector<double>& ns, std::size_t trials,
                       const std::function<double(double n, std::size_t trial)>& error) {
  for (std::size_t cell = 0; cell < ns.size(); ++cell)
    for (std::size_t t = 0; t < trials; ++t) {
      verify::TrialRow row;
      row.cell = cell;
      row.cell_params = {{"n", ns[cell]}, {"epsilon", 1.0}, {"delta", 1e-5}};
      row.algorithm = algorithm;
      row.trial = t;
      row.metrics[metric] = error(ns[cell], t);
      results.rows.push_back(row);
    }
}

// c n^-a times a noise factor uniform in [1 - spread, 1 + spread], from a fixed stream.
inline std::function<double(double, std::size_t)> power_law(double c, double a, double spread,
                                                            std::uint64_t seed) {
  return [=](double n, std::size_t trial) {
    core::Rng rng(seed, core::combine_stream(static_cast<std::uint64_t>(n), trial));
    return c * std::pow(n, -a) * core::uniform(rng, 1 - spread, 1 + spread);
  };
}

// A check; the strings are moved in (copy-assigning a literal into a std::string member trips GCC 12's
// -Wrestrict false positive at -O3, and designated initializers trip -Wmissing-field-initializers).
inline verify::CheckSpec check_spec(std::string kind, std::string theorem, std::string algorithm,
                                    std::string metric, std::string vary, std::string against = "") {
  verify::CheckSpec c;
  c.kind = std::move(kind);
  c.theorem = std::move(theorem);
  c.algorithm = std::move(algorithm);
  c.metric = std::move(metric);
  c.vary = std::move(vary);
  c.against = std::move(against);
  return c;
}

// A theorem with rate n^-a, loss sin, setting "synthetic".
inline bounds::Theorem power_rate_theorem(const std::string& id, bounds::Kind kind, double a) {
  bounds::Theorem t;
  t.id = id;
  t.kind = kind;
  t.setting = std::string("synthetic");
  t.semantics.high_probability = false;
  t.rate = [a](const bounds::Params& p) { return std::pow(bounds::param(p, "n"), -a); };
  return t;
}

}  // namespace dpb::test
