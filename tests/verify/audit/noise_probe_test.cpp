// Issue 18, differential tests: the noise every mechanism entry actually drew, tested against the scale its
// ledger entry declares (the scale the accountant proves the claim from), on every audited algorithm and on
// test doubles that draw less than they declare.
#include "verify/audit/noise_probe.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <tuple>

#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/mechanisms/histogram.hpp"
#include "algorithms/mechanisms/laplace.hpp"
#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/mechanisms/probed_release.hpp"
#include "core/samplers.hpp"
#include "tests/verify/audit/noise_scaled.hpp"
#include "verify/experiment/parse.hpp"
#include "verify/experiment/repository_configs.hpp"
#include "verify/runner/runner.hpp"

using dpb::verify::AuditSpec;
namespace alg = dpb::alg;

namespace {

// A column sum + noise whose ledger entry declares sd (or Laplace scale) 1 per coordinate (an honest claim at
// eps = 1: sensitivity 0.2, or 1 for Laplace); `drawn` is the noise
// the code really adds, as a mechanism with a slipped constant would.
class NoisySum final : public alg::Estimator {
 public:
  NoisySum(alg::Mechanism mechanism, double drawn, double offset = 0)
      : mechanism_(mechanism), drawn_(drawn), offset_(offset) {}
  alg::Estimate run(const alg::Input& in, dpb::core::Rng& rng) const override {
    Eigen::MatrixXd sum = in.X->rowwise().sum();
    alg::Estimate e;
    const alg::LedgerEntry entry = mechanism_ == alg::Mechanism::gaussian
                                       ? alg::gaussian_entry("noisy sum", 0.2, 1, in.privacy)
                                       : alg::laplace_entry("noisy sum", 1, 1, in.privacy);
    e.ledger.record(entry);
    alg::probed_release(sum, entry, [&](Eigen::Ref<Eigen::MatrixXd> v) {
      for (Eigen::Index i = 0; i < v.rows(); ++i)
        v(i, 0) += offset_ + (mechanism_ == alg::Mechanism::gaussian ? drawn_ * dpb::core::standard_normal(rng)
                                                                     : dpb::core::laplace(rng, drawn_));
    });
    e.mean = Eigen::VectorXd(sum.col(0));
    e.claim = claim(in);
    return e;
  }
  alg::PrivacyClaim claim(const alg::Input& in) const override {
    return {in.privacy.epsilon, in.privacy.delta, alg::Neighbours::replace, alg::ClaimScope::worst_case, {}};
  }

 private:
  alg::Mechanism mechanism_;
  double drawn_, offset_;
};

// A stability histogram of the records' signs along the first axis. `slipped`: the threshold test compares
// against half the threshold its entry declares (a constant slipped in one place, not the other).
class SignHistogram final : public alg::Estimator {
 public:
  explicit SignHistogram(bool slipped) : slipped_(slipped) {}
  alg::Estimate run(const alg::Input& in, dpb::core::Rng& rng) const override {
    std::vector<std::int64_t> bins;
    for (Eigen::Index j = 0; j < in.X->cols(); ++j) bins.push_back((*in.X)(0, j) > 0 ? 1 : 0);
    alg::Estimate e;
    e.claim = claim(in);
    if (!slipped_) {
      const auto h = alg::stability_histogram(bins, in.privacy, "sign histogram", e.ledger, rng);
      e.scalar = h.released.empty() ? 0.0 : h.released.front().frequency;
      return e;
    }
    const auto n = static_cast<double>(bins.size());
    const double positive = static_cast<double>(std::count(bins.begin(), bins.end(), 1)) / n;
    const alg::LedgerEntry entry{.step = "sign histogram",
                                 .mechanism = alg::Mechanism::stability_histogram,
                                 .sensitivity = 2 / n,
                                 .norm = alg::SensitivityNorm::l1,
                                 .noise_scale = alg::histogram_noise_scale(bins.size(), in.privacy),
                                 .truncation = alg::histogram_threshold(bins.size(), in.privacy),
                                 .records = bins.size(),
                                 .calibrated_for = {in.privacy.epsilon, in.privacy.delta}};
    e.ledger.record(entry);
    std::vector<double> released;
    for (const auto& [bin, frequency] : {std::pair{0.0, 1 - positive}, std::pair{1.0, positive}}) {
      const double noisy = frequency + dpb::core::laplace(rng, entry.noise_scale);
      if (noisy > entry.truncation / 2) released.insert(released.end(), {bin, noisy});
    }
    if (alg::LedgerProbe* probe = alg::active_probe())
      probe->observe(entry, {1 - positive, positive}, {0, 1}, released, alg::ProbedRelease::drawn);
    e.scalar = released.empty() ? 0.0 : released.back();
    return e;
  }
  alg::PrivacyClaim claim(const alg::Input& in) const override {
    return {in.privacy.epsilon, in.privacy.delta, alg::Neighbours::replace, alg::ClaimScope::worst_case, {}};
  }

