#include "verify/audit/auditor.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <omp.h>
#include <utility>

#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/mechanisms/laplace.hpp"
#include "verify/runner/runner.hpp"
#include "core/errors.hpp"

using namespace dpb::verify;

namespace {

constexpr double kClip = 0.5;  // each record contributes clamp(x_0, -1/2, 1/2)

// How the test mechanism sets its Laplace scale b.
enum class Calibration {
  replace_one,   // b = 1/eps: the clamped sum's replace-one sensitivity is 1, so eps-DP as claimed
  eps_as_scale,  // b = eps: the classic slip, (1/eps^2)-DP, far above the claim when eps < 1
  add_remove,    // b = 1/(2 eps): add/remove sensitivity 1/2, claimed for add/remove neighbours
};

// Releases sum_j clamp(x_0j, -1/2, 1/2) + Lap(b), claiming eps-DP.
class ClampedSumLaplace : public dpb::alg::Estimator {
 public:
  explicit ClampedSumLaplace(Calibration calibration) : calibration_(calibration) {}
  dpb::alg::Estimate run(const dpb::alg::Input& in, dpb::core::Rng& rng) const override {
    double sum = 0;
    for (Eigen::Index j = 0; j < in.X->cols(); ++j) sum += std::clamp((*in.X)(0, j), -kClip, kClip);
    const double eps = in.privacy.epsilon;
    const double b = calibration_ == Calibration::eps_as_scale ? eps
                     : calibration_ == Calibration::add_remove ? dpb::alg::laplace_scale(kClip, eps)
                                                               : dpb::alg::laplace_scale(2 * kClip, eps);
    dpb::alg::Estimate e;
    e.claim = claim(in);
    // Sensitivity under the claimed neighbours: 1 replacing a record, 1/2 adding or removing one.
    const double sensitivity = calibration_ == Calibration::add_remove ? kClip : 2 * kClip;
    const dpb::alg::Privacy budget{eps, 0.0, e.claim.neighbours};
    e.scalar = dpb::alg::laplace_mechanism(sum, dpb::alg::laplace_entry("clamped sum", sensitivity, b, budget),
                                           e.ledger, rng);
    return e;
  }
  dpb::alg::PrivacyClaim claim(const dpb::alg::Input& in) const override {
    const auto neighbours = calibration_ == Calibration::add_remove ? dpb::alg::Neighbours::add_remove
                                                                    : dpb::alg::Neighbours::replace;
    return {in.privacy.epsilon, 0.0, neighbours, dpb::alg::ClaimScope::worst_case, {}};
  }

 private:
  Calibration calibration_;
};

dpb::alg::Registry laplace_registry() {
  dpb::alg::Registry registry;
  const std::pair<const char*, Calibration> variants[] = {
      {"test.laplace", Calibration::replace_one},
      {"test.laplace_broken", Calibration::eps_as_scale},
      {"test.laplace_add_remove", Calibration::add_remove}};
  for (const auto& [id, calibration] : variants) {
    dpb::alg::AlgorithmEntry e;
    e.id = id;
    e.summary = "clamped sum + Laplace noise";
    // The broken variant is a mutant: the registry would refuse its overspending runs otherwise.
    e.mutant = calibration == Calibration::eps_as_scale;
    if (e.mutant) e.breaks = "test.laplace";
    e.factory = [calibration](const dpb::core::ParamMap&) {
      return std::make_unique<ClampedSumLaplace>(calibration);
    };
    registry.add(std::move(e));
  }
  return registry;
}

// Corner neighbours put the replaced record at opposite corners, beyond the clamp in every coordinate:
// the clamped sums differ by exactly the sensitivity 1, so the audit sees the mechanism's worst case.
AuditSpec laplace_spec(const std::string& id, std::uint64_t seed) {
  AuditSpec s;
  s.algorithm = id;
  s.privacy = {0.5, 0.0};
  s.n = 10;
  s.d = 2;
  s.trials = 2000;
  s.neighbours = NeighbourKind::corner;
  s.score = "scalar";
  s.seed = seed;
  s.confidence = 0.99;
  return s;
}

// Releases sum_j clamp(x_0j, -1/2, 1/2) + N(0, sd^2), sd = noise_factor times the analytic Gaussian sd for
// sensitivity 1 at the budget; claims (eps, delta). With noise_factor < 1 it is a mutant of test.gaussian:
// its ledger records the noise it really adds, and so spends more than it claims.
class ClampedSumGaussian : public dpb::alg::Estimator {
 public:
  explicit ClampedSumGaussian(double noise_factor) : noise_factor_(noise_factor) {}
  dpb::alg::Estimate run(const dpb::alg::Input& in, dpb::core::Rng& rng) const override {
    double sum = 0;
    for (Eigen::Index j = 0; j < in.X->cols(); ++j) sum += std::clamp((*in.X)(0, j), -kClip, kClip);
    const double sd =
        noise_factor_ * dpb::alg::analytic_gaussian_sigma(2 * kClip, in.privacy.epsilon, in.privacy.delta);
    dpb::alg::Estimate e;
    e.claim = claim(in);
    Eigen::VectorXd value(1);
    value(0) = sum;
    dpb::alg::gaussian_mechanism(value, dpb::alg::gaussian_entry("clamped sum", 2 * kClip, sd, in.privacy),
                                 e.ledger, rng);
    e.scalar = value(0);
    return e;
  }
  dpb::alg::PrivacyClaim claim(const dpb::alg::Input& in) const override {
    return {in.privacy.epsilon, in.privacy.delta, dpb::alg::Neighbours::replace,
            dpb::alg::ClaimScope::worst_case, {}};
  }

