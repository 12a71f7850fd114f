// `dpbounds list KIND`: the ids (or JSON details) of what dpbounds knows.
#include <nlohmann/json.hpp>
#include <fmt/core.h>

#include "cli/verb.hpp"
#include "verify/experiment/catalog.hpp"

namespace dpb::cli::list_verb {

const bool registered = dpb::cli::register_verb({
    .name = "list",
    .summary = "List algorithms, models or theorems",
    .help = "one id per line; --json for details: parameters, defaults, sources, privacy claims",
    .examples = {"list algorithms", "list models --json"},
    .order = 10,
    .setup =
        [](CLI::App& sub) {
          auto kind = std::make_shared<std::string>();
          auto json = std::make_shared<bool>(false);
          sub.add_option("kind", *kind, "algorithms | models | theorems")->required();
          sub.add_flag("--json", *json, "Details as JSON instead of one id per line");
          return [kind, json] {
            if (*json) {
              dpb::cli::print_json(dpb::verify::catalog_json(*kind));
            } else {
              for (const auto& id : dpb::verify::catalog_ids(*kind)) fmt::print("{}\n", id);
            }
            return 0;
          };
        },
});

}  // namespace dpb::cli::list_verb
