// Registry entries of cai2024 (Cai, Xia, Zha 2024): Algorithm 1 and its companions. Every entry's
// privacy text says that the guarantee holds only under the model (spec: cai2024 A2).
#include <limits>

#include "algorithms/covariance/gaussian_mechanism_pca.hpp"
#include "algorithms/covariance/gaussian_mechanism_private_sigma2.hpp"
#include "algorithms/covariance/private_noise_variance.hpp"
#include "algorithms/covariance/private_rank.hpp"
#include "algorithms/covariance/private_spike.hpp"
#include "algorithms/covariance/spiked_inputs.hpp"
#include "algorithms/registrations.hpp"

namespace dpb::alg {
namespace {

constexpr const char* kSource =
    "Cai, Xia, Zha 2024, Optimal DP PCA and covariance estimation for spiked covariance";

// Every cai2024 entry takes vectors, reads lambda and sigma2 from the oracle unless given, and
// carries the model-assumption privacy text after its own sentence.
AlgorithmEntry entry(std::string id, std::string summary, const std::string& where,
                     std::vector<ParamSpec> params, const std::string& privacy,
                     std::unique_ptr<Estimator> (*factory)(const core::ParamMap&)) {
  AlgorithmEntry e;
  e.id = std::move(id);
  e.summary = std::move(summary);
  e.source = std::string(kSource) + ", " + where;
  e.params = std::move(params);
  e.needs = DataNeed::vectors;
  e.oracle_quantities = {"lambda", "sigma2"};
  e.privacy = privacy + " " + kModelAssumptionPrivacyText;
  e.factory = factory;
  return e;
}

std::string choice_name(bool on) { return on ? "on" : "off"; }

ParamSpec calibration_param() {
  return gaussian_calibration_param(
      kCai2024Calibration,
      "Gaussian-mechanism calibration: classical sqrt(2 log(1.25/delta))/eps per release (the paper's "
      "Lemma 1; needs each release's eps < 1) or analytic (Balle & Wang 2018, any eps; deviates)",
      "cai2024 §8.1 item 2, A20");
}

ParamSpec lambda_param(const char* use) {
  return real_param("lambda", 0.0, 0.0, std::nullopt,
                    std::string("public signal strength lambda (spikes exclude sigma^2) for ") + use +
                        "; 0 = the model's (oracle, simulation only)",
                    "cai2024 A5");
}

ParamSpec sigma2_param(const char* use) {
  return real_param(
      "sigma2", 0.0, 0.0, std::nullopt,
      std::string("public noise variance sigma^2 for ") + use + "; 0 = the model's (oracle, simulation only)",
      "cai2024 A5");
}

ParamSpec C3_param() {
  return real_param(
      "C3", GaussianMechanismParams{}.C3, 1e-12, std::nullopt,
      "constant of Delta2 = C3 (lambda (r + log n) + sigma^2 (p + log n))/n; Monte-Carlo calibrated default",
      "cai2024 §2.3, A1");
}

// Algorithm 1's constants, shared by the known-sigma^2 and private-sigma^2 entries.
std::vector<ParamSpec> algorithm_one_params(const char* sigma2_use) {
  const GaussianMechanismParams g;
  return {
      real_param("C2", g.C2, 1e-12, std::nullopt,
                 "constant of Delta1 = C2 (sigma^2/lambda + sqrt(sigma^2/lambda)) sqrt(p (r + C5 log n))/n; "
                 "Monte-Carlo calibrated default (use C2 = 3 with C5 = 4)",
                 "cai2024 §2.3, A1"),
      C3_param(),
      real_param("C5", g.C5, 1e-12, std::nullopt,
                 "log-n multiplier inside Delta1's r + C5 log n; the paper's simulations use 4",
                 "cai2024 §6.1, §8.1 item 1"),
      real_param("Delta1", g.Delta1, 0.0, std::nullopt,
                 "sensitivity of Uhat Uhat^T given directly (> 0); 0 = the formula", "cai2024 §8.1 item 1"),
      real_param("Delta2", g.Delta2, 0.0, std::nullopt,
                 "sensitivity of Util^T Shat Util given directly (> 0); 0 = the formula",
                 "cai2024 §8.1 item 1"),
      lambda_param("Delta1, Delta2"),
      sigma2_param(sigma2_use),
      choice_param(
          "selection", "algebraic", {"algebraic", "absolute"},
          "SVD_r of the indefinite Uhat Uhat^T + Z: the r largest algebraic eigenvalues (recommended) or "
          "the r "
          "largest |eigenvalues| (the literal SVD); identical when ||Z|| < 1/2",
          "cai2024 A9, §8.1 item 3"),
      choice_param("psd_projection", choice_name(g.psd_projection), {"off", "on"},
                   "project Sigmatil onto the PSD cone (post-processing; the paper has none)",
                   "cai2024 §2.2, §8.1 item 5"),
      calibration_param(),
  };
}

AlgorithmEntry gaussian_mechanism_entry() {
  auto params = algorithm_one_params("Delta1, Delta2 and steps 3-4");
  params.push_back(
      real_param("pca_share", GaussianMechanismParams{}.pca_share, 1e-6, 1 - 1e-6,
                 "share of (eps, delta) spent on Util (step 2); the rest goes to Lamtil (step 3). The paper: "
                 "halves",
                 "cai2024 §2.2, §8.1 item 2"));
  return entry(
      "cai2024.gaussian_mechanism",
      "Gaussian mechanism: on the spectral projector and the projected covariance (DP PCA + covariance)",
      "Algorithm 1 (Lemmas 2-4, Thms 3.1, 3.2)", std::move(params),
      "(eps, delta)-DP for replace-one neighbours: (eps/2, delta/2) for Util and for Lamtil, Sigmatil by "
      "composition and post-processing.",
      make_gaussian_mechanism_pca);
}

// The §5.3 module's constants, shared by the standalone and composite entries.
std::vector<ParamSpec> noise_variance_params() {
  const NoiseVarianceParams v;
  return {
      real_param(
          "C4", v.C4, 1e-12, std::nullopt,
          "constant of Delta3 = (C4/sqrt(p∧n)) (lambda (r + log n) + sigma^2 (p + log n))/n (unspecified by "
          "the "
          "paper; default from the Cauchy–Schwarz proof with C3 = 3)",
          "cai2024 §2.4, Thm 5.1"),
      choice_param(
          "index_shift", "none", {"none", "rank"},
          "eigenvalue paired with q_k: lambda_k as printed (none) or lambda_{k+r} (eigenvalue sticking)",
          "cai2024 A10"),
      choice_param("bulk_range", "inner", {"inner", "outer"},
                   "rounding of K = {(p∧n)/4 <= k <= 3(p∧n)/4}: ceil/floor (inner) or floor/ceil (outer)",
                   "cai2024 A10"),
      real_param("quadrature_tolerance", v.quadrature_tolerance, 1e-15, 1e-3,
                 "relative tolerance of the Gauss–Kronrod quadrature behind the Marchenko–Pastur quantiles",
                 "cai2024 §2.4, §8.1 item 6"),
  };
}

AlgorithmEntry private_sigma2_entry() {
  auto params = algorithm_one_params("Delta3 only (circular); steps 2-4 use the private estimate");
  for (auto& spec : noise_variance_params()) params.push_back(std::move(spec));
  params.push_back(
      real_param("sigma2_inflation", PrivateSigma2Params{}.sigma2_inflation, 1.0, std::nullopt,
                 "Delta1 and Delta2 use sigma2_inflation * sigmatil^2 (e.g. 10/9 for safety; 1 = the paper)",
                 "cai2024 §2.4"));
  params.push_back(choice_param(
      "budget_split", "thirds", {"thirds", "faithful"},
      "thirds: (eps/3, delta/3) each for sigmatil^2, Util, Lamtil (total (eps, delta)); faithful: "
      "Algorithm 1 literally at (eps/3, delta/3), total (2 eps/3, 2 delta/3)",
      "cai2024 A6"));
  return entry(
      "cai2024.gaussian_mechanism_private_sigma2",
      "Gaussian mechanism, private sigma^2: Algorithm 1 with the nuisance variance sigma^2 estimated privately (budget in thirds)",
      "§5.3 (Thm 5.2: Algorithm 1 with private sigma^2)", std::move(params),
      "(eps, delta)-DP for replace-one neighbours, budget in thirds: (eps/3, delta/3) each for sigmatil^2, "
      "Util and Lamtil (spec A6).",
      make_gaussian_mechanism_private_sigma2);
}

AlgorithmEntry private_noise_variance_entry() {
  auto params = noise_variance_params();
  params.push_back(lambda_param("Delta3"));
  params.push_back(sigma2_param("Delta3 (circular)"));
  params.push_back(calibration_param());
  return entry(
      "cai2024.private_noise_variance",
      "Private noise variance: the nuisance variance sigma^2 from the bulk eigenvalues fitted to Marchenko–Pastur quantiles",
      "§5.3 (estimator after Ke et al. 2023; Thm 5.1)", std::move(params),
      "(eps, delta)-DP for replace-one neighbours at the budget it is given (the paper runs it at "
      "(eps/3, delta/3)).",
      make_private_noise_variance);
}

AlgorithmEntry private_rank_entry() {
  return entry(
      "cai2024.private_rank",
      "Private rank: the argmax of noisy eigen-ratios lambda_k / lambda_{k+1}, k <= R", "§7.1",
      {{"R",
        ParamType::integer,
        static_cast<double>(PrivateRankParams{}.R),
        1.0,
        std::nullopt,
        {},
        "postulated upper bound on the rank; 1 <= R <= min(n, p - 1); Delta2 uses R in place of r",
        "cai2024 §2.5, A7"},
       C3_param(),
       lambda_param("Delta2"),
       sigma2_param("Delta2"),
       calibration_param()},
      "(eps, delta)-DP for replace-one neighbours at the budget it is given (the paper's noise is this at "
      "(eps/2, delta/2)).",
      make_private_rank);
}

AlgorithmEntry private_spike_entry() {
  return entry(
      "cai2024.private_spike",
      "Private spike: the signal strength lambda, mean of the r noisy top eigenvalues minus sigma^2",
      "§7.2 (formula: the spec's recommendation, A8)",
      {C3_param(),
       real_param(
           "lambda_bound", PrivateSpikeParams{}.lambda_bound, 0.0, std::nullopt,
           "public upper bound on lambda for Delta2 (circular otherwise); 0 = the model's lambda (oracle)",
           "cai2024 §2.6, A5"),
       sigma2_param("Delta2 and the subtraction"),
       choice_param("subtract_sigma2", choice_name(PrivateSpikeParams{}.subtract_sigma2), {"on", "off"},
                    "subtract sigma^2 from the mean (on) or not (off: the MNIST section's literal average)",
                    "cai2024 A8"),
       calibration_param()},
      "(eps, delta)-DP for replace-one neighbours at the budget it is given (the paper leaves the budget "
      "unspecified).",
      make_private_spike);
}

}  // namespace

void register_cai2024(Registry& registry) {
  registry.add(gaussian_mechanism_entry());
  registry.add(private_sigma2_entry());
  registry.add(private_noise_variance_entry());
  registry.add(private_rank_entry());
  registry.add(private_spike_entry());
}

}  // namespace dpb::alg