 private:
  double noise_factor_;
};

dpb::alg::Registry gaussian_registry() {
  dpb::alg::Registry registry;
  for (const auto& [id, factor] : {std::pair<const char*, double>{"test.gaussian", 1.0}, {"test.gaussian_x07", 0.7}}) {
    dpb::alg::AlgorithmEntry e;
    e.id = id;
    e.summary = "clamped sum + Gaussian noise";
    e.needs = dpb::alg::DataNeed::vectors;
    e.mutant = factor < 1;
    if (e.mutant) e.breaks = "test.gaussian";
    e.factory = [factor = factor](const dpb::core::ParamMap&) { return std::make_unique<ClampedSumGaussian>(factor); };
    registry.add(std::move(e));
  }
  return registry;
}

AuditSpec gaussian_spec(const std::string& id, std::uint64_t seed) {
  AuditSpec s = laplace_spec(id, seed);
  s.privacy = {1.0, 1e-5};
  s.trials = 20000;
  s.confidence = 0.95;
  return s;
}

}  // namespace

TEST_CASE("the Gaussian-DP fit joins the verdict where every ledger entry is Gaussian, never elsewhere",
          "[audit]") {
  // Issue 18. Noise x0.7 makes the (1, 1e-5) Gaussian mechanism mu = 0.34-GDP, eps(1e-5) about 1.5.
  // With 1e4 held-out runs per side the fit's mu_lower is within about 0.06 of it (eps > 1.2), while the
  // tail tests Clopper-Pearson needs at delta = 1e-5 hold too few runs to exceed 1: the fit catches it.
  const auto registry = gaussian_registry();
  const AuditResult broken = run_audit(gaussian_spec("test.gaussian_x07", 1), registry);
  CHECK(broken.gaussian_ledger);
  CHECK(broken.verdict == AuditVerdict::violation);
  CHECK(broken.bound() == "Gaussian-DP fit");
  CHECK(broken.epsilon_lower() == broken.loss.gdp_epsilon_lower);
  CHECK(broken.loss.epsilon_lower <= 1.0);  // Clopper-Pearson alone would have passed it
  // The honest mechanism passes: the fit exceeds its true eps = 1 only when a Clopper-Pearson bound fails
  // (probability <= 5% per seed); these five seeds hold.
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    INFO("seed " << seed);
    const AuditResult ok = run_audit(gaussian_spec("test.gaussian", seed), registry);
    CHECK(ok.verdict == AuditVerdict::pass);
    CHECK(ok.epsilon_lower() <= 1.0);
    CHECK(ok.tightness() == Approx(ok.epsilon_lower()));
  }
  // A Laplace ledger: the fit is reported, never used.
  const AuditResult laplace = run_audit(laplace_spec("test.laplace_broken", 1), laplace_registry());
  CHECK_FALSE(laplace.gaussian_ledger);
  CHECK(laplace.bound() == "Clopper-Pearson");
  CHECK(laplace.epsilon_lower() == laplace.loss.epsilon_lower);
}

