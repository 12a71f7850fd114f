#include "algorithms/external/external_command.hpp"

#include <fmt/format.h>
#include <catch2/catch.hpp>
#include <limits>
#include <thread>

#include "algorithms/registry.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/samplers.hpp"
#include "example_program.hpp"

using dpb::alg::Estimate;
using dpb::alg::Estimator;
using dpb::alg::Input;

namespace {

constexpr int kD = 6, kN = 200, kK = 2;

std::unique_ptr<Estimator> external(const dpb::core::ParamMap& params) {
  return dpb::alg::algorithm_registry().make("external.command", params);
}

std::string example(const std::string& mode, double noise_sd = 0) {
  return fmt::format("'{}' {} {}", dpb::test::example_program(), mode, noise_sd);
}

// Anisotropic data with a clear top-2 subspace: column i is diag(3, 2, 1, 0.5, 0.5, 0.5) z_i.
Eigen::MatrixXd spiked_data() {
  dpb::core::Rng rng(7, 1);
  const Eigen::MatrixXd X = dpb::core::standard_normal_matrix(rng, kD, kN);
  const Eigen::VectorXd scales = (Eigen::VectorXd(kD) << 3, 2, 1, 0.5, 0.5, 0.5).finished();
  return scales.asDiagonal() * X;
}

Input input_for(const Eigen::MatrixXd& X) {
  Input in;
  in.X = &X;
  in.k = kK;
  in.privacy = {1.0, 1e-5, dpb::alg::Neighbours::replace};
  return in;
}

Estimate run_trial(const Estimator& estimator, const Eigen::MatrixXd& X, std::uint64_t stream) {
  dpb::core::Rng rng(11, stream);
  return estimator.run(input_for(X), rng);
}

}  // namespace

TEST_CASE("external.command returns the example program's exact top-k eigenvectors with noise off",
          "[external]") {
  const Eigen::MatrixXd X = spiked_data();
  const dpb::core::EigenPairs truth = dpb::core::top_eigenpairs(dpb::core::second_moment(X), kK);
  for (const std::string protocol : {"one_shot", "persistent"}) {
    INFO(protocol);
    const auto estimator = external({{"command", example("pca")}, {"protocol", protocol}});
    const Estimate estimate = run_trial(*estimator, X, 1);
    REQUIRE(estimate.Q);
    // Two eigen-solvers agree to rounding (eigengap 9 - 4 = 5 keeps the subspace well conditioned).
    CHECK((dpb::core::projector(*estimate.Q) - dpb::core::projector(truth.vectors)).norm() < 1e-10);
    REQUIRE(estimate.eigenvalues);
    CHECK((*estimate.eigenvalues - truth.values).norm() < 1e-10);
  }
}

TEST_CASE(
    "external.command: one-shot and persistent runs agree bit for bit, and the seed reaches the program",
    "[external]") {
  const Eigen::MatrixXd X = spiked_data();
  const auto one_shot = external({{"command", example("pca", 0.5)}});
  const auto persistent = external({{"command", example("pca", 0.5)}, {"protocol", "persistent"}});
  for (std::uint64_t stream = 1; stream <= 3; ++stream) {
    INFO("stream " << stream);
    CHECK(*run_trial(*one_shot, X, stream).Q == *run_trial(*persistent, X, stream).Q);
  }
  // A different rng stream sends a different seed, hence different noise.
  CHECK(*run_trial(*one_shot, X, 1).Q != *run_trial(*one_shot, X, 2).Q);
}

TEST_CASE("external.command persistent mode streams many trials through one process per thread",
          "[external]") {
  const Eigen::MatrixXd X = spiked_data();
  const auto persistent = external({{"command", example("pca")}, {"protocol", "persistent"}});
  const auto one_shot = external({{"command", example("pca")}});
  std::vector<double> pids, trials, fresh_pids;
  for (std::uint64_t stream = 1; stream <= 3; ++stream) {
    const Estimate estimate = run_trial(*persistent, X, stream);
    pids.push_back(estimate.diagnostics.counters.at("pid"));
    trials.push_back(estimate.diagnostics.counters.at("trial"));
    fresh_pids.push_back(run_trial(*one_shot, X, stream).diagnostics.counters.at("pid"));
  }
  CHECK(pids == std::vector<double>(3, pids[0]));
  CHECK(trials == std::vector<double>{1, 2, 3});
  CHECK(fresh_pids[0] != fresh_pids[1]);
  CHECK(fresh_pids[1] != fresh_pids[2]);
}

