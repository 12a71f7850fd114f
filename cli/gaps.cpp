// `dpbounds gaps`: how far each upper bound is from the lower bound on the same loss and setting.
#include <nlohmann/json.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/verb.hpp"
#include "verify/theorems/gaps.hpp"

namespace dpb::cli::gaps_verb {

struct Options {
  std::string paper, format = "text";
};

int run(const Options& o) {
  const auto format = dpb::verify::parse_table_format(o.format);
  const auto theorems = dpb::verify::select_theorems(dpb::verify::all_theorems(), {o.paper, std::nullopt});
  fmt::print("{}", dpb::verify::gaps_report(dpb::verify::find_gaps(theorems), format));
  return 0;
}

const bool registered = dpb::cli::register_verb({
    .name = "gaps",
    .summary = "Compare every upper bound with the lower bounds on the same loss and setting",
    .help = "U/L around both theorems' example points, and per parameter the slope of\n"
            "log(U/L) vs log(parameter): ~0 = optimal up to polylogs, > 0 = the gap grows",
    .examples = {"gaps --paper liu2022", "gaps --format json"},
    .order = 32,
    .setup =
        [](CLI::App& sub) {
          auto o = std::make_shared<Options>();
          const dpb::verify::GapOptions defaults;
          sub.footer(fmt::format(
              "Each parameter is scaled by {} around the base point (both example points merged); the\n"
              "slope is a least-squares fit over the points where every condition of both theorems holds\n"
              "(others are marked *). |slope| <= {:g} reads as flat: a polylog factor (log x)^a adds about\n"
              "a/ln(x) to the slope.",
              fmt::join(defaults.factors, ", "), defaults.flat_tolerance));
          sub.add_option("--paper", o->paper, "Only pairs of this paper's theorems (liu2022, cai2024, ...)");
          sub.add_option("--format", o->format, "text | md | json (default text)");
          return [o] { return run(*o); };
        },
});

}  // namespace dpb::cli::gaps_verb