TEST_CASE("plain Gaussian and Laplace mechanisms are audited to >= 0.8 of their eps", "[audit][slow]") {
  // Issue 18's acceptance for the plain mechanisms, on corner neighbours that attain the sensitivity (the
  // CLI's adaptive default runs far more in its 60 s). Gaussian (1, 1e-5), 2e5 runs per side: each rate
  // of the fit's mid-range test is bounded to ~2.5 sqrt(p(1-p)/m)/phi ~ 0.01 in probit units at m = 1e5
  // held-out runs, so mu_lower ~ 0.235 - 0.02 and eps_lb ~0.9 (at 2e4 runs it was 0.60). Laplace eps =
  // 0.5, 2e4 runs per side: the event {score >= 1} has TPR 1/2, FPR e^-0.5/2 = 0.30, whose
  // Clopper-Pearson bounds at 1e4 held-out runs cost ~0.06: eps_lb ~0.44 = 0.88 eps. Both stay below
  // the truth.
  AuditSpec gaussian_audit = gaussian_spec("test.gaussian", 2);
  gaussian_audit.trials = 200000;
  const AuditResult gaussian = run_audit(gaussian_audit, gaussian_registry());
  CHECK(gaussian.bound() == "Gaussian-DP fit");
  CHECK(gaussian.tightness() >= 0.8);
  CHECK(gaussian.tightness() <= 1.0);
  AuditSpec laplace = laplace_spec("test.laplace", 2);
  laplace.trials = 20000;
  laplace.confidence = 0.95;
  const AuditResult l = run_audit(laplace, laplace_registry());
  CHECK(l.bound() == "Clopper-Pearson");
  CHECK(l.tightness() >= 0.8);
  CHECK(l.tightness() <= 1.0);
}

TEST_CASE("the registered Gaussian and Laplace mechanisms reach >= 0.8 eps on their default worst case", "[audit][slow]") {
  // What `dpbounds audit baseline.gaussian_mean|laplace_mean` runs, at a fixed run count (the CLI's 60 s
  // reach 0.985 and 0.996, docs/auditing.md). Gaussian (1, 1e-5) at 1e5 runs per side: the fit's mid-range
  // test bounds mu to ~0.02 below 0.269 at 5e4 held-out runs, eps_lb ~0.92. Laplace eps = 1 at 5000 runs:
  // the event {score >= shift} has TPR 1/2 and FPR e^-1/2, whose Clopper-Pearson bounds at 2500 held-out runs
  // cost ~0.1: eps_lb ~0.9. Neither can exceed the truth except with probability 1 - confidence.
  AuditSpec s;
  s.algorithm = "baseline.gaussian_mean";
  s.n = 200;
  s.d = 5;
  s.privacy = {1.0, 1e-5};
  s.trials = 100000;
  const AuditResult gaussian = run_audit(s);
  CHECK(gaussian.construction == NeighbourKind::sign_flip);
  CHECK(gaussian.score == "mean_projection");
  CHECK(gaussian.gaussian_ledger);
  CHECK(gaussian.tightness() >= 0.8);
  CHECK(gaussian.verdict == AuditVerdict::pass);
  s.algorithm = "baseline.laplace_mean";
  s.privacy = {1.0, 0.0};
  s.trials = 5000;
  const AuditResult laplace = run_audit(s);
  CHECK(laplace.construction == NeighbourKind::axis_flip);  // all of the l1 sensitivity on one coordinate
  CHECK(laplace.bound() == "Clopper-Pearson");
  CHECK(laplace.tightness() >= 0.8);
  CHECK(laplace.verdict == AuditVerdict::pass);
  // On sign_flip the shift is spread over the coordinates of u, and the projection is no longer the
  // likelihood ratio of per-coordinate Laplace noise: the construction is what makes the audit tight.
  s.neighbours = NeighbourKind::sign_flip;
  CHECK(run_audit(s).tightness() < laplace.tightness());
}

