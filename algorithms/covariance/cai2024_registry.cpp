// Registry entries of cai2024 (Cai, Xia, Zha 2024): Algorithm 1 and its companions. Every entry's
// privacy text says that the guarantee holds only under the model (spec: cai2024 A2).
#include "algorithms/covariance/gaussian_mechanism_pca.hpp"
#include "algorithms/covariance/gaussian_mechanism_private_sigma2.hpp"
#include "algorithms/covariance/private_noise_variance.hpp"
#include "algorithms/covariance/private_rank.hpp"
#include "algorithms/covariance/private_spike.hpp"
#include "algorithms/covariance/spiked_inputs.hpp"
#include "algorithms/calibration_param.hpp"
#include "algorithms/param_fields.hpp"
#include "algorithms/registrations.hpp"

namespace dpb::alg {
namespace {

constexpr const char* kSource =
    "Cai, Xia, Zha 2024, Optimal DP PCA and covariance estimation for spiked covariance";

// Every cai2024 entry takes vectors, reads lambda and sigma2 from the oracle unless given, and
// carries the model-assumption privacy text after its own sentence; `make` builds its estimator from the
// parameters `fields` reads.
template <class Params>
AlgorithmEntry entry(std::string id, std::string summary, const std::string& where, FieldTable<Params> fields,
                     const std::string& privacy, std::unique_ptr<Estimator> (*make)(Params)) {
  return with_parameters({.id = std::move(id),
                          .summary = std::move(summary),
                          .source = std::string(kSource) + ", " + where,
                          .needs = DataNeed::vectors,
                          .oracle_quantities = {"lambda", "sigma2"},
                          .privacy = privacy + " " + kModelAssumptionPrivacyText},
                         std::move(fields), make);
}

template <class P>
FieldTable<P>& calibration(FieldTable<P>& t, GaussianCalibration P::*member) {
  return calibration_field(
      t, member,
      "Gaussian-mechanism calibration: classical sqrt(2 log(1.25/delta))/eps per release (the paper's Lemma 1; "
      "needs each release's eps < 1) or analytic (Balle & Wang 2018, any eps; deviates)",
      "cai2024 §8.1 item 2, A20");
}

template <class P>
FieldTable<P>& lambda_field(FieldTable<P>& t, double P::*member, const std::string& use) {
  return t.real("lambda", member, 0.0, std::nullopt,
                "public signal strength lambda (spikes exclude sigma^2) for " + use +
                    "; 0 = the model's (oracle, simulation only)",
                "cai2024 A5");
}

template <class P>
FieldTable<P>& sigma2_field(FieldTable<P>& t, double P::*member, const std::string& use) {
  return t.real("sigma2", member, 0.0, std::nullopt,
                "public noise variance sigma^2 for " + use + "; 0 = the model's (oracle, simulation only)",
                "cai2024 A5");
}

template <class P>
FieldTable<P>& c3_field(FieldTable<P>& t, double P::*member) {
  return t.real("C3", member, 1e-12, std::nullopt,
                "constant of Delta2 = C3 (lambda (r + log n) + sigma^2 (p + log n))/n; Monte-Carlo calibrated default",
                "cai2024 §2.3, A1");
}

// Algorithm 1's constants, shared by the known-sigma^2 and private-sigma^2 entries.
FieldTable<GaussianMechanismParams> algorithm_one_fields(const std::string& sigma2_use) {
  using P = GaussianMechanismParams;
  FieldTable<P> t;
  t.real("C2", &P::C2, 1e-12, std::nullopt,
         "constant of Delta1 = C2 (sigma^2/lambda + sqrt(sigma^2/lambda)) sqrt(p (r + C5 log n))/n; Monte-Carlo "
         "calibrated default (use C2 = 3 with C5 = 4)",
         "cai2024 §2.3, A1");
  c3_field(t, &P::C3)
      .real("C5", &P::C5, 1e-12, std::nullopt, "log-n multiplier inside Delta1's r + C5 log n; the paper's simulations use 4",
            "cai2024 §6.1, §8.1 item 1")
      .real("Delta1", &P::Delta1, 0.0, std::nullopt, "sensitivity of Uhat Uhat^T given directly (> 0); 0 = the formula",
            "cai2024 §8.1 item 1")
      .real("Delta2", &P::Delta2, 0.0, std::nullopt,
            "sensitivity of Util^T Shat Util given directly (> 0); 0 = the formula", "cai2024 §8.1 item 1");
  lambda_field(t, &P::lambda, "Delta1, Delta2");
  sigma2_field(t, &P::sigma2, sigma2_use)
      .choice("selection", &P::selection,
              {{"algebraic", core::EigenOrder::algebraic}, {"absolute", core::EigenOrder::absolute}},
              "SVD_r of the indefinite Uhat Uhat^T + Z: the r largest algebraic eigenvalues (recommended) or the r "
              "largest |eigenvalues| (the literal SVD); identical when ||Z|| < 1/2",
              "cai2024 A9, §8.1 item 3")
      .choice("psd_projection", &P::psd_projection, {{"off", false}, {"on", true}},
              "project Sigmatil onto the PSD cone (post-processing; the paper has none)", "cai2024 §2.2, §8.1 item 5");
  return calibration(t, &P::calibration);
}

AlgorithmEntry gaussian_mechanism_entry() {
  auto fields = algorithm_one_fields("Delta1, Delta2 and steps 3-4");
  fields.real("pca_share", &GaussianMechanismParams::pca_share, 1e-6, 1 - 1e-6,
              "share of (eps, delta) spent on Util (step 2); the rest goes to Lamtil (step 3). The paper: halves",
              "cai2024 §2.2, §8.1 item 2");
  return entry(
      "cai2024.gaussian_mechanism",
      "Gaussian mechanism: on the spectral projector and the projected covariance (DP PCA + covariance)",
      "Algorithm 1 (Lemmas 2-4, Thms 3.1, 3.2)", std::move(fields),
      "(eps, delta)-DP for replace-one neighbours: (eps/2, delta/2) for Util and for Lamtil, Sigmatil by "
      "composition and post-processing.",
      make_gaussian_mechanism_pca);
}

// The §5.3 module's constants, shared by the standalone and composite entries.
FieldTable<NoiseVarianceParams> noise_variance_fields() {
  using P = NoiseVarianceParams;
  FieldTable<P> t;
  t.real("C4", &P::C4, 1e-12, std::nullopt,
         "constant of Delta3 = (C4/sqrt(p∧n)) (lambda (r + log n) + sigma^2 (p + log n))/n (unspecified by the "
         "paper; default from the Cauchy–Schwarz proof with C3 = 3)",
         "cai2024 §2.4, Thm 5.1")
      .choice("index_shift", &P::shift_by_rank, {{"none", false}, {"rank", true}},
              "eigenvalue paired with q_k: lambda_k as printed (none) or lambda_{k+r} (eigenvalue sticking)",
              "cai2024 A10")
      .choice("bulk_range", &P::range, {{"inner", BulkRange::inner}, {"outer", BulkRange::outer}},
              "rounding of K = {(p∧n)/4 <= k <= 3(p∧n)/4}: ceil/floor (inner) or floor/ceil (outer)", "cai2024 A10")
      .real("quadrature_tolerance", &P::quadrature_tolerance, 1e-15, 1e-3,
            "relative tolerance of the Gauss–Kronrod quadrature behind the Marchenko–Pastur quantiles",
            "cai2024 §2.4, §8.1 item 6");
  return t;
}

AlgorithmEntry private_sigma2_entry() {
  using P = PrivateSigma2Params;
  FieldTable<P> fields;
  fields.nest(&P::mechanism, algorithm_one_fields("Delta3 only (circular); steps 2-4 use the private estimate"))
      .nest(&P::variance, noise_variance_fields())
      .real("sigma2_inflation", &P::sigma2_inflation, 1.0, std::nullopt,
            "Delta1 and Delta2 use sigma2_inflation * sigmatil^2 (e.g. 10/9 for safety; 1 = the paper)", "cai2024 §2.4")
      .choice("budget_split", &P::faithful_split, {{"thirds", false}, {"faithful", true}},
              "thirds: (eps/3, delta/3) each for sigmatil^2, Util, Lamtil (total (eps, delta)); faithful: Algorithm "
              "1 literally at (eps/3, delta/3), total (2 eps/3, 2 delta/3)",
              "cai2024 A6");
  return entry(
      "cai2024.gaussian_mechanism_private_sigma2",
      "Gaussian mechanism, private sigma^2: Algorithm 1 with the nuisance variance sigma^2 estimated privately (budget in thirds)",
      "§5.3 (Thm 5.2: Algorithm 1 with private sigma^2)", std::move(fields),
      "(eps, delta)-DP for replace-one neighbours, budget in thirds: (eps/3, delta/3) each for sigmatil^2, "
      "Util and Lamtil (spec A6).",
      make_gaussian_mechanism_private_sigma2);
}

AlgorithmEntry private_noise_variance_entry() {
  using P = NoiseVarianceParams;
  FieldTable<P> fields = noise_variance_fields();
  lambda_field(fields, &P::lambda, "Delta3");
  sigma2_field(fields, &P::sigma2, "Delta3 (circular)");
  calibration(fields, &P::calibration);
  return entry(
      "cai2024.private_noise_variance",
      "Private noise variance: the nuisance variance sigma^2 from the bulk eigenvalues fitted to Marchenko–Pastur quantiles",
      "§5.3 (estimator after Ke et al. 2023; Thm 5.1)", std::move(fields),
      "(eps, delta)-DP for replace-one neighbours at the budget it is given (the paper runs it at "
      "(eps/3, delta/3)).",
      make_private_noise_variance);
}

AlgorithmEntry private_rank_entry() {
  using P = PrivateRankParams;
  FieldTable<P> fields;
  fields.integer("R", &P::R, 1.0, "postulated upper bound on the rank; 1 <= R <= min(n, p - 1); Delta2 uses R in place of r",
                 "cai2024 §2.5, A7");
  c3_field(fields, &P::C3);
  lambda_field(fields, &P::lambda, "Delta2");
  sigma2_field(fields, &P::sigma2, "Delta2");
  calibration(fields, &P::calibration);
  return entry(
      "cai2024.private_rank",
      "Private rank: the argmax of noisy eigen-ratios lambda_k / lambda_{k+1}, k <= R", "§7.1", std::move(fields),
      "(eps, delta)-DP for replace-one neighbours at the budget it is given (the paper's noise is this at "
      "(eps/2, delta/2)).",
      make_private_rank);
}

AlgorithmEntry private_spike_entry() {
  using P = PrivateSpikeParams;
  FieldTable<P> fields;
  c3_field(fields, &P::C3)
      .real("lambda_bound", &P::lambda_bound, 0.0, std::nullopt,
            "public upper bound on lambda for Delta2 (circular otherwise); 0 = the model's lambda (oracle)",
            "cai2024 §2.6, A5");
  sigma2_field(fields, &P::sigma2, "Delta2 and the subtraction")
      .choice("subtract_sigma2", &P::subtract_sigma2, {{"on", true}, {"off", false}},
              "subtract sigma^2 from the mean (on) or not (off: the MNIST section's literal average)", "cai2024 A8");
  calibration(fields, &P::calibration);
  return entry(
      "cai2024.private_spike",
      "Private spike: the signal strength lambda, mean of the r noisy top eigenvalues minus sigma^2",
      "§7.2 (formula: the spec's recommendation, A8)", std::move(fields),
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
