#include "verify/demo.hpp"

#include <cmath>
#include <fmt/format.h>
#include <fmt/ostream.h>

#include "algorithms/mechanisms/clipping.hpp"
#include "algorithms/mechanisms/gaussian.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/metrics.hpp"
#include "core/models/model.hpp"
#include "core/params.hpp"
#include "core/samplers.hpp"

namespace dpb::verify {
namespace {

constexpr const char* kExperiment = "demo";

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
  result.claim = {o.privacy.epsilon, o.privacy.delta, alg::Neighbours::replace, alg::ClaimScope::worst_case,
                  {"each sample clipped to the l2 ball of radius C fixed in advance"}};
  const core::NormSpec fro{core::Norm::fro};

  for (std::size_t cell = 0; cell < o.ns.size(); ++cell) {
    const long n = o.ns[cell];
    core::Rng data_rng(o.seed, core::stream_id(kExperiment, cell, "data", 0, "data"));
    core::Rng noise_rng(o.seed, core::stream_id(kExperiment, cell, "analyze_gauss", 0, "noise"));
    Eigen::MatrixXd X = model->sample(n, data_rng);

    DemoRow row{n};
    const Eigen::MatrixXd nonprivate = core::top_eigenpairs(core::second_moment(X), o.k).vectors;
    row.nonprivate_error = core::projector_distance(nonprivate, info.target, fro);

    long clipped = 0;
    for (Eigen::Index i = 0; i < X.cols(); ++i) clipped += alg::l2_clip(X.col(i), result.clip_radius);
    row.clipped_fraction = double(clipped) / double(n);
    // Replacing one clipped sample moves (1/n) X X^T by at most sqrt(2) C^2 / n in Frobenius norm,
    // and the released upper triangle (with the diagonal) by no more than that.
    const double sensitivity = std::sqrt(2.0) * result.clip_radius * result.clip_radius / double(n);
    row.noise_sigma = alg::analytic_gaussian_sigma(sensitivity, o.privacy.epsilon, o.privacy.delta);
    const Eigen::MatrixXd noisy =
        core::second_moment(X) + core::symmetric_gaussian(noise_rng, o.d, row.noise_sigma);
    row.private_error = core::projector_distance(core::top_eigenpairs(noisy, o.k).vectors, info.target, fro);
    result.rows.push_back(row);
  }
  return result;
}

void run_demo(const DemoOptions& options, std::ostream& out) {
  const DemoResult r = demo_results(options);
  fmt::print(out, "dpbounds demo (seed {})\n", options.seed);
  fmt::print(out, "model    {}\n", r.model);
  fmt::print(out, "private  Gaussian mechanism on the clipped second-moment matrix, clip radius C = {:.3f}\n",
             r.clip_radius);
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

}  // namespace dpb::verify