TEST_CASE("an adaptive audit grows its runs until a violation shows, and its run count reproduces it",
          "[audit]") {
  // 1000 runs per side cannot show the x0.7 mechanism's violation (the fit's mu_lower is ~0.2 below mu);
  // the runs grow by half per batch until it shows, well inside the minute given.
  const auto registry = gaussian_registry();
  AuditSpec adaptive = gaussian_spec("test.gaussian_x07", 1);
  adaptive.trials = 1000;
  adaptive.seconds = 60;
  const AuditResult grown = run_audit(adaptive, registry);
  CHECK(grown.verdict == AuditVerdict::violation);
  CHECK(grown.runs_per_side > 1000);
  CHECK(grown.runs_per_side < 200000);  // stopped at the violation, not at the budget
  // Every look may stop the audit, so each holds its bounds at a share of the error 1 - confidence: the
  // stopping look's is stricter than a single fixed audit's.
  CHECK(grown.confidence > adaptive.confidence);
  // Its ledger is all Gaussian, so the fit joins the verdict and each of the two bounds gets half the error.
  CHECK(1 - grown.loss.confidence == Approx((1 - grown.confidence) / 2));
  AuditSpec fixed = adaptive;
  fixed.seconds = 0;
  fixed.trials = grown.runs_per_side;
  fixed.confidence = grown.confidence;
  const AuditResult again = run_audit(fixed, registry);
  CHECK(again.epsilon_lower() == grown.epsilon_lower());
  CHECK(again.runs_per_side == grown.runs_per_side);
  adaptive.max_trials = 500;  // below the first batch
  CHECK_THROWS_WITH(run_audit(adaptive, registry), Catch::Contains("max_trials"));
}

TEST_CASE("an adaptive audit's looks share its error: every verdict holds at the stated confidence", "[audit]") {
  // Union bound over every look that may stop early and the final one: the errors sum to at most 1 - confidence.
  for (const double confidence : {0.9, 0.95, 0.99}) {
    double error = 1 - adaptive_final_confidence(confidence);
    for (int look = 1; look <= 100000; ++look) error += 1 - adaptive_look_confidence(confidence, look);
    CHECK(error <= 1 - confidence);
    CHECK(error > 0.9999 * (1 - confidence));  // and spends nearly all of it
    CHECK(adaptive_look_confidence(confidence, 2) > adaptive_look_confidence(confidence, 1));
  }
}

TEST_CASE("an audit gives the same numbers on one thread and on two", "[audit]") {
  const auto registry = gaussian_registry();
  const AuditSpec spec = gaussian_spec("test.gaussian", 3);
  omp_set_num_threads(1);
  const AuditResult one = run_audit(spec, registry);
  omp_set_num_threads(2);
  const AuditResult two = run_audit(spec, registry);
  omp_set_num_threads(dpb::verify::default_threads());
  CHECK(one.epsilon_lower() == two.epsilon_lower());
  CHECK(one.loss.forward.clopper_pearson.threshold == two.loss.forward.clopper_pearson.threshold);
  CHECK(one.loss.gdp_mu_lower == two.loss.gdp_mu_lower);
}

TEST_CASE("a correct Laplace mechanism is never flagged, a mis-scaled one always is", "[audit]") {
  // Correct: the best test attains eps exactly, so a flag needs a failed Clopper–Pearson bound, which
  // happens with probability <= 1 - confidence = 1% per seed: all 10 seeds pass with probability >= 90%
  // for any seeds. Broken (b = eps = 0.5): the true eps is 1/b = 2; the test {score >= 1} has TPR 1/2
  // and FPR e^-2/2 = 0.068, so 1000 held-out runs bound eps by about 1.6 > 0.5 with overwhelming probability.
  const auto registry = laplace_registry();
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    INFO("seed " << seed);
    const AuditResult ok = run_audit(laplace_spec("test.laplace", seed), registry);
    CHECK(ok.verdict == AuditVerdict::pass);
    CHECK(ok.loss.epsilon_lower <= 0.5);
    const AuditResult broken = run_audit(laplace_spec("test.laplace_broken", seed), registry);
    CHECK(broken.verdict == AuditVerdict::violation);
    CHECK(broken.loss.epsilon_lower > 1.0);
    CHECK(broken.loss.epsilon_lower <= 2.0);  // and still a lower bound on the true eps
  }
}

