#include "verify/audit/noise_probe.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <exception>

#include "algorithms/mechanisms/ledger.hpp"
#include "core/errors.hpp"
#include "verify/audit/auditor.hpp"
#include "verify/runner/trial_input.hpp"

namespace dpb::verify {
namespace {

using alg::Mechanism;

// A bin this far above the release threshold, in Laplace scales, fails to be released with probability
// e^-30 / 2 only, so its noise is an unconditioned Laplace draw.
constexpr double kFarAboveThreshold = 30;

// The law release - statistic follows for a mechanism, or `none` where the mechanism selects.
enum class Law { gaussian, laplace, bounded_laplace, histogram, none };

Law law_of(Mechanism m) {
  switch (m) {
    case Mechanism::gaussian:
    case Mechanism::shuffled_gaussian:
      return Law::gaussian;
    case Mechanism::laplace:
    case Mechanism::propose_test_release:  // value + Lap(b); the margin is subtracted after the release
      return Law::laplace;
    case Mechanism::bounded_laplace:
      return Law::bounded_laplace;
    case Mechanism::stability_histogram:
      return Law::histogram;
    case Mechanism::exponential:
    case Mechanism::exact:
      return Law::none;
  }
  return Law::none;
}

// Pooled draws of one step: the sum of the primary statistic (z^2 for Gaussian noise, |z| otherwise), and of z
// for the mean.
struct Pool {
  std::string step;
  Mechanism mechanism = Mechanism::gaussian;
  double scale = 0, bound = 0;  // bounded Laplace: every draw shares the entry's lambda and tau, checked below
  std::size_t draws = 0;
  double primary = 0, signed_sum = 0;
  std::string problem;

  void add(double noise, double declared_scale) {
    const double z = noise / declared_scale;
    ++draws;
    primary += law_of(mechanism) == Law::gaussian ? z * z : std::abs(z);
    signed_sum += z;
  }
};

class NoiseRecorder final : public alg::LedgerProbe {
 public:
  void observe(const alg::LedgerEntry& entry, const std::vector<double>& statistic,
               const std::vector<std::int64_t>& keys, std::vector<double>& release, alg::ProbedRelease kind) override {
    if (kind == alg::ProbedRelease::projected) return;  // a view of a draw already shown
    const Law law = law_of(entry.mechanism);
    if (kind == alg::ProbedRelease::selected || law == Law::none) {
      if (entry.mechanism != Mechanism::exact &&
          std::find(unchecked.begin(), unchecked.end(), entry.step) == unchecked.end())
        unchecked.push_back(entry.step);
      return;
    }
    if (!(entry.noise_scale > 0)) return;  // a release the ledger charges as exact
    Pool& pool = pool_of(entry);
    if (law == Law::histogram) return observe_histogram(entry, statistic, keys, release, pool);
    if (statistic.size() != release.size()) {
      pool.problem = fmt::format("the release has {} values for a statistic of {}", release.size(), statistic.size());
      return;
    }
    if (law == Law::bounded_laplace) {
      if (pool.draws > 0 && (pool.scale != entry.noise_scale || pool.bound != entry.truncation)) {
        pool.problem = "the bounded Laplace draws of one step declare different scales";
        return;
      }
      pool.scale = entry.noise_scale;
      pool.bound = entry.truncation;
    }
    for (std::size_t i = 0; i < statistic.size(); ++i) {
      const double noise = release[i] - statistic[i];
      if (law == Law::bounded_laplace && std::abs(noise) > entry.truncation * (1 + 1e-12))
        pool.problem = fmt::format("a draw of {:.4g} lies beyond the declared bound {:.4g}", noise, entry.truncation);
      // Bounded Laplace draws are pooled unscaled: their law is tested through its own moments.
      pool.add(noise, law == Law::bounded_laplace ? 1.0 : entry.noise_scale);
    }
  }

  std::vector<Pool> pools;
  std::vector<std::string> unchecked;

 private:
  Pool& pool_of(const alg::LedgerEntry& entry) {
    for (Pool& p : pools)
      if (p.step == entry.step && p.mechanism == entry.mechanism) return p;
    Pool pool;
    pool.step = entry.step;
    pool.mechanism = entry.mechanism;
    pools.push_back(std::move(pool));
    return pools.back();
  }

