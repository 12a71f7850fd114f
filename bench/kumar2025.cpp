// Benchmark (not a test): kumar2025.priv_cov (constants=scaled_not_private) and kumar2025.priv_pca
// (scaled, m = 20 blocks) per trial at n = 20000, d = 100, k = 5 on sparse_block_spike, against the floor of
// DESIGN §7: generating the trial's data. priv_cov is O(n d^2 + d^2 log) (one rank update plus d noisy rows);
// priv_pca is O(n d^2 + m d^3 + m^2 d^2) (block moments, certification eigenproblems, friend counts), so it
// is reported next to data generation and to data generation + one sample covariance.
#include <fmt/format.h>
#include <Eigen/Dense>
#include <string>

#include "algorithms/registry.hpp"
#include "bench/timing.hpp"
#include "core/linalg.hpp"
#include "core/models/model.hpp"
#include "core/rng.hpp"

int main() {
  const Eigen::Index n = 20000, d = 100, k = 5;
  dpb::core::Rng model_rng(1, 1);
  const auto model =
      dpb::core::make_model("sparse_block_spike", {{"d", double(d)}, {"k", double(k)}}, model_rng);
  const std::string scaled = "scaled_not_private";
  const auto cov = dpb::alg::algorithm_registry().make("kumar2025.priv_cov", {{"constants", scaled}});
  const auto pca = dpb::alg::algorithm_registry().make("kumar2025.priv_pca", {{"constants", scaled},
                                                                              {"scaled_noise_factor", 1e-5},
                                                                              {"m", 20.0},
                                                                              {"c_tau", 2.0},
                                                                              {"final_threshold", 1.0}});

  std::uint64_t trial = 0;
  double sink = 0;
  const double data_seconds = dpb::bench::median_seconds([&] {
    dpb::core::Rng rng(2, ++trial);
    sink += model->sample(n, rng)(0, 0);
  });
  const double covariance_seconds = dpb::bench::median_seconds([&] {
    dpb::core::Rng rng(2, ++trial);
    sink += dpb::core::second_moment(model->sample(n, rng))(0, 0);
  });

  dpb::core::Rng data_rng(3, 0);
  const Eigen::MatrixXd X = model->sample(n, data_rng);
  dpb::alg::Input in;
  in.X = &X;
  in.k = static_cast<int>(k);
  in.privacy = {1.0, 1e-5};
  in.oracle = &model->info();
  const double cov_seconds = dpb::bench::median_seconds([&] {
    dpb::core::Rng rng(4, ++trial);
    sink += (*cov->run(in, rng).Sigma)(0, 0);
  });
  double bottoms = 0;
  const double pca_seconds = dpb::bench::median_seconds([&] {
    dpb::core::Rng rng(5, ++trial);
    bottoms += pca->run(in, rng).diagnostics.counters.at("bottom");
  });

  fmt::print("kumar2025 at n = {}, d = {}, k = {} (sparse_block_spike; constants={})\n", n, d, k, scaled);
  dpb::bench::print_ratio("floor: data generation", data_seconds, data_seconds, 1.0);
  dpb::bench::print_ratio("data + sample covariance", covariance_seconds, data_seconds, 2.0);
  dpb::bench::print_ratio("kumar2025.priv_cov (scaled)", cov_seconds, data_seconds, 2.0);
  dpb::bench::print_ratio("kumar2025.priv_pca (scaled, m = 20)", pca_seconds, data_seconds, 3.0);
  fmt::print("(priv_pca BOTTOM in {} of 5 timed runs; sink {:.3g})\n", bottoms, sink);
  return 0;
}
