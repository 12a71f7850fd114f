// `dpbounds pca`: a differentially private PCA of the user's own records, with an honest statement
// of what is protected. The logic lives in app/pca and verify/datasets.
#include <nlohmann/json.hpp>
#include <fmt/core.h>
#include <filesystem>

#include "cli/verb.hpp"
#include "core/errors.hpp"
#include "verify/datasets/records.hpp"
#include "app/demo.hpp"
#include "app/pca/pca_output.hpp"
#include "app/pca/private_pca.hpp"
#include "verify/report/atomic_file.hpp"
#include "verify/report/gnuplot.hpp"

namespace dpb::cli::pca_verb {

namespace fs = std::filesystem;

struct Options {
  std::string input, k = "1", epsilon, delta, algorithm, seed = "1", out = "results/pca", format = "text";
  std::string norm_bound, bounds;
  std::vector<std::string> params;
  bool center = false, standardize = false, accept_model_dependent = false, force = false;
};

std::pair<double, double> value_range(const std::string& text) {
  const auto comma = text.find(',');
  if (comma == std::string::npos)
    throw dpb::InvalidArgument(fmt::format("--bounds takes LO,HI (every value lies in [LO, HI]), got '{}'", text));
  return {dpb::cli::number(text.substr(0, comma), "--bounds LO"), dpb::cli::number(text.substr(comma + 1), "--bounds HI")};
}

// An --out that already holds files is kept unless --force: a second run must not replace a first
// one's results by accident.
void require_writable_out(const fs::path& out, bool force) {
  if (!fs::exists(out)) return;
  if (!fs::is_directory(out))
    throw dpb::InvalidArgument(fmt::format("--out {}: is a file, expected a directory", out.string()));
  if (!force && !fs::is_empty(out))
    throw dpb::InvalidArgument(fmt::format(
        "--out {} already holds files (an earlier result?); choose another --out, or pass --force to replace them",
        out.string()));
}

// Draws pca.png with gnuplot when it is on PATH; the script stays beside it either way.
std::string draw_figure(const fs::path& out, const dpb::app::PcaResult& result) {
  dpb::verify::write_file_atomically(out / "pca-figure.gp", dpb::app::pca_figure_script(result, "pca.png"));
  const auto gnuplot = dpb::verify::find_program("gnuplot");
  if (gnuplot.empty()) return "gnuplot is not on PATH: pca.png not drawn (pca-figure.gp draws it)";
  const auto run = dpb::verify::run_script(gnuplot, "pca-figure.gp", out);
  if (run.exit_code != 0) return fmt::format("gnuplot failed ({}): pca.png not drawn", run.diagnostics);
  return "";
}

int run(const Options& o) {
  if (o.format != "text" && o.format != "json")
    throw dpb::InvalidArgument(fmt::format("--format must be text or json, got '{}'", o.format));
  dpb::app::PcaRequest request;
  request.k = static_cast<int>(dpb::cli::integer(o.k, "--k"));
  request.privacy.epsilon = dpb::cli::number(o.epsilon, "--epsilon");
  request.privacy.delta = dpb::cli::number(o.delta, "--delta");
  request.algorithm = o.algorithm;
  request.params = dpb::cli::assignments(o.params);
  request.preprocessing.center = o.center;
  request.preprocessing.standardize = o.standardize;
  if (!o.norm_bound.empty()) request.preprocessing.bounds.norm_bound = dpb::cli::number(o.norm_bound, "--norm-bound");
  if (!o.bounds.empty()) request.preprocessing.bounds.range = value_range(o.bounds);
  request.accept_model_dependent_privacy = o.accept_model_dependent;
  request.seed = dpb::app::parse_seed(o.seed);
  const fs::path out(o.out);
  require_writable_out(out, o.force);
  auto records = dpb::verify::read_records(o.input);
  request.source = fs::path(o.input).filename().string();
  request.feature_names = std::move(records.names);
  const auto result = dpb::app::private_pca(records.X, request);
  // Everything is computed before anything is written: an error leaves no partial output.
  const std::string text = dpb::app::to_text(result);
  const auto json = dpb::app::to_json(result);
  dpb::verify::write_file_atomically(out / "components.csv", dpb::app::components_csv(result));
  dpb::verify::write_file_atomically(out / "loadings.csv", dpb::app::loadings_csv(result));
  dpb::verify::write_file_atomically(out / "pca.json", json.dump(2) + "\n");
  dpb::verify::write_file_atomically(out / "summary.txt", text);
  const std::string figure = draw_figure(out, result);
  if (o.format == "json") {
    dpb::cli::print_json(json);
  } else {
    fmt::print("{}\nWrote {}/: summary.txt, components.csv, loadings.csv, pca.json{}\n", text, o.out,
               figure.empty() ? ", pca.png" : "");
  }
  if (!figure.empty()) fmt::print(stderr, "note: {}\n", figure);
  return 0;
}

const bool registered = dpb::cli::register_verb({
    .name = "pca",
    .summary = "Differentially private PCA of your own data (CSV, text or .npy)",
    .help = "The principal components of your records, released so that no single record can be told from\n"
            "the output; with what they explain, what is protected, and how accurate they are likely to be",
    .examples = {"pca --input data.csv --k 2 --epsilon 1 --delta 1e-6 --center",
                 "pca --input data.csv --k 3 --epsilon 2 --delta 1e-6 --center --standardize --out results/pca-std",
                 "pca --input data.npy --k 2 --epsilon 1 --delta 1e-7 --bounds -10,10 --center --out results/pca-bounded"},
    .order = 30,
    .setup =
        [](CLI::App& sub) {
          auto o = std::make_shared<Options>();
          sub.footer(
              "Files: .csv (header optional; quoted fields as spreadsheets write them), .npy (float64/float32),\n"
              "anything else whitespace-separated text ('#' lines are comments). One record per row.\n"
              "Budget: the output is (epsilon, delta)-differentially private for any one row replaced. Besides the\n"
              "components, part of the budget pays for what the data would otherwise reveal: a typical record\n"
              "length (15%, unless --norm-bound or --bounds gives it), the average record (10%, with --center),\n"
              "each column's spread (5%) and the explained variance (10%). summary.txt lists every step.\n"
              "Algorithm: default baseline.dp_gauss_1 (noise added to the covariance matrix), private for any\n"
              "data. Others need what only you know in advance; 'dpbounds list algorithms' shows them.");
          sub.add_option("--input", o->input, "Data file: one record per row")->required();
          sub.add_option("--k", o->k, "Number of components (default 1)");
          sub.add_option("--epsilon", o->epsilon, "Total privacy epsilon > 0 (common: 0.1 to 5)")->required();
          sub.add_option("--delta", o->delta, "Total privacy delta in (0, 1), well below 1/rows (e.g. 1e-6)")
              ->required();
          sub.add_flag("--center", o->center, "Subtract the (privately estimated) average record first");
          sub.add_flag("--standardize", o->standardize,
                       "Divide every column by its (privately estimated) spread: for columns in different units");
          sub.add_option("--norm-bound", o->norm_bound,
                         "Public bound R on every record's length (longer records are shortened to R): no budget "
                         "is spent on finding one");
          sub.add_option("--bounds", o->bounds,
                         "LO,HI: every value lies in [LO, HI] (e.g. 0,255 for pixels; values outside are clamped): "
                         "no budget is spent on record lengths");
          sub.add_option("--algorithm", o->algorithm, "A registered private PCA algorithm id");
          sub.add_option("--param", o->params, "Algorithm parameter name=value (repeatable)");
          sub.add_flag("--accept-model-dependent-privacy", o->accept_model_dependent,
                       "Allow an algorithm whose privacy holds only for data from its model (cai2024 Algorithm 1)");
          sub.add_option("--seed", o->seed, "Seed of the noise (the same seed gives the same output)");
          sub.add_option("--out", o->out, "Output directory (default results/pca); kept if it holds files");
          sub.add_flag("--force", o->force, "Replace the files of an earlier result in --out");
          sub.add_option("--format", o->format, "text | json: what is printed (default text)");
          return [o] { return run(*o); };
        },
});

}  // namespace dpb::cli::pca_verb