  // The release is flattened (bin, frequency) pairs; the statistic the occupied bins' frequencies, keyed by bin.
  void observe_histogram(const alg::LedgerEntry& entry, const std::vector<double>& statistic,
                         const std::vector<std::int64_t>& keys, const std::vector<double>& release, Pool& pool) {
    for (std::size_t i = 0; i + 1 < release.size(); i += 2) {
      const auto bin = static_cast<std::int64_t>(release[i]);
      const double released = release[i + 1];
      const auto at = std::find(keys.begin(), keys.end(), bin);
      if (at == keys.end()) {
        pool.problem = fmt::format("released bin {}, which no record occupies", bin);
        continue;
      }
      if (released < entry.truncation * (1 - 1e-12)) {
        pool.problem = fmt::format("released bin {} at {:.4g}, below the declared threshold {:.4g}", bin, released,
                                   entry.truncation);
        continue;
      }
      const double frequency = statistic[static_cast<std::size_t>(at - keys.begin())];
      if (frequency >= entry.truncation + kFarAboveThreshold * entry.noise_scale)
        pool.add(released - frequency, entry.noise_scale);
    }
  }
};

// One run's observations, kept to be shown to the recorder later, in run order.
class ObservationLog final : public alg::LedgerProbe {
 public:
  void observe(const alg::LedgerEntry& entry, const std::vector<double>& statistic,
               const std::vector<std::int64_t>& keys, std::vector<double>& release,
               alg::ProbedRelease kind) override {
    if (kind != alg::ProbedRelease::projected)
      observations_.push_back({entry, statistic, keys, release, kind});
  }
  void replay(NoiseRecorder& recorder) {
    for (Observation& o : observations_) recorder.observe(o.entry, o.statistic, o.keys, o.release, o.kind);
  }

