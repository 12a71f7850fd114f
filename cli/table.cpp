// `dpbounds table RESULTS --format md|tex|csv`: the tables of a stored run on stdout.
#include <fmt/core.h>

#include "cli/verb.hpp"
#include "verify/runner/stored_run.hpp"

namespace dpb::cli::table_verb {

struct Options {
  std::string results, format = "md";
};

const bool registered = dpb::cli::register_verb({
    .name = "table",
    .summary = "Print the tables of a stored run (Markdown, booktabs LaTeX or CSV)",
    .help = "the report's tables (or one: rows n, columns algorithm) on stdout",
    .examples = {"table results/cai2024-gaussian-mechanism --format tex"},
    .order = 26,
    .setup =
        [](CLI::App& sub) {
          auto o = std::make_shared<Options>();
          sub.add_option("results", o->results, "results/<name> or its results.sqlite")->required();
          sub.add_option("--format", o->format, "md | tex | csv (default md)");
          return [o] {
            fmt::print("{}", dpb::verify::stored_tables(dpb::verify::load_run(o->results), o->format));
            return 0;
          };
        },
});

}  // namespace dpb::cli::table_verb
