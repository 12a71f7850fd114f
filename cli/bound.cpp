// `dpbounds bound ID`: one theorem evaluated at a parameter point.
#include <nlohmann/json.hpp>
#include <fmt/core.h>

#include "cli/verb.hpp"
#include "core/errors.hpp"
#include "verify/theorems/bound_evaluation.hpp"

namespace dpb::cli::bound_verb {

struct Options {
  std::string id, n, d, k, epsilon, delta;
  std::vector<std::string> assignments;  // --param name=value
  bool example = false, json = false;
};

void put(dpb::bounds::Params& params, const std::string& name, double value) {
  if (!params.emplace(name, value).second)
    throw dpb::InvalidArgument(fmt::format("parameter '{}' is given twice", name));
}

dpb::bounds::Params given_params(const Options& o) {
  dpb::bounds::Params params;
  const std::pair<const char*, const std::string*> named[] = {
      {"n", &o.n}, {"d", &o.d}, {"k", &o.k}, {"epsilon", &o.epsilon}, {"delta", &o.delta}};
  for (const auto& [name, text] : named)
    if (!text->empty()) put(params, name, dpb::cli::number(*text, fmt::format("--{}", name)));
  const auto assigned = dpb::cli::assignments(o.assignments);
  for (const auto& [name, value] : assigned.values()) {
    const auto* number = std::get_if<double>(&value);
    if (!number) throw dpb::InvalidArgument(fmt::format("--param {}: theorem parameters are numbers", name));
    put(params, name, *number);
  }
  return params;
}

int run(const Options& o) {
  const auto evaluation = dpb::verify::evaluate_bound_request(
      o.id, given_params(o), o.example,
      "set parameters with --n, --d, --k, --eps, --delta or --param NAME=VALUE; --example starts from the "
      "theorem's example point");
  if (o.json)
    dpb::cli::print_json(dpb::verify::to_json(evaluation));
  else
    fmt::print("{}", dpb::verify::to_text(evaluation));
  return 0;
}

const bool registered = dpb::cli::register_verb({
    .name = "bound",
    .summary = "Evaluate one theorem's rate and conditions at a parameter point",
    .help = "one theorem at given parameters: the rate, each condition (holds or fails),\n"
            "the explicit lower-bound value where the theorem has one",
    .examples =
        {"bound liu2022.cor5.2 --example",
         "bound liu2022.cor5.2 --n 1e5 --d 50 --eps 1 --delta 1e-5 --param lambda1=2 --param lambda2=1",
         "bound liu2022.thm5.3 --example --n 1e6 --json"},
    .order = 31,
    .setup =
        [](CLI::App& sub) {
          auto o = std::make_shared<Options>();
          sub.footer(
              "Parameters are the theorem's names (n, d, k, epsilon, delta, lambda1, kappa, zeta, ...; see\n"
              "'dpbounds theorems --format json' for each theorem's example point). --example starts from\n"
              "that point; any value given on the command line overrides it.");
          sub.add_option("id", o->id, "Theorem id, e.g. liu2022.cor5.2 ('dpbounds theorems' lists them)")
              ->required();
          sub.add_option("--n", o->n, "Sample size n");
          sub.add_option("--d", o->d, "Dimension d");
          sub.add_option("--k", o->k, "Rank / sparsity k");
          sub.add_option("--epsilon,--eps", o->epsilon, "Privacy epsilon");
          sub.add_option("--delta", o->delta, "Privacy delta");
          sub.add_option("--param", o->assignments, "Any parameter as name=value (repeatable)");
          sub.add_flag("--example", o->example, "Start from the theorem's example point");
          sub.add_flag("--json", o->json, "Output as JSON");
          return [o] { return run(*o); };
        },
});

}  // namespace dpb::cli::bound_verb
