#include "app/pca/pca_output.hpp"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numeric>

#include "algorithms/mechanisms/accountant.hpp"
#include "algorithms/mechanisms/ledger_json.hpp"

namespace dpb::app {
namespace {

nlohmann::json param_json(const core::ParamValue& v) {
  return std::visit([](const auto& x) { return nlohmann::json(x); }, v);
}

std::vector<double> as_vector(const Eigen::VectorXd& v) { return {v.data(), v.data() + v.size()}; }

// Feature indices of component j, largest |loading| first.
std::vector<long> by_weight(const PcaResult& r, Eigen::Index j) {
  std::vector<long> order(static_cast<std::size_t>(r.d));
  std::iota(order.begin(), order.end(), 0L);
  std::stable_sort(order.begin(), order.end(),
                   [&](long a, long b) { return std::abs(r.components(a, j)) > std::abs(r.components(b, j)); });
  return order;
}

// A feature name as one CSV field (RFC 4180: quoted when it holds a comma, quote or line break).
std::string csv_field(const std::string& name) {
  if (name.find_first_of(",\"\r\n") == std::string::npos) return name;
  std::string quoted = "\"";
  for (const char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// A name on one line, for text and figures.
std::string one_line(std::string name) {
  std::replace_if(name.begin(), name.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return name;
}

// A name in a comma-separated list of the text report: quoted when it holds a comma itself.
std::string shown_name(const std::string& name) {
  const std::string line = one_line(name);
  return line.find(',') == std::string::npos ? line : "'" + line + "'";
}

// What the ledger's step names mean to someone who has not read the code.
std::string plain_step(const std::string& step, const std::string& algorithm) {
  const std::string kind = step.substr(0, step.find(':'));
  if (kind == "norm scale") return "a typical record length, so that no record counts for more than that";
  if (kind == "centering") return "the average record, to center the data";
  if (kind == "column spreads") return "the spread of every column";
  if (kind == "explained variance") return "how much variance each component explains";
  return fmt::format("the components themselves ({}: {})", algorithm, step);
}

double fraction(const PcaResult& r, Eigen::Index j) {
  return r.total_variance > 0 ? r.explained(j) / r.total_variance : 0.0;
}

}  // namespace

nlohmann::json to_json(const PcaResult& r) {
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [name, value] : r.params.values()) params[name] = param_json(value);
  nlohmann::json components = nlohmann::json::array();
  for (Eigen::Index j = 0; j < r.components.cols(); ++j) components.push_back(as_vector(r.components.col(j)));
  std::vector<double> ratios;
  for (Eigen::Index j = 0; j < r.explained.size(); ++j) ratios.push_back(fraction(r, j));
  nlohmann::json accuracy = nullptr;
  if (r.accuracy)
    accuracy = {{"theorem", r.accuracy->theorem},     {"source", r.accuracy->source},
                {"sin_rate", r.accuracy->rate},       {"probability", 1 - r.accuracy->zeta},
                {"conditions_hold", r.accuracy->conditions_hold},
                {"lambda1", r.accuracy->lambda1},     {"lambda2", r.accuracy->lambda2},
                {"meaning", "the theorem's rate with its constants and polylogarithmic factors dropped"}};
  return {
      {"n", r.n},
      {"d", r.d},
      {"k", r.components.cols()},
      {"source", r.source},
      {"features", r.feature_names},
      {"algorithm", r.algorithm},
      {"parameters", params},
      {"seed", r.seed},
      {"centered", r.centered},
      {"standardized", r.standardized},
      {"center", as_vector(r.center)},
      {"scale", as_vector(r.scale)},
      {"column_second_moments", as_vector(r.spreads)},
      {"clip_radius", r.clip_radius},
      {"clip_radius_public", r.radius_is_public},
      {"components", components},
      {"explained_variance", as_vector(r.explained)},
      {"explained_variance_ratio", ratios},
      {"total_variance", r.total_variance},
      {"expected_accuracy", accuracy},
      {"privacy",
       {{"epsilon", r.total.epsilon},
        {"delta", r.total.delta},
        {"neighbours", alg::to_string(r.total.neighbours)},
        {"scope", alg::to_string(r.total.scope)},
        {"statement", alg::describe(r.total)},
        {"algorithm_claim", alg::describe(r.claim)},
        {"ledger", alg::to_json(r.ledger, alg::Neighbours::replace)}}},
      {"warnings", r.warnings},
  };
}

std::string to_text(const PcaResult& r) {
  std::string prepared;
  if (r.centered) prepared += ", centered";
  if (r.standardized) prepared += r.centered ? " and standardized" : ", standardized";
  std::string out = fmt::format("Private PCA of the {} rows of {} ({} columns) with {}, seed {}{}\n\n", r.n,
                                r.source, r.d, r.algorithm, r.seed, prepared.empty() ? "" : prepared + " privately");
  out += "What is protected\n";
  out += fmt::format("  Any one row of {} could be replaced by any other row and the probability of every\n"
                     "  output would change by at most a factor e^{:.3g} = {:.3g}, except with probability {:.2g}.\n",
                     r.source, r.total.epsilon, std::exp(r.total.epsilon), r.total.delta);
  if (r.total.scope == alg::ClaimScope::under_model_assumptions)
    out += "  WARNING: this guarantee holds only for data drawn from the algorithm's model, not for arbitrary data.\n";
  else
    out += "  This holds for every possible data set, not only typical ones.\n";
  // The algorithm's own conditions are in pca.json: they speak the paper's language, not the user's.
  out += fmt::format("  Formally: ({:.4g}, {:.2g})-differential privacy under replace-one neighbours{}.\n\n",
                     r.total.epsilon, r.total.delta,
                     r.total.scope == alg::ClaimScope::worst_case ? ", for all data sets" : ", under model assumptions");

  out += "How the budget was spent (each step sees the data only through its own noise)\n";
  // Releases on disjoint batches of the records (parts) that read alike are one line: a record lies in one
  // batch, so they are charged once (parallel composition), not once per batch.
  const auto& entries = r.ledger.entries();
  const auto line = [&](const alg::LedgerEntry& e) {
    const alg::EntryCost cost = alg::entry_cost(e, alg::Neighbours::replace);
    return fmt::format("{}: eps {:.3g}, delta {:.2g}{}", plain_step(e.step, r.algorithm), cost.epsilon, cost.delta,
                       e.uses > 1 ? fmt::format(" per use, {} uses", e.uses) : "");
  };
  for (std::size_t i = 0; i < entries.size();) {
    const std::string text = line(entries[i]);
    std::size_t batches = 1;
    while (i + batches < entries.size() && entries[i].part >= 0 && entries[i + batches].part >= 0 &&
           entries[i + batches].part != entries[i].part && line(entries[i + batches]) == text)
      ++batches;
    out += batches > 1 ? fmt::format("  - {}, on each of {} disjoint batches of the records (a record is in one)\n",
                                     text, batches)
                       : fmt::format("  - {}\n", text);
    i += batches;
  }
  out += fmt::format("  {}\n", alg::describe_ledger(r.ledger, r.total).back());
  out += fmt::format("  Records were clipped to length {:.4g} after preparation ({}).\n\n", r.clip_radius,
                     r.radius_is_public ? "from your public bound" : "a private estimate");

  out += fmt::format("Components (largest loadings first; explained {} is private)\n",
                     r.centered ? "variance" : "second moment");
  for (Eigen::Index j = 0; j < r.components.cols(); ++j) {
    out += fmt::format("  pc{} explains {:.1f}%:", j + 1, 100 * fraction(r, j));
    const auto order = by_weight(r, j);
    const std::size_t shown = std::min<std::size_t>(order.size(), 6);
    for (std::size_t i = 0; i < shown; ++i)
      out += fmt::format("{} {:+.2f} {}", i ? "," : "", r.components(order[i], j), shown_name(r.feature_names[order[i]]));
    out += order.size() > shown ? ", ...\n" : "\n";
  }
  if (!r.centered)
    out += "  (Not centered: the components describe the records' spread around 0, not around their average;\n"
           "  --center gives the usual PCA.)\n";
  if (r.accuracy && !std::isfinite(r.accuracy->rate)) {
    out += fmt::format("\nExpected accuracy\n  {} ({}): no gap between the first two eigenvalues stands out of the "
                       "noise, so the theorem promises nothing here.\n",
                       r.accuracy->theorem, r.accuracy->source);
  } else if (r.accuracy) {
    out += fmt::format(
        "\nExpected accuracy\n  {} ({}): the sine of the angle between pc1 and the data's top component is of order "
        "{:.2g} with probability {:.2g}\n  (the theorem's rate at these n, d and eps, with the eigenvalues as "
        "privately estimated; its constants are not known, so this is an order of magnitude, not a guarantee{})\n",
        r.accuracy->theorem, r.accuracy->source, r.accuracy->rate, 1 - r.accuracy->zeta,
        r.accuracy->conditions_hold ? "" : "; its conditions do not hold here");
  } else {
    out += fmt::format("\nExpected accuracy: no theorem in the catalogue bounds {}'s angle from quantities user data gives.\n",
                       r.algorithm);
  }
  if (!r.warnings.empty()) out += "\n";
  for (const auto& w : r.warnings) out += "WARNING: " + w + "\n";
  return out;
}

std::string components_csv(const PcaResult& r) {
  std::string out = "feature";
  for (Eigen::Index j = 0; j < r.components.cols(); ++j) out += fmt::format(",pc{}", j + 1);
  out += "\n";
  for (Eigen::Index i = 0; i < r.components.rows(); ++i) {
    out += csv_field(r.feature_names[static_cast<std::size_t>(i)]);
    for (Eigen::Index j = 0; j < r.components.cols(); ++j) out += fmt::format(",{:.17g}", r.components(i, j));
    out += "\n";
  }
  return out;
}

std::string loadings_csv(const PcaResult& r) {
  std::string out = "component,rank,feature,loading\n";
  for (Eigen::Index j = 0; j < r.components.cols(); ++j) {
    const auto order = by_weight(r, j);
    for (std::size_t i = 0; i < order.size(); ++i)
      out += fmt::format("pc{},{},{},{:.17g}\n", j + 1, i + 1, csv_field(r.feature_names[order[i]]),
                         r.components(order[i], j));
  }
  return out;
}

std::string pca_figure_script(const PcaResult& r, const std::string& png) {
  // Labels go between gnuplot's double quotes: drop what would end them.
  const auto label = [](std::string s) {
    s = one_line(std::move(s));
    std::erase_if(s, [](char c) { return c == '"' || c == '\\'; });
    return s;
  };
  std::string out = fmt::format(
      "set terminal pngcairo size 1000,420 font ',10'\nset output '{}'\nset multiplot layout 1,2\n"
      "set style fill solid 0.6 noborder\nset boxwidth 0.7\nset grid ytics\n",
      png);
  out += "$explained << EOD\n";
  for (Eigen::Index j = 0; j < r.explained.size(); ++j) out += fmt::format("{} \"pc{}\" {:.6g}\n", j, j + 1, 100 * fraction(r, j));
  out += "EOD\n";
  out += fmt::format("set title 'Explained {} per component (private)'\nset ylabel 'percent of total'\n"
                     "set yrange [0:*]\nset xrange [-0.6:{}]\nplot $explained using 1:3:xtic(2) with boxes notitle\n",
                     r.centered ? "variance" : "second moment", static_cast<double>(r.explained.size()) - 0.4);
  const auto order = by_weight(r, 0);
  const std::size_t shown = std::min<std::size_t>(order.size(), 15);
  out += "$loadings << EOD\n";
  for (std::size_t i = 0; i < shown; ++i)
    out += fmt::format("{} \"{}\" {:.6g}\n", i, label(r.feature_names[order[i]]), r.components(order[i], 0));
  out += "EOD\n";
  out += fmt::format("set title 'Largest loadings of pc1'\nset ylabel 'loading'\nset yrange [-1:1]\n"
                     "set xrange [-0.6:{}]\nset xtics rotate by -45\n"
                     "plot $loadings using 1:3:xtic(2) with boxes notitle\nunset multiplot\n",
                     static_cast<double>(shown) - 0.4);
  return out;
}

}  // namespace dpb::app
