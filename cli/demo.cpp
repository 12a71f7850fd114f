// `dpbounds demo`: a short end-to-end run of a data model, non-private PCA and a private PCA.
#include <iostream>

#include "cli/verb.hpp"
#include "app/demo.hpp"

namespace dpb::cli::demo_verb {

struct Options {
  std::string seed = "1", epsilon = "1", delta = "1e-5";
};

const bool registered = dpb::cli::register_verb({
    .name = "demo",
    .summary = "A short end-to-end run of data model, PCA and a private PCA",
    .help = "spiked-Gaussian data, non-private PCA, and a private (Analyze-Gauss) PCA\n"
            "with its privacy claim",
    .examples = {"demo --seed 7"},
    .order = 90,
    .setup =
        [](CLI::App& sub) {
          auto o = std::make_shared<Options>();
          sub.add_option("--seed", o->seed, "Master seed (results are identical for the same seed)");
          sub.add_option("--epsilon", o->epsilon, "Privacy epsilon > 0");
          sub.add_option("--delta", o->delta, "Privacy delta in (0, 1)");
          return [o] {
            dpb::app::DemoOptions options;
            options.seed = dpb::app::parse_seed(o->seed);
            options.privacy.epsilon = dpb::cli::number(o->epsilon, "--epsilon");
            options.privacy.delta = dpb::cli::number(o->delta, "--delta");
            dpb::app::run_demo(options, std::cout);
            return 0;
          };
        },
});

}  // namespace dpb::cli::demo_verb