TEST_CASE("an add/remove claim is audited at its replace-one cost (group privacy)", "[audit]") {
  // b = 1/(2 eps) is eps-DP for add/remove neighbours and exactly (2 eps)-DP for replace-one: the
  // replace-one audit must test 2 eps. The test {score >= 1} has TPR 1/2, FPR e^-1/2 = 0.18, so 1000
  // held-out runs bound eps by about 0.74: above the claimed 0.5, below the audited 1.
  const AuditResult r = run_audit(laplace_spec("test.laplace_add_remove", 1), laplace_registry());
  CHECK(r.audited_epsilon == 1.0);
  CHECK(r.audited_delta == 0.0);
  CHECK(r.loss.epsilon_lower > r.claim.epsilon);
  CHECK(r.verdict == AuditVerdict::pass);
}

TEST_CASE("the audit depends only on the seed and counts its runs", "[audit]") {
  const auto registry = laplace_registry();
  const auto a = run_audit(laplace_spec("test.laplace", 4), registry);
  const auto b = run_audit(laplace_spec("test.laplace", 4), registry);
  CHECK(a.loss.epsilon_lower == b.loss.epsilon_lower);
  CHECK(a.loss.forward.clopper_pearson.threshold == b.loss.forward.clopper_pearson.threshold);
  CHECK(a.runs_per_side == 2000);
  CHECK(a.runs == 4001);  // and the first run on D, which reads the ledger
  CHECK(a.runs_per_second > 0);
  CHECK(a.score == "scalar");
  CHECK(a.construction == NeighbourKind::corner);
}

TEST_CASE("a real algorithm passes its audit: baseline.dp_gauss_1", "[audit]") {
  AuditSpec s;
  s.algorithm = "baseline.dp_gauss_1";
  s.privacy = {1.0, 1e-5};
  s.n = 50;
  s.d = 4;
  s.trials = 500;
  const AuditResult r = run_audit(s);
  CHECK(r.claim.scope == dpb::alg::ClaimScope::worst_case);
  CHECK(r.construction == NeighbourKind::orthogonal_axes);  // on flat data (its worst case)
  CHECK(r.score == "second_moment_lr");
  CHECK(r.gaussian_ledger);
  CHECK(r.verdict == AuditVerdict::pass);
  // The pass means something: these runs could have shown eps well above the claim.
  CHECK(r.loss.max_detectable_epsilon > 2 * r.claim.epsilon);
  // k unset: its claim does not depend on k, so the worst case asks for every eigenpair; a k given is kept, and
  // other neighbours (not the worst case) or other algorithms keep 1.
  CHECK(r.spec.k == 4);
  s.k = 2;
  CHECK(run_audit(s).spec.k == 2);
  s.k.reset();
  s.neighbours = NeighbourKind::huge_norm;
  CHECK(run_audit(s).spec.k == 1);
  s.algorithm = "baseline.dp_gauss";  // its worst case releases every eigenpair too
  s.neighbours = NeighbourKind::canary;
  CHECK(run_audit(s).spec.k == 4);
  s.algorithm = "liu2022.private_oja";
  CHECK(run_audit(s).spec.k == 1);
}

TEST_CASE("the default audit of a release of every eigenpair sees all of it and flags noise x0.7 at delta = 1e-5",
          "[audit][slow]") {
  // Issue 18, at the CLI's settings (k unset, canary neighbours, n = 200, d = 5, eps = 1, delta = 1e-5). Their
  // claims do not depend on k, and k = 1 showed only part of the release: DP-Gauss-1's top eigenpair keeps ~75% of
  // mu (x0.7 showed as eps ~1.05 with unlimited runs, 0.868 in 60 s); Analyze Gauss reached 0.851 of its claimed
  // 1.465 after 3.3 million runs; the power method's k = 1 query meets the canary axes at random (0.38 of 1).
  // With k = d, at the run counts below (seed 1): DP-Gauss-1 mutant 1.27, real 0.79 (the adaptive CLI audit flags
  // the mutant after 38436 runs); Analyze Gauss 1.905 and 1.22 of 1.465 (1.71-1.91 and 0.63-1.30 over seeds 1-8;
  // 60 s give the real one 1.452); the power method 1.25 and 0.87 (the adaptive audit flags the mutant on seeds
  // 1-8 after 5062-25624 runs and gives the real one 0.94 in 20 s). With k = 1 the same runs flag none of them.
  struct Case {
    const char* mutant;
    const char* real;
    dpb::core::ParamMap real_params;
    long trials;
  };
  for (const Case& c : {Case{"mutant.dp_gauss_1_noise_x07", "baseline.dp_gauss_1", {}, 60000},
                        Case{"mutant.dp_gauss_noise_x07", "baseline.dp_gauss",
                             {{"clip", std::string("on")}, {"mode", std::string("faithful")}}, 20000},
                        Case{"mutant.noisy_power_method_noise_x07", "baseline.noisy_power_method", {}, 60000}}) {
    INFO(c.mutant);
    AuditSpec s;
    s.privacy = {1.0, 1e-5};
    s.n = 200;
    s.d = 5;
    s.trials = c.trials;
    s.algorithm = c.mutant;
    const AuditResult broken = run_audit(s);
    CHECK(broken.spec.k == 5);
    CHECK(broken.verdict == AuditVerdict::violation);
    s.algorithm = c.real;
    s.params = c.real_params;
    const AuditResult real = run_audit(s);
    CHECK(real.verdict == AuditVerdict::pass);
    CHECK(real.tightness() > 0.6);
    s.k = 1;  // part of the release: the same runs no longer flag the mutant
    s.algorithm = c.mutant;
    s.params = {};
    CHECK(run_audit(s).verdict == AuditVerdict::pass);
  }
}

