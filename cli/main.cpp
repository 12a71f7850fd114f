// The `dpbounds` executable: parses arguments and calls verify/. No logic a test would want lives
// here. Every error becomes one line on stderr and exit code 2.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fmt/core.h>
#include <iostream>
#include <optional>
#include <string>

#include "core/errors.hpp"
#include "core/params.hpp"
#include "verify/calibration.hpp"
#include "verify/catalog.hpp"
#include "verify/demo.hpp"

namespace {

constexpr int kUsageError = 2;

const char* kFooter = R"(Verbs:
  list KIND        what dpbounds knows, one id per line: algorithms, models or theorems
                   (--json for details: parameters, defaults, sources, privacy claims)
  calibrate MECH   the noise scale a Gaussian or Laplace mechanism needs for (eps, delta),
                   and the exact privacy that scale achieves
  demo             a short end-to-end run: spiked-Gaussian data, non-private PCA, and a
                   private (Analyze-Gauss) PCA with its privacy claim

Examples:
  dpbounds list algorithms
  dpbounds list models --json
  dpbounds calibrate gaussian --sensitivity 1 --epsilon 0.5 --delta 1e-5
  dpbounds calibrate gaussian --sensitivity 1 --epsilon 2 --delta 1e-5 --analytic
  dpbounds calibrate laplace --sensitivity 1 --epsilon 1
  dpbounds demo --seed 7

Run 'dpbounds VERB --help' for the options of a verb.)";

double number(const std::string& text, const std::string& option) {
  return dpb::core::parse_number(text, option);
}

void print_json(const nlohmann::json& j) { fmt::print("{}\n", j.dump(2)); }

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"dpbounds: differentially private PCA and covariance estimation, checked against the theorems."};
  app.name("dpbounds");
  app.footer(kFooter);
  app.set_version_flag("--version", std::string("dpbounds ") + DPB_VERSION);
  app.require_subcommand(1);

  // list
  auto* list = app.add_subcommand("list", "List algorithms, models or theorems");
  std::string list_kind;
  bool list_json = false;
  list->add_option("kind", list_kind, "algorithms | models | theorems")->required();
  list->add_flag("--json", list_json, "Details as JSON instead of one id per line");

  // calibrate
  auto* calibrate = app.add_subcommand("calibrate", "Noise scale for a mechanism and the exact privacy it achieves");
  calibrate->footer(
      "gaussian: sigma = S sqrt(2 log(1.25/delta)) / eps (classical, needs eps < 1), or with --analytic\n"
      "          the smallest sigma whose exact privacy profile meets delta at eps (Balle & Wang 2018).\n"
      "laplace:  b = S / eps, pure eps-DP (no --delta).");
  std::string mechanism, sensitivity_text, epsilon_text, delta_text;
  bool analytic = false, calibrate_json = false;
  calibrate->add_option("mechanism", mechanism, "gaussian | laplace")->required();
  calibrate->add_option("--sensitivity", sensitivity_text, "Sensitivity S > 0 (l2 for gaussian, l1 for laplace)")
      ->required();
  calibrate->add_option("--epsilon", epsilon_text, "Target epsilon > 0")->required();
  calibrate->add_option("--delta", delta_text, "Target delta in (0, 1) (gaussian only)");
  calibrate->add_flag("--analytic", analytic, "Analytic Gaussian calibration (any eps > 0)");
  calibrate->add_flag("--json", calibrate_json, "Output as JSON");

  // demo
  auto* demo = app.add_subcommand("demo", "A short end-to-end run of data model, PCA and a private PCA");
  dpb::verify::DemoOptions demo_options;
  std::string demo_seed = "1", demo_epsilon = "1", demo_delta = "1e-5";
  demo->add_option("--seed", demo_seed, "Master seed (results are identical for the same seed)");
  demo->add_option("--epsilon", demo_epsilon, "Privacy epsilon > 0");
  demo->add_option("--delta", demo_delta, "Privacy delta in (0, 1)");

  try {
    app.parse(argc, argv);
    if (*list) {
      if (list_json) {
        print_json(dpb::verify::catalog_json(list_kind));
      } else {
        for (const auto& id : dpb::verify::catalog_ids(list_kind)) fmt::print("{}\n", id);
      }
    } else if (*calibrate) {
      const double s = number(sensitivity_text, "--sensitivity"), e = number(epsilon_text, "--epsilon");
      const std::optional<double> d = delta_text.empty() ? std::nullopt : std::optional(number(delta_text, "--delta"));
      dpb::verify::Calibration c;
      if (mechanism == "gaussian") {
        if (!d) throw dpb::InvalidArgument("the Gaussian mechanism needs --delta in (0, 1)");
        c = dpb::verify::calibrate_gaussian(s, e, *d, analytic);
      } else if (mechanism == "laplace") {
        if (analytic) throw dpb::InvalidArgument("--analytic applies to the Gaussian mechanism only");
        c = dpb::verify::calibrate_laplace(s, e, d.value_or(0.0));
      } else {
        throw dpb::InvalidArgument("unknown mechanism '" + mechanism + "': choose gaussian or laplace");
      }
      if (calibrate_json) print_json(dpb::verify::to_json(c));
      else fmt::print("{}", dpb::verify::to_text(c));
    } else if (*demo) {
      demo_options.seed = dpb::verify::parse_seed(demo_seed);
      demo_options.privacy.epsilon = number(demo_epsilon, "--epsilon");
      demo_options.privacy.delta = number(demo_delta, "--delta");
      dpb::verify::run_demo(demo_options, std::cout);
    }
    return 0;
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help, --version
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "dpbounds: error: {} (run 'dpbounds --help')\n", e.what());
    return kUsageError;
  } catch (const dpb::InvalidArgument& e) {
    fmt::print(stderr, "dpbounds: error: {}\n", e.what());
    return kUsageError;
  } catch (const dpb::ConfigError& e) {
    fmt::print(stderr, "dpbounds: error: {}\n", e.what());
    return kUsageError;
  } catch (const std::exception& e) {
    fmt::print(stderr, "dpbounds: internal error: {}\n", e.what());
    return 1;
  }
}
