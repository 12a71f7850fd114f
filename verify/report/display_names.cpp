#include "verify/report/display_names.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <fmt/format.h>
#include <vector>

#include "algorithms/registry.hpp"
#include "verify/theorems/theorem_table.hpp"

namespace dpb::verify {
namespace {

// The math of a parameter name: a Greek name by its letter, trailing digits as a subscript, sigma2 (the
// suite's spelling of sigma^2) squared.
std::string parameter_math(const std::string& name) {
  if (name == "sigma2") return "\\sigma^2";
  static const std::map<std::string, std::string> greek = {
      {"alpha", "\\alpha"}, {"beta", "\\beta"},     {"gamma", "\\gamma"}, {"delta", "\\delta"},
      {"epsilon", "\\varepsilon"}, {"zeta", "\\zeta"}, {"eta", "\\eta"},
      {"kappa", "\\kappa"}, {"lambda", "\\lambda"}, {"mu", "\\mu"},       {"sigma", "\\sigma"},
      {"tau", "\\tau"},     {"phi", "\\phi"},       {"xi", "\\xi"},       {"rho", "\\rho"}};
  std::size_t digits = name.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
  const std::string stem = name.substr(0, digits), index = name.substr(digits);
  std::string math;
  if (const auto g = greek.find(stem); g != greek.end()) math = g->second;
  else if (stem.size() == 1) math = stem;
  else math = "\\mathrm{" + latex_escape(stem) + "}";
  return index.empty() || stem.empty() ? math : math + "_{" + index + "}";
}

bool is_parameter_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
  });
}

// "a=1,b=[2,3]" -> {"a=1", "b=[2,3]"}: commas inside brackets stay.
std::vector<std::string> split_assignments(const std::string& text) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (const char c : text) {
    if (c == ',' && depth == 0) {
      parts.emplace_back();
      continue;
    }
    depth += c == '[' ? 1 : c == ']' ? -1 : 0;
    parts.back() += c;
  }
  return parts;
}

}  // namespace

DisplayName parameter_display(const std::string& name) {
  if (name == "algorithm") return {"Algorithm", "Algorithm"};
  if (!is_parameter_name(name)) return {name, latex_escape(name)};
  return {name, fmt::format("${}$", parameter_math(name))};
}

DisplayName algorithm_display(const std::string& label, const std::map<std::string, std::string>& overrides) {
  if (const auto o = overrides.find(label); o != overrides.end()) return {o->second, latex_escape(o->second)};
  const auto bracket = label.find('[');
  const std::string id = label.substr(0, bracket);
  const auto& entries = alg::algorithm_registry().entries();
  const auto entry = std::find_if(entries.begin(), entries.end(), [&](const auto& e) { return e.id == id; });
  if (entry == entries.end()) return {label, latex_escape(label)};
  const std::string name = alg::display_name(*entry);
  DisplayName shown{name, latex_escape(name)};
  if (bracket == std::string::npos || label.back() != ']') return shown;
  std::vector<std::string> text, latex;
  for (const auto& assignment : split_assignments(label.substr(bracket + 1, label.size() - bracket - 2))) {
    const auto equals = assignment.find('=');
    const std::string param = assignment.substr(0, equals);
    const std::string value = equals == std::string::npos ? "" : assignment.substr(equals + 1);
    text.push_back(fmt::format("{} = {}", param, value));
    latex.push_back(fmt::format("{} $=$ {}", parameter_display(param).latex, latex_escape(value)));
  }
  return {fmt::format("{} ({})", name, fmt::join(text, ", ")),
          fmt::format("{} ({})", shown.latex, fmt::join(latex, ", "))};
}

DisplayName metric_display(const std::string& metric) {
  struct Base {
    std::string text, latex;
    std::string rank_power;  // what the _normalized form divides by
  };
  const auto norm = [](const std::string& suffix) -> std::pair<std::string, std::string> {
    if (suffix == "op") return {"op", "\\mathrm{op}"};
    if (suffix == "fro") return {"F", "F"};
    return {"*", "*"};
  };
  std::string name = metric;
  const bool normalized = name.size() > 11 && name.ends_with("_normalized");
  if (normalized) name.resize(name.size() - 11);
  std::optional<Base> base;
  if (name == "sin") base = Base{"sin of the largest principal angle", "$\\sin\\Theta(\\hat U, U)$", ""};
  if (name == "sin2") base = Base{"squared sin of the largest principal angle", "$\\sin^2\\Theta(\\hat U, U)$", ""};
  for (const char* kind : {"projector", "cov"})
    for (const char* suffix : {"op", "fro", "nuclear"})
      if (name == fmt::format("{}_{}", kind, suffix)) {
        const auto [text_norm, latex_norm] = norm(suffix);
        const bool projector = std::string(kind) == "projector";
        const std::string power = std::string(suffix) == "op" ? "" : std::string(suffix) == "fro" ? "\\sqrt{r}" : "r";
        base = Base{fmt::format("{} error ||.||_{}", projector ? "subspace" : "covariance", text_norm),
                    projector ? fmt::format("$\\|\\hat U\\hat U^\\top - UU^\\top\\|_{{{}}}$", latex_norm)
                              : fmt::format("$\\|\\hat\\Sigma - \\Sigma\\|_{{{}}}$", latex_norm),
                    power};
      }
  if (name == "explained_variance")
    base = Base{"explained variance", "$\\mathrm{tr}(\\hat U^\\top\\Sigma\\hat U) / \\mathrm{tr}\\,\\Sigma$", ""};
  if (name == "scalar_error") base = Base{"|released - truth|", "$|\\hat s - s|$", ""};
  if (name == "scalar_ratio") base = Base{"released / truth", "$\\hat s / s$", ""};
  if (name == "scalar_log2_ratio") base = Base{"|log2(released / truth)|", "$|\\log_2(\\hat s / s)|$", ""};
  if (name == "sample_mean_error") base = Base{"||mean - sample mean||", "$\\|\\hat\\mu - \\bar x\\|$", ""};
  if (!base) return {metric, latex_escape(metric)};
  if (!normalized || base->rank_power.empty()) return {base->text, base->latex};
  const std::string math = base->latex.substr(1, base->latex.size() - 2);
  return {base->text + fmt::format(" / r^(1/{})", base->rank_power == "r" ? "1" : "2"),
          fmt::format("${} / {}$", math, base->rank_power)};
}

}  // namespace dpb::verify
