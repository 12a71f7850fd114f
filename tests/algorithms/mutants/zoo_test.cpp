// Each mutant is broken in the way its summary states: on the same input and noise stream, the quantity
// the break changes differs from the real algorithm's as described (a counter, the noise scale, the
// support of the noise), and nothing else about the claim changes.
#include "algorithms/mutants/zoo.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <tuple>

#include "algorithms/mutants/breaks.hpp"
#include "core/linalg.hpp"
#include "core/models/model.hpp"
#include "core/sample_matrices.hpp"

namespace {

dpb::alg::Ledger zoo_ledger;  // where the statistics record themselves; the tests read their values

using namespace dpb;

// n records of the spiked Gaussian model in dimension d (one spike), record 0 replaced by a canary of
// norm `canary_norm` along the last axis.
struct CanaryData {
  std::unique_ptr<core::Model> model;
  Eigen::MatrixXd X;
};

CanaryData canary_data(int d, long n, double canary_norm) {
  core::Rng rng(2026, 1);
  CanaryData data{core::make_model("spiked_gaussian", {{"d", double(d)}, {"r", 1.0}}, rng), {}};
  data.X = data.model->sample(n, rng);
  data.X.col(0) = canary_norm * Eigen::VectorXd::Unit(d, d - 1);
  return data;
}

alg::Input vectors_input(const CanaryData& data, int k, double eps, double delta) {
  alg::Input in;
  in.X = &data.X;
  in.k = k;
  in.privacy = {eps, delta, alg::Neighbours::replace};
  in.oracle = &data.model->info();
  return in;
}

// `stream` names the random stream (the id by default); a mutant run on its real algorithm's stream
// draws the same random start, so the two differ only where the mutant does.
alg::Estimate run(const std::string& id, const core::ParamMap& params, const alg::Input& in,
                  const std::string& stream = "") {
  core::Rng rng(17, core::stream_id("mutants-test", 0, stream.empty() ? id : stream, 0, "noise"));
  return alg::algorithm_registry().make(id, params)->run(in, rng);
}

double counter(const alg::Estimate& e, const std::string& name) {
  const auto it = e.diagnostics.counters.find(name);
  REQUIRE(it != e.diagnostics.counters.end());
  return it->second;
}

// Analyze Gauss's mutants are pinned to clip = on with the paper's noise (mode = faithful).
const core::ParamMap kClipOn = {{"clip", std::string("on")}, {"mode", std::string("faithful")}};
const core::ParamMap kClipOnFullRank = {
    {"clip", std::string("on")}, {"mode", std::string("faithful")}, {"covariance", std::string("rank_r")}};

// A = (1/n) sum_i c_i x_i x_i^T / s, c_i = min{1, s/||x_i||^2}: what baseline.dp_gauss (clip = on) adds its
// noise to. With k = d and covariance = rank_r it releases Sigma = s (A + noise).
Eigen::MatrixXd clipped_scaled_second_moment(const Eigen::MatrixXd& X, double s) {
  const double n = double(X.cols());
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(X.rows(), X.rows());
  for (Eigen::Index i = 0; i < X.cols(); ++i)
    A += std::min(1.0, s / X.col(i).squaredNorm()) * X.col(i) * X.col(i).transpose() / (n * s);
  return A;
}

// The noise an Analyze-Gauss release with k = d added: Sigma / s - A.
Eigen::MatrixXd released_noise(const std::string& id, const core::ParamMap& params, const alg::Input& in,
                               const Eigen::MatrixXd& X) {
  const alg::Estimate out = run(id, params, in);
  const double s = counter(out, "scale");
  return *out.Sigma / s - clipped_scaled_second_moment(X, s);
}

}  // namespace