 private:
  bool slipped_;
};

// Claims a budget and refuses every run, as an algorithm refusing the probe's data does.
class RefusesEveryRun final : public alg::Estimator {
 public:
  alg::Estimate run(const alg::Input&, dpb::core::Rng&) const override {
    throw dpb::InvalidArgument("refused");
  }
  alg::PrivacyClaim claim(const alg::Input& in) const override {
    return {in.privacy.epsilon, in.privacy.delta, alg::Neighbours::replace, alg::ClaimScope::worst_case, {}};
  }
};

alg::Registry doubles() {
  alg::Registry registry;
  const auto add = [&](const char* id, std::function<std::unique_ptr<alg::Estimator>()> make) {
    alg::AlgorithmEntry e;
    e.id = id;
    e.summary = "noise probe test double";
    e.factory = [make](const dpb::core::ParamMap&) { return make(); };
    registry.add(std::move(e));
  };
  add("test.gaussian", [] { return std::make_unique<NoisySum>(alg::Mechanism::gaussian, 1.0); });
  add("test.gaussian_x08", [] { return std::make_unique<NoisySum>(alg::Mechanism::gaussian, 0.8); });
  add("test.gaussian_x095", [] { return std::make_unique<NoisySum>(alg::Mechanism::gaussian, 0.95); });
  add("test.gaussian_offset", [] { return std::make_unique<NoisySum>(alg::Mechanism::gaussian, 1.0, 0.2); });
  add("test.laplace", [] { return std::make_unique<NoisySum>(alg::Mechanism::laplace, 1.0); });
  add("test.laplace_x08", [] { return std::make_unique<NoisySum>(alg::Mechanism::laplace, 0.8); });
  add("test.histogram", [] { return std::make_unique<SignHistogram>(false); });
  add("test.histogram_slipped", [] { return std::make_unique<SignHistogram>(true); });
  add("test.refuses", [] { return std::make_unique<RefusesEveryRun>(); });
  return registry;
}

AuditSpec spec_of(const std::string& id, int n = 50, int d = 50) {
  AuditSpec s;
  s.algorithm = id;
  s.privacy = {1.0, 1e-5};
  s.n = n;
  s.d = d;
  return s;
}

}  // namespace

TEST_CASE("the noise probe passes mechanisms that draw what they declare and catches noise x0.8", "[privacy][probe]") {
  const auto registry = doubles();
  for (const char* honest : {"test.gaussian", "test.laplace"}) {
    INFO(honest);
    const auto report = dpb::verify::probe_noise(spec_of(honest), registry);
    REQUIRE(report.checks.size() == 1);
    CHECK(report.checks.front().draws >= 20000);
    CHECK(report.failures().empty());
    CHECK(std::abs(report.checks.front().z_score) < 4);
  }
  for (const char* low : {"test.gaussian_x08", "test.laplace_x08"}) {
    INFO(low);
    const auto failures = dpb::verify::probe_noise(spec_of(low), registry).failures();
    REQUIRE(failures.size() == 1);
    CHECK(failures.front().step == "noisy sum");
    CHECK(failures.front().z_score < -20);  // x0.8: z^2 at 0.64, |z| at 0.8, over 20000 draws
  }
  // Noise shifted by 0.2 sd: mean z^2 1.04 (4 standard errors, within the limit), mean z 28 standard errors out.
  const auto shifted = dpb::verify::probe_noise(spec_of("test.gaussian_offset"), registry).failures();
  REQUIRE(shifted.size() == 1);
  CHECK_THAT(shifted.front().problem, Catch::Contains("not centred"));
  // x0.95 (z^2 at 0.90): ~10 standard errors at 20000 draws.
  CHECK(dpb::verify::probe_noise(spec_of("test.gaussian_x095"), registry).failures().size() == 1);
}

