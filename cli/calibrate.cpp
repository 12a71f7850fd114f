// `dpbounds calibrate gaussian|laplace`: the noise scale for (eps, delta) and the exact privacy it gives.
#include <nlohmann/json.hpp>
#include <fmt/core.h>
#include <optional>

#include "cli/verb.hpp"
#include "core/errors.hpp"
#include "app/calibration.hpp"

namespace dpb::cli::calibrate_verb {

struct Options {
  std::string mechanism, sensitivity, epsilon, delta;
  bool analytic = false, json = false;
};

int run(const Options& o) {
  using dpb::cli::number;
  const double s = number(o.sensitivity, "--sensitivity"), e = number(o.epsilon, "--epsilon");
  const std::optional<double> d = o.delta.empty() ? std::nullopt : std::optional(number(o.delta, "--delta"));
  dpb::app::Calibration c;
  if (o.mechanism == "gaussian") {
    if (!d) throw dpb::InvalidArgument("the Gaussian mechanism needs --delta in (0, 1)");
    c = dpb::app::calibrate_gaussian(s, e, *d, o.analytic);
  } else if (o.mechanism == "laplace") {
    if (o.analytic) throw dpb::InvalidArgument("--analytic applies to the Gaussian mechanism only");
    c = dpb::app::calibrate_laplace(s, e, d.value_or(0.0));
  } else {
    throw dpb::InvalidArgument("unknown mechanism '" + o.mechanism + "': choose gaussian or laplace");
  }
  if (o.json) dpb::cli::print_json(dpb::app::to_json(c));
  else fmt::print("{}", dpb::app::to_text(c));
  return 0;
}

const bool registered = dpb::cli::register_verb({
    .name = "calibrate",
    .summary = "Noise scale for a mechanism and the exact privacy it achieves",
    .help = "the noise scale a Gaussian or Laplace mechanism needs for (eps, delta),\n"
            "and the exact privacy that scale achieves",
    .examples = {"calibrate gaussian --sensitivity 1 --epsilon 0.5 --delta 1e-5",
                 "calibrate gaussian --sensitivity 1 --epsilon 2 --delta 1e-5 --analytic",
                 "calibrate laplace --sensitivity 1 --epsilon 1"},
    .order = 20,
    .setup =
        [](CLI::App& sub) {
          auto o = std::make_shared<Options>();
          sub.footer(
              "gaussian: sigma = S sqrt(2 log(1.25/delta)) / eps (classical, needs eps < 1), or with --analytic\n"
              "          the smallest sigma whose exact privacy profile meets delta at eps (Balle & Wang 2018).\n"
              "laplace:  b = S / eps, pure eps-DP (no --delta).");
          sub.add_option("mechanism", o->mechanism, "gaussian | laplace")->required();
          sub.add_option("--sensitivity", o->sensitivity, "Sensitivity S > 0 (l2 for gaussian, l1 for laplace)")
              ->required();
          sub.add_option("--epsilon", o->epsilon, "Target epsilon > 0")->required();
          sub.add_option("--delta", o->delta, "Target delta in (0, 1) (gaussian only)");
          sub.add_flag("--analytic", o->analytic, "Analytic Gaussian calibration (any eps > 0)");
          sub.add_flag("--json", o->json, "Output as JSON");
          return [o] { return run(*o); };
        },
});

}  // namespace dpb::cli::calibrate_verb