TEST_CASE("every mutant names a registered real algorithm it breaks, at least two per family", "[mutants]") {
  const auto& registry = alg::algorithm_registry();
  std::map<std::string, int> per_family;
  for (const auto& e : registry.entries()) {
    CHECK(e.mutant == (e.id.rfind("mutant.", 0) == 0));
    if (!e.mutant) {
      CHECK(e.breaks.empty());
      continue;
    }
    INFO(e.id);
    REQUIRE_NOTHROW(registry.find(e.breaks));
    CHECK(!registry.find(e.breaks).mutant);
    CHECK(e.summary.rfind("MUTANT: " + e.breaks + " with ", 0) == 0);
    ++per_family[e.breaks.rfind("baseline.", 0) == 0 ? "baselines" : e.breaks.substr(0, e.breaks.find('.'))];
  }
  CHECK(per_family.size() == 5);
  for (const auto& [family, count] : per_family) {
    INFO(family);
    CHECK(count >= 2);
  }
  CHECK(alg::mutants::mutant_zoo().size() ==
        static_cast<std::size_t>(std::count_if(registry.entries().begin(), registry.entries().end(),
                                               [](const alg::AlgorithmEntry& e) { return e.mutant; })));
}

TEST_CASE("mutant.dp_gauss_no_clipping lets a huge record through unclipped", "[mutants]") {
  const CanaryData data = canary_data(4, 200, 1e3);
  const alg::Input in = vectors_input(data, 1, 1, 1e-5);
  CHECK(counter(run("baseline.dp_gauss", kClipOn, in), "clipped") == 1);
  CHECK(counter(run("mutant.dp_gauss_no_clipping", {}, in), "clipped") == 0);
  CHECK(run("mutant.dp_gauss_no_clipping", {}, in).claim.scope == alg::ClaimScope::worst_case);
}

TEST_CASE("mutant.dp_gauss_data_scale takes its scale from the data", "[mutants]") {
  const CanaryData data = canary_data(4, 200, 1e3);
  const alg::Input in = vectors_input(data, 1, 1, 1e-5);
  CHECK(counter(run("mutant.dp_gauss_data_scale", {}, in), "scale") == Approx(1e6).epsilon(1e-12));
  CHECK(counter(run("baseline.dp_gauss", kClipOn, in), "scale") < 1e3);
}

TEST_CASE("mutant.dp_gauss_inverted_eps adds the noise of budget 1/eps", "[mutants]") {
  const CanaryData data = canary_data(4, 200, 1);
  const double sd =
      counter(run("mutant.dp_gauss_inverted_eps", {}, vectors_input(data, 1, 0.25, 1e-5)), "noise_sd");
  CHECK(sd == counter(run("baseline.dp_gauss", kClipOn, vectors_input(data, 1, 4, 1e-5)), "noise_sd"));
  CHECK(sd < counter(run("baseline.dp_gauss", kClipOn, vectors_input(data, 1, 0.25, 1e-5)), "noise_sd") / 10);
}

TEST_CASE("mutant.wishart releases A + PSD noise and claims pure eps-DP", "[mutants][wishart]") {
  const CanaryData data = canary_data(3, 100, 1);
  const alg::Input in = vectors_input(data, 3, 1, 1e-5);
  const core::ParamMap full_rank = {{"covariance", std::string("rank_r")}};
  const alg::Estimate out = run("mutant.wishart", full_rank, in);
  CHECK(out.claim.epsilon == 1);
  CHECK(out.claim.delta == 0);
  const double s = counter(out, "scale");
  const Eigen::MatrixXd A = clipped_scaled_second_moment(data.X, s);
  const Eigen::MatrixXd W = *out.Sigma / s - A;
  CHECK(dpb::core::symmetric_eigenvalues(W).minCoeff() >= -1e-9);
  // The real Analyze-Gauss noise is symmetric Gaussian: some direction falls below A.
  const alg::Estimate real =
      run("baseline.dp_gauss", kClipOnFullRank, in);
  CHECK(dpb::core::symmetric_eigenvalues(*real.Sigma / s - A).minCoeff() < 0);
}