TEST_CASE("the Oja family and the noisy power method are audited white-box by default, and near their claims",
          "[audit]") {
  // Their canary worst case: flat data, the transcript's likelihood ratio. The power method with k unset (hence d):
  // two records on orthogonal axes, met by a query X_l that spans both (eps_lb / eps 0.76 at eps = 1, delta =
  // 0.05, 4000 runs per side, seed 1; 0.16 at k = 1). Private Oja reading its records in order: the public start
  // and opposed records (opposed_at_start), 0.97 of the step's sensitivity 2 beta (0.63); shuffled, the record is
  // read at a random step and the audit falls back to orthogonal axes, sqrt(2) beta at most (0.40). The huge-norm
  // canary and subspace score they replace gave 0. The floors leave room for a change of random-number layout.
  struct Case {
    const char* id;
    dpb::core::ParamMap params;
    NeighbourKind construction;
    double floor;
  };
  for (const Case& c : {Case{"liu2022.private_oja", {{"shuffle", std::string("false")}}, NeighbourKind::opposed_at_start, 0.5},
                        Case{"liu2022.private_oja", {}, NeighbourKind::orthogonal_axes, 0.2},
                        Case{"baseline.noisy_power_method", {}, NeighbourKind::orthogonal_axes, 0.5}}) {
    INFO(c.id << " " << to_string(c.construction));
    AuditSpec s;
    s.algorithm = c.id;
    s.params = c.params;
    s.privacy = {1.0, 0.05};
    s.n = 50;
    s.d = 3;
    s.trials = 4000;
    const AuditResult r = run_audit(s);
    CHECK(r.construction == c.construction);
    CHECK(r.score == "transcript_lr");
    CHECK(r.gaussian_ledger);
    CHECK(r.verdict == AuditVerdict::pass);
    CHECK(r.tightness() > c.floor);
  }
}

TEST_CASE("Private Oja with its noise x0.7 is flagged by the default audit", "[audit]") {
  // Issue 18: with a fixed pair of records at a random query (orthogonal axes) x0.7 showed mu 1.01x the claim's,
  // invisible; from the public start the first step moves by 0.97 of 2 beta, mu 1.39x the claim's.
  AuditSpec s;
  s.algorithm = "mutant.private_oja_noise_x07";
  s.privacy = {1.0, 0.05};
  s.n = 50;
  s.d = 3;
  s.trials = 4000;
  const AuditResult r = run_audit(s);
  CHECK(r.construction == NeighbourKind::opposed_at_start);
  CHECK(r.verdict == AuditVerdict::violation);
}