TEST_CASE("the noise probe catches a histogram that releases below its declared threshold", "[privacy][probe]") {
  // At n = 2000 both sign bins (frequency ~1/2) sit far above the threshold 0.013 (scale 1e-3), so their noise
  // is tested as Laplace. At n = 50 the threshold 0.51 sits at the bins' frequency: the honest test releases a
  // bin in about half the runs, always above 0.51; the slipped one compares with 0.25 and releases below 0.51.
  const auto registry = doubles();
  const auto far = dpb::verify::probe_noise(spec_of("test.histogram", 2000, 2), registry);
  REQUIRE(far.checks.size() == 1);
  CHECK(far.failures().empty());
  CHECK(far.checks.front().draws == 4000);  // two bins a run, 2000 runs
  CHECK(dpb::verify::probe_noise(spec_of("test.histogram", 50, 2), registry, {.max_runs = 100}).failures().empty());
  const auto slipped = dpb::verify::probe_noise(spec_of("test.histogram_slipped", 50, 2), registry, {.max_runs = 100});
  REQUIRE(slipped.failures().size() == 1);
  CHECK_THAT(slipped.failures().front().problem, Catch::Contains("below the declared threshold"));
}

TEST_CASE("bounded Laplace moments match the sampler", "[privacy][probe]") {
  const auto [m1, m2] = dpb::verify::bounded_laplace_abs_moments(1.0, 1e6);  // no truncation: Exp(1)
  CHECK(m1 == Approx(1.0));
  CHECK(m2 == Approx(2.0));
  dpb::core::Rng rng(3, 7);
  const double lambda = 2, tau = 1.5;  // truncation well inside the bulk
  const int draws = 200000;
  double sum = 0, sum_sq = 0;
  for (int i = 0; i < draws; ++i) {
    const double x = std::abs(alg::bounded_laplace(rng, lambda, tau));
    sum += x;
    sum_sq += x * x;
  }
  const auto [mean, second] = dpb::verify::bounded_laplace_abs_moments(lambda, tau);
  const double sd = std::sqrt(second - mean * mean);
  CHECK(std::abs(sum / draws - mean) < 5 * sd / std::sqrt(double(draws)));  // 5 standard errors
  CHECK(second == Approx(sum_sq / draws).epsilon(0.01));
}

TEST_CASE("every audited algorithm draws the noise its ledger declares", "[privacy][probe][slow]") {
  const auto suite =
      dpb::verify::load_experiment(dpb::verify::test::configs_dir() / "experiments" / "audits.yaml");
  const auto& registry = alg::algorithm_registry();
  std::set<std::string> tested_algorithms, laws, seen;
  for (const AuditSpec& spec : suite.audits) {
    if (registry.find(spec.algorithm).mutant || !seen.insert(spec.algorithm).second) continue;
    const auto report = dpb::verify::probe_noise(spec, registry);
    INFO(spec.algorithm << ": " << report.runs << " runs");
    for (const auto& c : report.checks) {
      if (!c.problem.empty()) FAIL_CHECK(spec.algorithm << ": '" << c.step << "' (" << c.mechanism << "): " << c.problem);
      if (c.draws >= 1000) {
        tested_algorithms.insert(spec.algorithm);
        laws.insert(c.mechanism);
      }
    }
  }
  // Every additive mechanism in the code base is tested somewhere, on most of the algorithms.
  CHECK(tested_algorithms.size() >= 20);
  for (const char* law : {"gaussian", "laplace", "bounded_laplace"}) {
    INFO(law);
    CHECK(laws.count(law) == 1);
  }
}