 private:
  struct Observation {
    alg::LedgerEntry entry;
    std::vector<double> statistic;
    std::vector<std::int64_t> keys;
    std::vector<double> release;
    alg::ProbedRelease kind;
  };
  std::vector<Observation> observations_;
};

// The runs of the next batch: one first (nothing is known yet), then as many as the slowest pool needs to
// reach min_draws at its rate so far (all that are left when a pool has drawn nothing), at least one per
// thread and at most kRunsPerThread per thread.
int runs_to_ask(const std::vector<Pool>& pools, std::size_t runs, const NoiseProbeOptions& options) {
  constexpr int kRunsPerThread = 8;
  if (runs == 0) return 1;
  const int threads = omp_get_max_threads();
  double needed = 1;
  for (const Pool& p : pools) {
    if (p.draws >= options.min_draws || !p.problem.empty()) continue;
    needed = std::max(needed, p.draws == 0 ? double(options.max_runs)
                                           : std::ceil(double(options.min_draws - p.draws) * double(runs) /
                                                       double(p.draws)));
  }
  return static_cast<int>(std::clamp(needed, double(threads), double(threads) * kRunsPerThread));
}

NoiseCheck judge(const Pool& pool, const NoiseProbeOptions& options) {
  NoiseCheck c;
  c.step = pool.step;
  c.mechanism = alg::to_string(pool.mechanism);
  c.draws = pool.draws;
  c.problem = pool.problem;
  if (pool.draws == 0) return c;
  const double N = static_cast<double>(pool.draws);
  c.measured = pool.primary / N;
  double sd = 1;  // of one draw's primary statistic under the declared law
  switch (law_of(pool.mechanism)) {
    case Law::gaussian:  // z^2 ~ chi^2_1
      c.expected = 1;
      sd = std::sqrt(2.0);
      break;
    case Law::laplace:
    case Law::histogram:  // |z| ~ Exp(1)
      c.expected = 1;
      sd = 1;
      break;
    case Law::bounded_laplace: {
      const auto [m1, m2] = bounded_laplace_abs_moments(pool.scale, pool.bound);
      c.expected = m1;
      sd = std::sqrt(std::max(m2 - m1 * m1, 0.0));
      break;
    }
    case Law::none:
      return c;
  }
  if (pool.draws < options.min_checked_draws) return c;  // reported, too few to test
  c.tested = true;
  c.z_score = sd > 0 ? (c.measured - c.expected) / (sd / std::sqrt(N)) : 0;
  if (!c.problem.empty()) return c;
  if (std::abs(c.z_score) > options.z_limit)
    c.problem = fmt::format("mean {} {:.4g} where the declared law gives {:.4g} ({:+.1f} standard errors over {} draws)",
                            law_of(pool.mechanism) == Law::gaussian ? "z^2" : "|z|", c.measured, c.expected,
                            c.z_score, pool.draws);
  else if (law_of(pool.mechanism) == Law::gaussian && std::abs(pool.signed_sum / std::sqrt(N)) > options.z_limit)
    c.problem = fmt::format("mean z {:.4g}: the noise is not centred ({} draws)", pool.signed_sum / N, pool.draws);
  return c;
}

}  // namespace

std::pair<double, double> bounded_laplace_abs_moments(double lambda, double tau) {
  if (!(lambda > 0 && tau > 0)) throw InvalidArgument("bounded Laplace moments need lambda > 0 and tau > 0");
  // |X| has density e^{-x/lambda} / (lambda (1 - e^{-tau/lambda})) on [0, tau]; r = tau / (e^{tau/lambda} - 1).
  const double r = tau / std::expm1(tau / lambda);
  return {lambda - r, 2 * lambda * lambda - (tau + 2 * lambda) * r};
}

std::vector<NoiseCheck> NoiseProbeReport::failures() const {
  std::vector<NoiseCheck> out;
  for (const NoiseCheck& c : checks)
    if (!c.problem.empty()) out.push_back(c);
  return out;
}

NoiseProbeReport probe_noise(const AuditSpec& spec, const alg::Registry& registry, const NoiseProbeOptions& options) {
  const alg::AlgorithmEntry& entry = registry.find(spec.algorithm);
  const auto estimator = registry.make(spec.algorithm, spec.params);
  const auto model = audit_model(spec);
  core::Rng data_rng(options.seed, core::hash_name("noise probe data"));
  const TrialData data = trial_data_from_vectors(model->sample(spec.n, data_rng));
  const alg::Input in = make_input(entry, data, spec.k.value_or(1), spec.privacy, &model->info());
  NoiseProbeReport report;
  if (estimator->claim(in).scope == alg::ClaimScope::not_private) {
    report.not_private = true;  // its ledger promises nothing
    return report;
  }
  NoiseRecorder recorder;
  // A histogram pools only the bins far above its threshold, which some data never give: then the runs go on
  // to max_runs, checking every release against the threshold.
  const auto enough = [&] {
    return std::all_of(recorder.pools.begin(), recorder.pools.end(),
                       [&](const Pool& p) { return p.draws >= options.min_draws || !p.problem.empty(); });
  };
  const auto go_on = [&] { return int(report.runs) < options.max_runs && !(report.runs > 0 && enough()); };
  // The runs go in batches over the threads, each run observed by its own log; the logs join the pools in run
  // order, and those after the run that leaves enough are dropped: the report is a serial loop's, bit for
  // bit, whatever the threads. A batch is about as many runs as the pools still need, so little is dropped.
  while (go_on()) {
    const int batch =
        std::min(options.max_runs - int(report.runs), runs_to_ask(recorder.pools, report.runs, options));
    std::vector<ObservationLog> logs(static_cast<std::size_t>(batch));
    std::vector<std::exception_ptr> failures(logs.size());
#pragma omp parallel for schedule(dynamic, 1)
    for (int j = 0; j < batch; ++j) {
      const auto run = static_cast<std::uint64_t>(report.runs) + static_cast<std::uint64_t>(j);
      try {
        const alg::ScopedProbe scope(logs[std::size_t(j)]);
        core::Rng rng(options.seed, core::stream_id("noise probe", 0, spec.algorithm, run, "run"));
        estimator->run(in, rng);
      } catch (...) {
        failures[std::size_t(j)] = std::current_exception();  // an exception must not leave an OpenMP region
      }
    }
    for (std::size_t j = 0; j < logs.size() && go_on(); ++j) {
      if (failures[j]) std::rethrow_exception(failures[j]);  // the one a serial loop would have thrown
      logs[j].replay(recorder);
      ++report.runs;
    }
  }
  for (const Pool& pool : recorder.pools) report.checks.push_back(judge(pool, options));
  report.unchecked = std::move(recorder.unchecked);
  return report;
}

}  // namespace dpb::verify