TEST_CASE("Analyze-Gauss noise mutants leave the entries they break exactly released", "[mutants]") {
  const CanaryData data = canary_data(3, 100, 1);
  const alg::Input in = vectors_input(data, 3, 1, 1e-5);
  const core::ParamMap full_rank = {{"covariance", std::string("rank_r")}};
  // The real noise has sd ~ 0.05 here (sensitivity sqrt(2)/n, eps = 1): P(|N_ij| < 1e-9) ~ 1e-8 per entry.
  constexpr double kExact = 1e-9;
  const Eigen::MatrixXd real = released_noise("baseline.dp_gauss", kClipOnFullRank, in, data.X);
  CHECK(real.diagonal().cwiseAbs().minCoeff() > kExact);
  CHECK(std::abs(real(1, 0)) > kExact);
  const Eigen::MatrixXd without_diagonal =
      released_noise("mutant.dp_gauss_noise_without_diagonal", full_rank, in, data.X);
  CHECK(without_diagonal.diagonal().cwiseAbs().maxCoeff() < kExact);
  CHECK(std::abs(without_diagonal(1, 0)) > kExact);
  const Eigen::MatrixXd not_mirrored = released_noise("mutant.dp_gauss_noise_not_mirrored", full_rank, in, data.X);
  CHECK(not_mirrored.diagonal().cwiseAbs().minCoeff() > kExact);
  Eigen::MatrixXd off_diagonal = not_mirrored;
  off_diagonal.diagonal().setZero();
  CHECK(off_diagonal.cwiseAbs().maxCoeff() < kExact);
}

TEST_CASE("mutant.dp_gauss_halved_noise adds half the real noise on the same stream", "[mutants]") {
  const CanaryData data = canary_data(3, 100, 1);
  const alg::Input in = vectors_input(data, 3, 1, 1e-5);
  auto noise_of = [&](const std::string& id, const core::ParamMap& params) {
    core::Rng rng(17, 3);
    const alg::Estimate out = alg::algorithm_registry().make(id, params)->run(in, rng);
    const double s = counter(out, "scale");
    return Eigen::MatrixXd(*out.Sigma / s - clipped_scaled_second_moment(data.X, s));
  };
  const Eigen::MatrixXd real = noise_of("baseline.dp_gauss", kClipOnFullRank);
  const Eigen::MatrixXd halved = noise_of("mutant.dp_gauss_halved_noise", {{"covariance", std::string("rank_r")}});
  CHECK(real.norm() > 0);
  CHECK((halved - 0.5 * real).norm() < 1e-9 * real.norm());
}

TEST_CASE("mutant.private_mean_no_truncation truncates nothing and keeps the real noise", "[mutants]") {
  const CanaryData data = canary_data(3, 400, 1e4);
  const alg::Input in = vectors_input(data, 1, 0.5, 1e-5);
  const alg::Estimate real = run("liu2022.private_mean", {}, in);
  const alg::Estimate mutant = run("mutant.private_mean_no_truncation", {}, in);
  CHECK(counter(real, "truncated_entries") >= 1);
  CHECK(counter(mutant, "truncated_entries") == 0);
  CHECK(counter(mutant, "sigma") == counter(real, "sigma"));
}

TEST_CASE("mutant.private_mean_data_scale takes Lambda_hat from the data", "[mutants]") {
  const CanaryData data = canary_data(3, 400, 100);
  const alg::Input in = vectors_input(data, 1, 0.5, 1e-5);
  CHECK(counter(run("mutant.private_mean_data_scale", {}, in), "lambda_hat") ==
        Approx(alg::mutants::top_sample_covariance_eigenvalue(in, "test", zoo_ledger)).epsilon(1e-12));
  CHECK(counter(run("liu2022.private_mean", {}, in), "lambda_hat") == data.model->info().eigenvalues[0]);
}

TEST_CASE("the truncated-mean mutants: no clamping, or a radius from the data", "[mutants]") {
  const CanaryData data = canary_data(2, 1000, 1e3);
  const core::VectorSamples samples(data.X);
  alg::Input in = vectors_input(data, 1, 1, 1e-5);
  in.X = nullptr;
  in.samples = &samples;
  const alg::Estimate real = run("dugler2026.truncated_mean", {}, in);
  const alg::Estimate untruncated = run("mutant.truncated_mean_no_truncation", {}, in);
  CHECK(counter(real, "truncated_entries") >= 1);
  CHECK(counter(untruncated, "truncated_entries") == 0);
  CHECK(counter(untruncated, "sigma") == counter(real, "sigma"));
  CHECK(counter(run("mutant.truncated_mean_data_radius", {}, in), "R") == Approx(1e6).epsilon(1e-12));
}

