// `dpbounds bench`: runs the benchmark suite of bench/ (bench/README.md), the executables of the build.
#include "cli/verb.hpp"

#include <nlohmann/json.hpp>
#include "app/bench_suite.hpp"

namespace dpb::cli::bench_verb {

const bool registered = dpb::cli::register_verb({
    .name = "bench",
    .summary = "Run the benchmarks: time per trial against its floor, samplers against numpy, throughput",
    .help = "runs the build's bench_algorithms, bench_samplers, bench_kernels, bench_throughput and\n"
            "bench_python (Google Benchmark; minutes); figures and how to read them: bench/README.md",
    .examples = {"bench --only throughput", "bench --only kernels",
                 "bench --filter 'dugler2026.tadadpo/n:100000'"},
    .order = 95,
    .setup =
        [](CLI::App& sub) {
          auto options = std::make_shared<dpb::app::BenchOptions>();
          options->dir = dpb::app::default_bench_dir();
          auto out = std::make_shared<std::string>();
          sub.add_option("--dir", options->dir, "Folder of the bench_* executables (default: the build's bench/)");
          sub.add_option("--only", options->only,
                         "Run only these: algorithms | samplers | kernels | throughput | python");
          sub.add_option("--filter", options->filter, "Google Benchmark regex over the benchmark names");
          sub.add_option("--out", *out, "Also write each executable's rows as DIR/bench_<name>.json");
          return [options, out] {
            if (!out->empty()) options->out = *out;
            return dpb::app::run_bench_suite(*options);
          };
        },
});

}  // namespace dpb::cli::bench_verb