TEST_CASE("external.command persistent mode starts a fresh process after one dies", "[external]") {
  const Eigen::MatrixXd X = spiked_data();
  const auto estimator = external({{"command", example("crash_second")}, {"protocol", "persistent"}});
  const double first = run_trial(*estimator, X, 1).diagnostics.counters.at("pid");
  CHECK_THROWS_WITH(
      run_trial(*estimator, X, 2),
      Catch::Contains("closed its stdout before writing a reply line and exited with status 4"));
  const Estimate third = run_trial(*estimator, X, 3);
  CHECK(third.diagnostics.counters.at("pid") != first);
  CHECK(third.diagnostics.counters.at("trial") == 1);
}

// The seed external.command sends for run_trial(..., stream): the trial's own, which the example program
// echoes in its diagnostics, so a reply can be traced to the request it answers.
double seed_sent(std::uint64_t stream) {
  dpb::core::Rng rng(11, stream);
  return double(rng() >> 11);
}

TEST_CASE("external.command never takes a stray line or a stale reply for a trial's estimate", "[external]") {
  // Observed before protocol 2: a program printing a debugging line before some replies made the next
  // trial return the previous trial's estimate as a success. Each request now carries an id the reply must
  // echo, and any failed exchange replaces the program, so every success holds its own trial's reply.
  const Eigen::MatrixXd X = spiked_data();
  for (const std::string mode : {"stray_lines", "out_of_order"}) {
    INFO(mode);
    const auto estimator = external({{"command", example(mode)}, {"protocol", "persistent"}});
    constexpr std::uint64_t kTrials = 24;
    int succeeded = 0, failed = 0;
    for (std::uint64_t stream = 1; stream <= kTrials; ++stream) {
      try {
        const Estimate estimate = run_trial(*estimator, X, stream);
        CHECK(estimate.diagnostics.counters.at("seed") == seed_sent(stream));
        ++succeeded;
      } catch (const dpb::InvalidArgument& e) {
        const std::string why = e.what();
        INFO(why);
        CHECK((why.find("not valid JSON") != std::string::npos ||
               why.find("not this trial's request") != std::string::npos ||
               why.find("more than one line") != std::string::npos));
        ++failed;
      }
    }
    // Both kinds of trial occur: seeds are even about half the time (stray_lines), and out_of_order
    // answers every first request of a fresh program correctly and every second one stale.
    CHECK(succeeded > 0);
    CHECK(failed > 0);
  }
}

TEST_CASE("external.command turns every failure into a clean InvalidArgument naming the problem",
          "[external]") {
  const Eigen::MatrixXd X = spiked_data();
  const auto fails_with = [&](const dpb::core::ParamMap& params, const std::string& problem) {
    INFO(problem);
    CHECK_THROWS_AS(run_trial(*external(params), X, 1), dpb::InvalidArgument);
    CHECK_THROWS_WITH(run_trial(*external(params), X, 1), Catch::Contains(problem));
  };
  for (const std::string protocol : {"one_shot", "persistent"}) {
    INFO(protocol);
    fails_with({{"command", "dpbounds-no-such-program --flag"}, {"protocol", protocol}},
               "'dpbounds-no-such-program' cannot be started");
    fails_with({{"command", example("exit_nonzero")}, {"protocol", protocol}}, "simulated failure");
    fails_with({{"command", example("malformed")}, {"protocol", protocol}}, "not valid JSON");
    fails_with({{"command", example("wrong_shape")}, {"protocol", protocol}},
               "expected an array of 6 numbers");
    fails_with({{"command", example("non_finite")}, {"protocol", protocol}}, "NaN or Infinity");
  }
  fails_with({{"command", example("exit_nonzero")}}, "exited with status 3");
  fails_with({{"command", example("pca")}, {"orthonormality_tolerance", 0.0}, {"claim_scope", "worst_case"}},
             "claim_epsilon > 0");
  CHECK_THROWS_WITH(external({}), Catch::Contains("'command' is required"));
}

TEST_CASE("external.command kills a program that outlives timeout_seconds", "[external][timeout]") {
  const Eigen::MatrixXd X = spiked_data();
  for (const std::string protocol : {"one_shot", "persistent"}) {
    INFO(protocol);
    // The program sleeps 5 s; the trial must fail at the 0.3 s timeout, not wait for it.
    const auto estimator =
        external({{"command", example("sleep")}, {"protocol", protocol}, {"timeout_seconds", 0.3}});
    CHECK_THROWS_WITH(run_trial(*estimator, X, 1),
                      Catch::Contains("timeout_seconds") && Catch::Contains("killed"));
  }
}

