// `dpbounds pca`: a differentially private PCA of the user's own records, with an honest statement
// of what is protected. The logic lives in verify/private_pca and verify/datasets.
#include <fmt/core.h>
#include <filesystem>

#include "cli/verb.hpp"
#include "verify/datasets/records.hpp"
#include "verify/demo.hpp"
#include "verify/private_pca.hpp"
#include "verify/report/atomic_file.hpp"

namespace {

struct Options {
  std::string input, k = "1", epsilon, delta, algorithm, seed = "1", out = "results/pca";
  std::vector<std::string> params;
  bool center = false, accept_model_dependent = false, json = false;
};

int run(const Options& o) {
  dpb::verify::PcaRequest request;
  request.k = static_cast<int>(dpb::cli::integer(o.k, "--k"));
  request.privacy.epsilon = dpb::cli::number(o.epsilon, "--epsilon");
  request.privacy.delta = dpb::cli::number(o.delta, "--delta");
  request.algorithm = o.algorithm;
  request.params = dpb::cli::assignments(o.params);
  request.center = o.center;
  request.accept_model_dependent_privacy = o.accept_model_dependent;
  request.seed = dpb::verify::parse_seed(o.seed);
  const Eigen::MatrixXd X = dpb::verify::read_records(o.input).X;
  const auto result = dpb::verify::private_pca(X, request);
  // Everything is computed before anything is written: an error leaves no partial output.
  const std::filesystem::path out(o.out);
  dpb::verify::write_file_atomically(out / "components.csv", dpb::verify::components_csv(result));
  dpb::verify::write_file_atomically(out / "pca.json", dpb::verify::to_json(result).dump(2) + "\n");
  dpb::verify::write_file_atomically(out / "summary.txt", dpb::verify::to_text(result));
  if (o.json) dpb::cli::print_json(dpb::verify::to_json(result));
  else fmt::print("{}Wrote {}/components.csv, pca.json and summary.txt\n", dpb::verify::to_text(result), o.out);
  return 0;
}

const bool registered = dpb::cli::register_verb({
    .name = "pca",
    .summary = "Differentially private PCA of your own data (CSV, text or .npy)",
    .help = "components, privately estimated explained variance, and a privacy statement\n"
            "with the budget ledger; records are rows of the file",
    .examples = {"pca --input data.csv --k 2 --epsilon 1 --delta 1e-6 --center",
                 "pca --input data.npy --k 1 --epsilon 0.5 --delta 1e-6 --algorithm liu2022.dp_pca --param lambda1=9 "
                 "--param lambda2=1"},
    .order = 30,
    .setup =
        [](CLI::App& sub) {
          auto o = std::make_shared<Options>();
          sub.footer(
              "Formats: .csv (comma-separated, header optional), .npy (float64/float32, C or Fortran order),\n"
              "anything else whitespace-separated text ('#' lines are comments). One record per row.\n"
              "Budget: 10% of (eps, delta) for a private norm scale, 10% for centering (with --center), 10% for\n"
              "the explained variance, the rest for the algorithm; the ledger shows each step.\n"
              "Algorithms: default baseline.dp_gauss_1 (Analyze-Gauss, clipped at the private norm scale),\n"
              "worst-case DP with no knowledge of the population. Others may need what only you know a priori\n"
              "(liu2022.dp_pca: the eigenvalues lambda1, lambda2 behind its learning rate); 'dpbounds list\n"
              "algorithms' shows them and their parameters.");
          sub.add_option("--input", o->input, "Data file: one record per row")->required();
          sub.add_option("--k", o->k, "Number of components (default 1)");
          sub.add_option("--epsilon", o->epsilon, "Total privacy epsilon > 0")->required();
          sub.add_option("--delta", o->delta, "Total privacy delta in (0, 1); e.g. 1e-6, well below 1/n")->required();
          sub.add_option("--algorithm", o->algorithm, "A registered private PCA algorithm id");
          sub.add_option("--param", o->params, "Algorithm parameter name=value (repeatable)");
          sub.add_flag("--center", o->center, "Center the data first, with a private mean paid from the budget");
          sub.add_flag("--accept-model-dependent-privacy", o->accept_model_dependent,
                       "Allow an algorithm whose privacy holds only for data from its model (cai2024 Algorithm 1)");
          sub.add_option("--seed", o->seed, "Seed of the noise (the same seed gives the same output)");
          sub.add_option("--out", o->out, "Output directory (default results/pca)");
          sub.add_flag("--json", o->json, "Print the result as JSON instead of text");
          return [o] { return run(*o); };
        },
});

}  // namespace
