#pragma once
// The names tables, figures and legends show: an algorithm by its registry name (algorithms/registry.hpp
// display_name) with the parameters its label sets, or by the experiment's own `label:`; a metric by
// what it measures (the norm written out); a swept parameter by its symbol.
#include <map>
#include <string>

namespace dpb::verify {

struct DisplayName {
  std::string text;   // Markdown, CSV, PNG/SVG: "DP-Gauss-1 (beta = 2)"
  std::string latex;  // LaTeX text mode (math in $...$): "DP-Gauss-1 ($\beta = 2$)"
};

// `label` is a row's algorithm label, "id" or "id[name=value,...]". `overrides` maps labels to the
// experiment's `label:` names. A label whose id the registry does not hold is shown as it is.
DisplayName algorithm_display(const std::string& label, const std::map<std::string, std::string>& overrides = {});

// "projector_fro" -> "subspace error ||P - P_U||_F" / "$\|\hat U\hat U^\top - UU^\top\|_F$"; an unknown
// metric (a diagnostic counter) is shown as its name.
DisplayName metric_display(const std::string& metric);

// "epsilon" -> "eps" / "$\varepsilon$", "n" -> "n" / "$n$"; "algorithm" -> "Algorithm"; other names as they
// are.
DisplayName parameter_display(const std::string& name);

}  // namespace dpb::verify
