// `dpbounds theorems`: the upper- and lower-bound theorems as a table (text, md, tex, json).
#include <nlohmann/json.hpp>
#include <fmt/core.h>

#include "cli/verb.hpp"
#include "verify/theorems/theorem_table.hpp"

namespace dpb::cli::theorems_verb {

struct Options {
  std::string paper, kind, format = "text";
};

int run(const Options& o) {
  dpb::verify::TheoremFilter filter{o.paper, std::nullopt};
  if (!o.kind.empty()) filter.kind = dpb::bounds::parse_kind(o.kind);
  const auto format = dpb::verify::parse_table_format(o.format);
  fmt::print("{}", dpb::verify::theorem_table(
                       dpb::verify::select_theorems(dpb::verify::all_theorems(), filter), format));
  return 0;
}

const bool registered = dpb::cli::register_verb({
    .name = "theorems",
    .summary = "Table of the papers' upper and lower bounds",
    .help = "the papers' theorems: rate, loss, semantics, setting; --format tex writes\n"
            "booktabs tables a paper can \\input (kumar2025 Tables 1 and 2 included)",
    .examples = {"theorems --paper liu2022", "theorems --kind lower --format md",
                 "theorems --paper kumar2025 --format tex > kumar2025-rates.tex"},
    .order = 30,
    .setup =
        [](CLI::App& sub) {
          auto o = std::make_shared<Options>();
          sub.footer(
              "Rates drop constants and the polylogarithmic factors each theorem's 'hides' names.\n"
              "Evaluate one with 'dpbounds bound ID', compare upper with lower with 'dpbounds gaps'.");
          sub.add_option("--paper", o->paper,
                         "Only this paper's theorems (id prefix: liu2022, cai2024, ...)");
          sub.add_option("--kind", o->kind, "upper | lower");
          sub.add_option("--format", o->format, "text | md | tex | json (default text)");
          return [o] { return run(*o); };
        },
});

}  // namespace dpb::cli::theorems_verb