TEST_CASE("external.command checks its input like a built-in algorithm", "[external]") {
  const auto estimator = external({{"command", example("pca")}});
  Eigen::MatrixXd X = spiked_data();
  dpb::core::Rng rng(1, 1);
  Input no_vectors = input_for(X);
  no_vectors.X = nullptr;
  CHECK_THROWS_WITH(estimator->run(no_vectors, rng), Catch::Contains("needs the data vectors"));
  Input too_many = input_for(X);
  too_many.k = kD + 1;
  CHECK_THROWS_WITH(estimator->run(too_many, rng), Catch::Contains("k must lie in [1, d = 6]"));
  X(0, 0) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_AS(estimator->run(input_for(X), rng), dpb::InvalidArgument);
}

TEST_CASE("external.command's claim is the declared one, marked user-declared", "[external]") {
  const Eigen::MatrixXd X = spiked_data();
  const auto declared = external({{"command", example("pca")},
                                  {"claim_epsilon", 2.0},
                                  {"claim_delta", 1e-6},
                                  {"claim_scope", "worst_case"},
                                  {"claim_neighbours", "add_remove"}});
  const auto claim = declared->claim(input_for(X));
  CHECK(claim.epsilon == 2.0);
  CHECK(claim.delta == 1e-6);
  CHECK(claim.scope == dpb::alg::ClaimScope::worst_case);
  CHECK(claim.neighbours == dpb::alg::Neighbours::add_remove);
  REQUIRE(!claim.conditions.empty());
  CHECK(claim.conditions[0] == "user-declared, not verified by dpbounds");
  CHECK(run_trial(*declared, X, 1).claim.epsilon == 2.0);
  // Declaring nothing claims nothing.
  CHECK(external({{"command", example("pca")}})->claim(input_for(X)).scope ==
        dpb::alg::ClaimScope::not_private);
}

TEST_CASE("external.command is registered with its schema, reading vectors", "[external][registry]") {
  const auto& entry = dpb::alg::algorithm_registry().find("external.command");
  CHECK(entry.needs == dpb::alg::DataNeed::vectors);
  CHECK_FALSE(entry.mutant);
  std::vector<std::string> names;
  for (const auto& spec : entry.params) names.push_back(spec.name);
  CHECK(names == std::vector<std::string>{"command", "protocol", "timeout_seconds", "orthonormality_tolerance",
                                          "symmetry_tolerance", "claim_epsilon", "claim_delta", "claim_scope",
                                          "claim_neighbours", "inputs"});
}

TEST_CASE("external.command persistent mode serves concurrent worker threads, one process each",
          "[external]") {
  const Eigen::MatrixXd X = spiked_data();
  const auto persistent = external({{"command", example("pca", 0.5)}, {"protocol", "persistent"}});
  const auto one_shot = external({{"command", example("pca", 0.5)}});
  constexpr int kThreads = 4, kTrialsPerThread = 3;
  std::vector<std::vector<Estimate>> results(kThreads);
  std::vector<std::string> errors(kThreads);  // an exception must not leave its thread
  std::vector<std::thread> workers;
  for (int t = 0; t < kThreads; ++t)
    workers.emplace_back([&, t] {
      try {
        for (int j = 0; j < kTrialsPerThread; ++j)
          results[std::size_t(t)].push_back(
              run_trial(*persistent, X, std::uint64_t(t * kTrialsPerThread + j)));
      } catch (const std::exception& e) {
        errors[std::size_t(t)] = e.what();
      }
    });
  for (auto& w : workers) w.join();
  for (int t = 0; t < kThreads; ++t) {
    CHECK(errors[std::size_t(t)] == "");
    const auto& mine = results[std::size_t(t)];
    REQUIRE(mine.size() == std::size_t(kTrialsPerThread));
    for (int j = 0; j < kTrialsPerThread; ++j) {
      INFO("thread " << t << ", trial " << j);
      CHECK(mine[std::size_t(j)].diagnostics.counters.at("pid") == mine[0].diagnostics.counters.at("pid"));
      CHECK(*mine[std::size_t(j)].Q == *run_trial(*one_shot, X, std::uint64_t(t * kTrialsPerThread + j)).Q);
    }
  }
}
