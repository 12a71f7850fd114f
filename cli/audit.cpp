// `dpbounds audit ALGORITHM`: an empirical lower bound on an algorithm's privacy loss, checked
// against its claim (DESIGN.md §5 "Privacy audit", docs/auditing.md).
#include <nlohmann/json.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cli/verb.hpp"
#include "verify/audit/audit_report.hpp"
#include "verify/audit/auditor.hpp"
#include "verify/audit/scores.hpp"
#include "app/demo.hpp"

namespace dpb::cli::audit_verb {

struct Options {
  std::string algorithm, model = "spiked_gaussian", epsilon = "1", delta = "1e-5", n = "200", d = "10",
                         k, trials, seconds = "60", neighbours = "canary", score, confidence = "0.95",
                         seed = "1", canary_scale = "30", index = "0", search_trials = "500";
  std::vector<std::string> params, model_params;
  bool json = false, per_entry = false;
};

int run(const Options& o) {
  using dpb::cli::integer;
  using dpb::cli::number;
  dpb::verify::AuditSpec spec;
  spec.algorithm = o.algorithm;
  spec.params = dpb::cli::assignments(o.params);
  spec.model = o.model;
  spec.model_params = dpb::cli::assignments(o.model_params);
  spec.privacy.epsilon = number(o.epsilon, "--epsilon");
  spec.privacy.delta = number(o.delta, "--delta");
  spec.n = integer(o.n, "--n");
  spec.d = static_cast<int>(integer(o.d, "--d"));
  if (!o.k.empty()) spec.k = static_cast<int>(integer(o.k, "--k"));
  // Without --trials the runs adapt: 1000 per side, growing while the time budget allows.
  if (o.trials.empty())
    spec.seconds = number(o.seconds, "--seconds");
  else
    spec.trials = integer(o.trials, "--trials");
  spec.max_trials = std::max(spec.max_trials, spec.trials);
  spec.neighbours = dpb::verify::parse_neighbour_kind(o.neighbours);
  spec.search_trials = integer(o.search_trials, "--search-trials");
  spec.per_entry = o.per_entry;
  spec.score = o.score;
  spec.confidence = number(o.confidence, "--confidence");
  spec.seed = dpb::app::parse_seed(o.seed);
  spec.canary_scale = number(o.canary_scale, "--canary-scale");
  spec.index = integer(o.index, "--index");
  const auto result = dpb::verify::run_audit(spec);
  if (o.json)
    dpb::cli::print_json(dpb::verify::to_json(result));
  else
    fmt::print("{}", dpb::verify::to_text(result));
  return 0;
}

std::string score_names() {
  std::string names;
  for (const auto& s : dpb::verify::score_registry()) names += "  " + s.name + ": " + s.doc + "\n";
  return names;
}

const bool registered = dpb::cli::register_verb({
    .name = "audit",
    .summary = "Empirical lower bound on an algorithm's privacy loss, checked against its claim",
    .help = "runs the algorithm many times on two neighbouring datasets and bounds eps from below\n"
            "(Clopper-Pearson on a held-out split, and a Gaussian-DP fit); VIOLATION if it exceeds the claim",
    .examples = {"audit baseline.dp_gauss_1 --epsilon 1 --delta 1e-5 --n 200 --d 5",
                 "audit baseline.dp_gauss_1 --epsilon 1 --delta 1e-5 --n 100 --d 5 --trials 2000",
                 "audit cai2024.gaussian_mechanism --neighbours fresh --epsilon 0.9 --n 400 --trials 400",
                 "audit baseline.laplace_mean --epsilon 1 --delta 0 --n 200 --d 5 --seconds 10",
                 "audit mutant.private_oja_noise_x07 --epsilon 1 --delta 0.05 --n 50 --d 3 --trials 4000",
                 "audit baseline.dp_gauss_1 --neighbours search --epsilon 1 --delta 0.05 --n 50 --d 3 --trials 20000",
                 "audit baseline.noisy_power_method --per-entry --epsilon 1 --delta 0.05 --n 50 --d 3 --trials 4000"},
    .order = 60,
    .spreads_over_ranks = true,
    .setup =
        [](CLI::App& sub) {
          auto o = std::make_shared<Options>();
          sub.footer(
              "Neighbours (replace-one at --index): canary = the algorithm's worst case from its spec;\n"
              "fresh = a fresh draw from the model (cai2024's claims are made for these); huge_norm,\n"
              "sign_flip, axis_flip, corner, orthogonal_axes = the generic canaries; log_ladder = records on a\n"
              "geometric ladder, for histograms over log bins; opposed_at_start = two records nearly\n"
              "opposed, read at a start the audit fixes (the Oja family, white-box); search = the best of\n"
              "all of these at four canary scales, on model and flat data, and every score, by pilot runs\n"
              "(--search-trials per side each) on streams the audit does not reuse. Scores (default: from\n"
              "what the output holds):\n" +
              score_names() + "See docs/auditing.md for what the numbers mean and what they cannot show.");
          sub.add_option("algorithm", o->algorithm, "Registry id (dpbounds list algorithms)")->required();
          sub.add_option("--param", o->params, "Algorithm parameter name=value (repeatable)");
          sub.add_option("--model", o->model, "Data model of D (dpbounds list models)");
          sub.add_option("--model-param", o->model_params, "Model parameter name=value (repeatable)");
          sub.add_option("--epsilon", o->epsilon, "Privacy epsilon > 0 given to the algorithm");
          sub.add_option("--delta", o->delta, "Privacy delta in [0, 1) given to the algorithm");
          sub.add_option("--n", o->n, "Records per dataset (>= 2)");
          sub.add_option("--d", o->d, "Dimension (>= 1)");
          sub.add_option("--k", o->k,
                         "Subspace dimension, 1..d (default 1, or d where the canary worst case releases every "
                         "eigenpair: baseline.dp_gauss_1, baseline.dp_gauss, baseline.noisy_power_method)");
          sub.add_option("--trials", o->trials,
                         "Mechanism runs on each of D and D' (>= 20); without it, 1000 growing while --seconds "
                         "allows");
          sub.add_option("--seconds", o->seconds,
                         "Time budget of the adaptive runs (default 60); the runs done are reported, and "
                         "--trials with that number reproduces the audit");
          sub.add_option("--neighbours", o->neighbours, dpb::verify::neighbour_kind_names(" | "));
          sub.add_option("--search-trials", o->search_trials,
                         "With --neighbours search: pilot runs per side on each candidate pair (>= 20)");
          sub.add_option("--score", o->score, "Score name (see below)");
          sub.add_option("--confidence", o->confidence, "Confidence of the lower bound, in (0, 1)");
          sub.add_option("--seed", o->seed, "Master seed (the audit depends only on it)");
          sub.add_option("--canary-scale", o->canary_scale, "Canary norm over the typical record norm (> 0)");
          sub.add_option("--index", o->index, "The replaced record, 0..n-1");
          sub.add_flag("--per-entry", o->per_entry,
                       "White-box: also audit each Gaussian or Laplace ledger entry's releases on their own "
                       "against the cost the accountant charges it");
          sub.add_flag("--json", o->json, "Output as JSON");
          return [o] { return run(*o); };
        },
});

}  // namespace dpb::cli::audit_verb