TEST_CASE("a learned score, told nothing about the mechanism, is near-tight and finds unnoised entries", "[audit][slow]") {
  // learned_linear fits Fisher's discriminant over every released number on training runs of its own. On the
  // Gaussian mean it reaches what the likelihood ratio reaches (0.905 vs mean_projection's 0.921 at 1e5 runs
  // per side). On Analyze Gauss with the generic huge-norm canary it finds the entries the broken mutants leave
  // unnoised without the hand-picked canary_diagonal_entry / canary_off_diagonal_entry: perfect separation
  // (eps_lb 4.73 at 1000 runs per side) against the claimed 1.465, while the real one passes.
  AuditSpec s;
  s.algorithm = "baseline.gaussian_mean";
  s.privacy = {1.0, 1e-5};
  s.n = 200;
  s.d = 5;
  s.trials = 100000;
  s.score = "learned_linear";
  const AuditResult mean = run_audit(s);
  CHECK(mean.tightness() >= 0.8);
  CHECK(mean.verdict == AuditVerdict::pass);
  CHECK(mean.runs == 4 * s.trials + 1);  // the training runs count
  s.model_params = {{"r", 1.0}};
  s.n = 50;
  s.d = 3;
  s.k = 3;
  s.trials = 1000;
  s.neighbours = NeighbourKind::huge_norm;
  s.canary_scale = 10;
  for (const char* mutant : {"mutant.dp_gauss_noise_without_diagonal", "mutant.dp_gauss_noise_not_mirrored"}) {
    INFO(mutant);
    s.algorithm = mutant;
    CHECK(run_audit(s).verdict == AuditVerdict::violation);
  }
  s.algorithm = "baseline.dp_gauss";
  s.params = {{"clip", std::string("on")}};
  CHECK(run_audit(s).verdict == AuditVerdict::pass);
}

TEST_CASE("run_audit refuses an unknown algorithm or an invalid spec", "[audit]") {
  AuditSpec s;
  s.algorithm = "no.such_algorithm";
  CHECK_THROWS_WITH(run_audit(s), Catch::Contains("unknown algorithm"));
  s.algorithm = "baseline.dp_gauss_1";
  s.trials = 3;
  CHECK_THROWS_AS(run_audit(s), dpb::InvalidArgument);
}

TEST_CASE("cai2024's Algorithm 1: private for fresh neighbours, not for a canary", "[audit]") {
  // The claim holds only under the model (cai2024 Lemma 2, spec A2). A fresh neighbour is what it
  // covers: the audit passes. The canary (norm 30 sqrt(tr Sigma), so c^2/n = 45 > lambda = 10 in the
  // unclipped sample covariance) turns the top eigenvector towards u on D' only: a violation, and the
  // report says it shows the scope of the claim, not a bug.
  AuditSpec s;
  s.algorithm = "cai2024.gaussian_mechanism";
  s.privacy = {0.9, 1e-5};  // small delta, as cai2024 §3.6 recommends; eps < 1 for the classical calibration
  s.n = 400;
  s.d = 10;
  s.trials = 400;
  s.neighbours = NeighbourKind::fresh;
  const AuditResult fresh = run_audit(s);
  CHECK(fresh.claim.scope == dpb::alg::ClaimScope::under_model_assumptions);
  CHECK(fresh.verdict == AuditVerdict::pass);
  CHECK_THAT(fresh.interpretation, Catch::Contains("fresh neighbours are the ones this claim is made for"));
  s.neighbours = NeighbourKind::canary;
  const AuditResult canary = run_audit(s);
  CHECK(canary.construction == NeighbourKind::huge_norm);
  CHECK(canary.verdict == AuditVerdict::violation);
  CHECK_THAT(canary.interpretation, Catch::Contains("the canary breaks that assumption"));
}

TEST_CASE("a score that some runs' outputs cannot give is a clean error, not a crash", "[audit]") {
  // DP-Gauss-2 releases eigenvalues only when its gap test fails (then it is DP-Gauss-1); where the test
  // passes it releases Q alone, which second_moment_lr cannot read. That error, thrown inside the parallel
  // runs, terminated the program ("terminate called recursively").
  AuditSpec s;
  s.algorithm = "baseline.dp_gauss_2";
  s.neighbours = NeighbourKind::orthogonal_axes;
  s.score = "second_moment_lr";
  s.model_params = {{"r", 1.0}, {"lambda", 1e-6}, {"sigma2", 1e-6}};
  s.privacy = {1.0, 0.05};
  s.n = 50;
  s.d = 3;
  s.k = 2;
  s.canary_scale = 1000;
  s.trials = 2000;
  CHECK_THROWS_WITH(run_audit(s), Catch::Contains("second_moment_lr") && Catch::Contains("does not release"));
}
