#include "bench/support/prepared_trial.hpp"

#include <Eigen/Dense>
#include <benchmark/benchmark.h>
#include <algorithm>
#include <ctime>
#include <map>
#include <tuple>
#include <vector>

#include "bench/support/timing.hpp"
#include "core/linalg.hpp"
#include "core/rng.hpp"

namespace dpb::bench {
namespace {

using Key = std::tuple<std::string, long, long, int, bool>;  // model, n, d, k, needs vectors

// The floor's work once: the trial's data, and for the covariance family S = X X^T / n and its top k
// eigenpairs by core::top_eigenpairs (the Lanczos solver from d = 200 on, as the algorithms use).
void generate_floor_work(const AlgorithmCase& c, const core::Model& model, const alg::AlgorithmEntry& entry,
                         const Size& size, core::Rng& rng) {
  const auto data = verify::draw_trial_data(model, entry, size.n, rng);
  if (c.family == Family::oja) return;
  const Eigen::MatrixXd S = core::second_moment(*data.X);
  benchmark::DoNotOptimize(core::top_eigenpairs(S, size.k));
}

}  // namespace

const PreparedTrial& prepared_trial(const AlgorithmCase& c, const Size& size) {
  static std::map<Key, PreparedTrial> cache;
  const auto& entry = alg::algorithm_registry().find(c.id);
  const bool vectors = entry.needs == alg::DataNeed::vectors;
  const Key key{c.model, size.n, size.d, size.k, vectors};
  if (const auto it = cache.find(key); it != cache.end()) {
    it->second.input.privacy = privacy(c, size);  // the data are shared; the budget is each case's own
    return it->second;
  }
  // A new model or size: drop the data of the previous one (at n = 1e5, d = 200 it is 160 MB).
  std::erase_if(cache, [&](const auto& kv) {
    return std::tie(std::get<0>(kv.first), std::get<1>(kv.first), std::get<2>(kv.first), std::get<3>(kv.first)) !=
           std::tie(c.model, size.n, size.d, size.k);
  });

  PreparedTrial trial;
  core::Rng model_rng(1, 0);
  trial.model = core::make_model(c.model, model_params(c, size), model_rng);
  core::Rng data_rng(3, 0);
  trial.data = verify::draw_trial_data(*trial.model, entry, size.n, data_rng);
  // The input points into the data: build it where the data will stay.
  auto& stored = cache.emplace(key, std::move(trial)).first->second;
  stored.input = verify::make_input(entry, stored.data, size.k, privacy(c, size), &stored.model->info());
  return stored;
}

double floor_seconds(const AlgorithmCase& c, const PreparedTrial& trial, const Size& size) {
  const auto& entry = alg::algorithm_registry().find(c.id);
  std::uint64_t draw = 0;
  return median_seconds([&] {
    core::Rng rng(2, ++draw);
    generate_floor_work(c, *trial.model, entry, size, rng);
  });
}

}  // namespace dpb::bench
