#include "app/demo.hpp"

#include <cmath>
#include <fmt/format.h>
#include <fmt/ostream.h>

#include "algorithms/registry.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/metrics.hpp"
#include "core/models/model.hpp"
#include "core/params.hpp"

namespace dpb::app {
namespace {

constexpr const char* kExperiment = "demo";
constexpr const char* kPrivateAlgorithm = "baseline.dp_gauss_1";

void validate(const DemoOptions& o) {
  alg::validate(o.privacy);
  if (!(o.privacy.delta > 0)) throw InvalidArgument("demo: delta must lie in (0, 1) for the Gaussian mechanism");
  if (o.d < 2 || o.k < 1 || o.k >= o.d) throw InvalidArgument("demo: need d >= 2 and 1 <= k < d");
  if (o.ns.empty()) throw InvalidArgument("demo: need at least one sample size");
  for (long n : o.ns)
    if (n < 1) throw InvalidArgument("demo: sample sizes must be >= 1");
}

// Clip radius fixed before seeing the data (so the sensitivity bound is worst case): the typical
// norm sqrt(tr Sigma) plus four standard deviations of ||x||^2 for Gaussian x (sd = sqrt(2 tr Sigma^2)).
double clip_radius(const Eigen::MatrixXd& Sigma) {
  return std::sqrt(Sigma.trace() + 4.0 * std::sqrt(2.0 * (Sigma * Sigma).trace()));
}

}  // namespace

DemoResult demo_results(const DemoOptions& o) {
  validate(o);
  core::Rng model_rng(o.seed, core::stream_id(kExperiment, 0, "model", 0, "model"));
  const core::ParamMap params{{"d", double(o.d)}, {"r", double(o.k)}, {"lambda", o.lambda}, {"sigma2", o.sigma2}};
  const auto model = core::make_model("spiked_gaussian", params, model_rng);
  const core::ModelInfo& info = model->info();

  DemoResult result;
  result.model = fmt::format("spiked_gaussian: d = {}, r = {}, lambda = {:g}, sigma2 = {:g} (Haar U)", o.d, o.k,
                             o.lambda, o.sigma2);
  result.clip_radius = clip_radius(info.Sigma);
  const auto private_pca = alg::algorithm_registry().make(
      kPrivateAlgorithm, {{"beta", result.clip_radius},
                          {"calibration", std::string("analytic")},
                          {"mode", std::string("corrected")}});
  const core::NormSpec fro{core::Norm::fro};

  for (std::size_t cell = 0; cell < o.ns.size(); ++cell) {
    const long n = o.ns[cell];
    core::Rng data_rng(o.seed, core::stream_id(kExperiment, cell, "data", 0, "data"));
    core::Rng noise_rng(o.seed, core::stream_id(kExperiment, cell, kPrivateAlgorithm, 0, "noise"));
    const Eigen::MatrixXd X = model->sample(n, data_rng);

    DemoRow row{n};
    const Eigen::MatrixXd nonprivate = core::top_eigenpairs(core::second_moment(X), o.k).vectors;
    row.nonprivate_error = core::projector_distance(nonprivate, info.target, fro);

    alg::Input in;
    in.X = &X;
    in.k = o.k;
    in.privacy = o.privacy;
    const alg::Estimate estimate = private_pca->run(in, noise_rng);
    row.private_error = core::projector_distance(*estimate.Q, info.target, fro);
    // DP-Gauss-1 adds its noise to the sum of the x x^T; per entry of the mean that is sd / n.
    const auto& counters = estimate.diagnostics.counters;
    row.noise_sigma = counters.at("noise_sd") / double(n);
    row.clipped_fraction = counters.count("clipped") ? counters.at("clipped") / double(n) : 0.0;
    result.claim = estimate.claim;
    result.rows.push_back(row);
  }
  return result;
}

void run_demo(const DemoOptions& options, std::ostream& out) {
  const DemoResult r = demo_results(options);
  fmt::print(out, "dpbounds demo (seed {})\n", options.seed);
  fmt::print(out, "model    {}\n", r.model);
  fmt::print(out, "private  {} (Analyze-Gauss on the clipped second moment), clip radius C = {:.3f}\n",
             kPrivateAlgorithm, r.clip_radius);
  fmt::print(out, "claim    {}\n\n", alg::describe(r.claim));
  fmt::print(out, "error = ||U_hat U_hat^T - U U^T||_F (0 is perfect, sqrt(2k) = {:.3f} is orthogonal)\n\n",
             std::sqrt(2.0 * options.k));
  fmt::print(out, "{:>8}  {:>12}  {:>12}  {:>12}  {:>8}\n", "n", "non-private", "private", "noise sd", "clipped");
  for (const auto& row : r.rows)
    fmt::print(out, "{:>8}  {:>12.4f}  {:>12.4f}  {:>12.3e}  {:>7.2f}%\n", row.n, row.nonprivate_error,
               row.private_error, row.noise_sigma, 100.0 * row.clipped_fraction);
  fmt::print(out, "\nBoth errors shrink as n grows; the private one pays for its noise, whose sd falls as 1/n.\n");
}

std::uint64_t parse_seed(const std::string& text) {
  const double v = core::parse_number(text, "seed");
  if (v < 0 || v != std::floor(v) || v > 9007199254740992.0)
    throw InvalidArgument(fmt::format("seed must be an integer in [0, 2^53], got '{}'", text));
  return static_cast<std::uint64_t>(v);
}

}  // namespace dpb::app