TEST_CASE("noise x0.8 hidden inside the Gaussian mechanism fails the noise probe of every algorithm that uses it",
          "[privacy][probe][slow]") {
  // The slip a ledger cannot show: the mechanism draws 0.8 of the sd its entry declares, and the ledger and
  // the accountant see the honest entry (alg::ScopedGaussianNoiseFactor, hidden, in each run:
  // noise_scaled.hpp). Every audited algorithm with a Gaussian check of >= 1000 draws must fail it (x0.8: 8
  // standard errors out at 1000 draws).
  const auto suite =
      dpb::verify::load_experiment(dpb::verify::test::configs_dir() / "experiments" / "audits.yaml");
  const auto& registry = alg::algorithm_registry();
  std::set<std::string> seen;
  int caught = 0;
  for (const AuditSpec& spec : suite.audits) {
    if (registry.find(spec.algorithm).mutant || !seen.insert(spec.algorithm).second) continue;
    // The slip is on in every run, on whichever thread runs it.
    alg::Registry slipped;
    slipped.add(dpb::test::noise_scaled(registry.find(spec.algorithm), spec.algorithm, 0.8,
                                        alg::NoiseDefect::hidden));
    const auto report = dpb::verify::probe_noise(spec, slipped);
    for (const auto& c : report.checks) {
      if (c.mechanism.find("gaussian") == std::string::npos || c.draws < 1000) continue;
      INFO(spec.algorithm << ": '" << c.step << "', " << c.draws << " draws, z " << c.z_score);
      CHECK_FALSE(c.problem.empty());
      ++caught;
    }
  }
  CHECK(caught >= 12);
}

TEST_CASE("a top-k support released without its values is a selection, not a noisy value", "[privacy][probe]") {
  // PrivCov's conservative row accounting releases the support alone: its release is the chosen indices, which
  // the probe once pooled as Laplace noise (index - score) and failed.
  AuditSpec spec;
  spec.algorithm = "kumar2025.priv_cov";
  spec.params = {{"row_accounting", std::string("conservative")}};
  spec.model = "sparse_block_spike";
  spec.model_params = {{"k", 1.0}};
  spec.privacy = {1.0, 1e-5};
  spec.n = 200;
  spec.d = 5;
  const auto report = dpb::verify::probe_noise(spec, alg::algorithm_registry(), {.max_runs = 50});
  CHECK(report.failures().empty());
  CHECK_FALSE(report.unchecked.empty());
}

// The probe's runs go over the threads in batches and join the pools in run order: its report is a serial
// loop's, bit for bit, at any number of threads. The Gaussian sum draws 50 values a run, so a serial loop
// stops after exactly 400 runs (the batches' later runs are dropped); the histogram's runs go on to max_runs.
TEST_CASE("the noise probe reports the same runs and numbers at any number of threads", "[privacy][probe]") {
  const auto registry = doubles();
  for (const auto& [spec, options, runs] :
       {std::tuple{spec_of("test.gaussian"), dpb::verify::NoiseProbeOptions{}, std::size_t{400}},
        std::tuple{spec_of("test.histogram", 50, 2), dpb::verify::NoiseProbeOptions{.max_runs = 300},
                   std::size_t{300}}}) {
    INFO(spec.algorithm);
    std::vector<dpb::verify::NoiseProbeReport> reports;
    for (const int threads : {1, 2, 3}) {
      const dpb::verify::ThreadCount count(threads);
      reports.push_back(dpb::verify::probe_noise(spec, registry, options));
    }
    for (const auto& report : reports) {
      CHECK(report.runs == runs);
      REQUIRE(report.checks.size() == reports.front().checks.size());
      for (std::size_t i = 0; i < report.checks.size(); ++i) {
        CHECK(report.checks[i].draws == reports.front().checks[i].draws);
        CHECK(report.checks[i].measured == reports.front().checks[i].measured);  // the same bits
        CHECK(report.checks[i].z_score == reports.front().checks[i].z_score);
      }
    }
  }
  const dpb::verify::ThreadCount two(2);
  CHECK_THROWS_WITH(dpb::verify::probe_noise(spec_of("test.refuses"), registry), "refused");
}
