// Benchmark (not a test): the privacy auditor's overhead. An audit of T runs per dataset is timed
// against the bare cost it cannot avoid: 2T runs of the mechanism on D and D' built once. The issue's
// budget: the auditor adds at most 10% (ratio <= 1.1).
#include <fmt/format.h>

#include "algorithms/registry.hpp"
#include "bench/timing.hpp"
#include "core/models/model.hpp"
#include "verify/audit/auditor.hpp"
#include "verify/audit/neighbours.hpp"
#include "verify/trial_input.hpp"

namespace {

constexpr double kBudget = 1.1;
constexpr int kRepeats = 5;  // wall-clock medians; more repeats steady them on a shared machine

void bench_one(const std::string& id, long n, int d, long trials) {
  dpb::verify::AuditSpec spec;
  spec.algorithm = id;
  spec.n = n;
  spec.d = d;
  spec.trials = trials;
  spec.privacy = {0.5, 1e-5};

  const auto& registry = dpb::alg::algorithm_registry();
  const auto& entry = registry.find(id);
  const auto estimator = registry.make(id, {});
  dpb::core::Rng model_rng(1, 0), data_rng(2, 0);
  const auto model = dpb::core::make_model(spec.model, {{"d", double(d)}, {"r", 1.0}}, model_rng);
  const auto pair =
      dpb::verify::make_neighbours(dpb::verify::NeighbourKind::huge_norm, id, *model, n, 0, 10, data_rng);
  const auto data_d = dpb::verify::trial_data_from_vectors(pair.X);
  const auto data_d_prime = dpb::verify::trial_data_from_vectors(pair.X_prime);
  const auto in_d = dpb::verify::make_input(entry, data_d, 1, spec.privacy, &model->info());
  const auto in_d_prime = dpb::verify::make_input(entry, data_d_prime, 1, spec.privacy, &model->info());

  double sink = 0;
  const double bare = dpb::bench::median_seconds(
      [&] {
        for (long run = 0; run < trials; ++run) {
          dpb::core::Rng rng_d(3, std::uint64_t(2 * run)), rng_d_prime(3, std::uint64_t(2 * run + 1));
          sink += estimator->run(in_d, rng_d).Q->norm() + estimator->run(in_d_prime, rng_d_prime).Q->norm();
        }
      },
      kRepeats);
  const double audit =
      dpb::bench::median_seconds([&] { sink += dpb::verify::run_audit(spec).loss.epsilon_lower; }, kRepeats);
  dpb::bench::print_ratio(fmt::format("audit {} (n {}, d {}, T {})", id, n, d, trials), audit, bare, kBudget);
  fmt::print("  (checksum {:g})\n", sink);
}

}  // namespace

int main() {
  fmt::print("audit time over the time of its 2T bare mechanism runs (median of {})\n", kRepeats);
  bench_one("baseline.dp_gauss_1", 2000, 20, 1000);
  bench_one("cai2024.gaussian_mechanism", 2000, 20, 1000);
  bench_one("liu2022.private_oja", 2000, 20, 500);
  return 0;
}