TEST_CASE("the cai2024 mutants add the noise of budget 1/eps", "[mutants]") {
  const CanaryData data = canary_data(4, 200, 1);
  const core::ParamMap analytic = {{"calibration", std::string("analytic")}};
  const auto at = [&](double eps) { return vectors_input(data, 1, eps, 1e-5); };
  CHECK(counter(run("mutant.gaussian_mechanism_inverted_eps", {}, at(0.1)), "projector_noise_sd") ==
        counter(run("cai2024.gaussian_mechanism", analytic, at(10)), "projector_noise_sd"));
  CHECK(counter(run("mutant.private_spike_inverted_eps", {}, at(0.1)), "noise_sd") ==
        counter(run("cai2024.private_spike", analytic, at(10)), "noise_sd"));
  CHECK(run("mutant.private_spike_inverted_eps", {}, at(0.1)).claim.epsilon == 0.1);
}

TEST_CASE("the kumar2025 mutants clip at the data's largest entry, so the canary is never clipped",
          "[mutants]") {
  const CanaryData data = canary_data(5, 300, 1e3);
  const alg::Input in = vectors_input(data, 1, 1, 1e-5);
  // The claims read the public sub-Gaussian proxy sigma^2 = ||Sigma||_op (Gaussian data); the mutants'
  // runs replace it (PrivCov) or the clip level it sets (Alg. 4) by the data's largest entry.
  const core::ParamMap proxy = {{"sigma2", data.model->info().eigenvalues[0]}};
  const alg::Estimate cov = run("mutant.priv_cov_data_truncation", proxy, in);
  CHECK(counter(cov, "R") == Approx(1e3).epsilon(1e-9));
  CHECK(counter(cov, "truncated_coordinates") == 0);
  CHECK(counter(run("kumar2025.priv_cov", proxy, in), "truncated_coordinates") >= 1);
  const alg::Input pure = vectors_input(data, 1, 1, 0);
  const alg::Estimate support = run("mutant.exp_mech_support_data_clip", proxy, pure);
  CHECK(counter(support, "tau") == 1e3);
  CHECK(counter(support, "clipped_coordinates") == 0);
  CHECK(counter(run("kumar2025.exp_mech_support", proxy, pure), "clipped_coordinates") >= 1);
}

TEST_CASE("the histogram mutants release every occupied bin, singletons included", "[mutants]") {
  // 40 records, one subset / block per record pair and few of them (C1 = 1: k = 19, m = 17 at eps = 1):
  // the model's pair differences spread over several log bins of a few records each. The threshold
  // 2 log(2/delta)/(eps k) + 1/k > 1.3 exceeds every frequency (<= 1), so each bin is released with
  // probability < 0.5 e^{-(1.3 - 1)/(2/17)} < 0.04, whereas the mutants release all of them.
  const CanaryData data = canary_data(2, 40, 1);
  const core::VectorSamples samples(data.X);
  alg::Input vectors = vectors_input(data, 1, 1, 1e-5), matrices = vectors;
  matrices.X = nullptr;
  matrices.samples = &samples;
  const core::ParamMap few = {{"C1", 1.0}};
  for (const auto& [real_id, mutant_id, in] :
       {std::tuple{"liu2022.private_top_eigenvalue", "mutant.top_eigenvalue_no_threshold", vectors},
        std::tuple{"dugler2026.priv_range", "mutant.priv_range_no_threshold", matrices}}) {
    INFO(mutant_id);
    // PRIVRANGE's histogram is over G = A Q for a random frame Q: the same stream gives the same bins.
    const alg::Estimate real = run(real_id, few, in), mutant = run(mutant_id, few, in, real_id);
    CHECK(counter(mutant, "occupied_bins") == counter(real, "occupied_bins"));
    CHECK(counter(mutant, "occupied_bins") >= 3);
    CHECK(counter(mutant, "released_bins") == counter(mutant, "occupied_bins"));
    CHECK(counter(real, "released_bins") < counter(real, "occupied_bins"));
    CHECK(mutant.claim.epsilon == real.claim.epsilon);
    CHECK(mutant.claim.delta == real.claim.delta);
  }
}
