// Issue 18: the auditor's white-box mode fixes the public start of the Oja family (alg::Input::start), so the
// step that reads the audited record first has a query the neighbours were built for.
#include <catch2/catch.hpp>

#include "algorithms/registry.hpp"
#include "core/errors.hpp"
#include "core/samplers.hpp"
#include "verify/runner/trial_input.hpp"

namespace alg = dpb::alg;

namespace {

// Small flat data, d = 4: every algorithm below accepts it at eps = 0.5, delta = 0.05.
alg::Input input_for(const alg::AlgorithmEntry& entry, const dpb::verify::TrialData& data, int k) {
  return dpb::verify::make_input(entry, data, k, {0.5, 0.05, alg::Neighbours::replace}, nullptr);
}

}  // namespace

TEST_CASE("the Oja family starts where Input::start says, and its first step reads that query", "[audit]") {
  dpb::core::Rng data_rng(2, 0);
  const auto data = dpb::verify::trial_data_from_vectors(1e-3 * dpb::core::standard_normal_matrix(data_rng, 4, 64));
  Eigen::MatrixXd start = Eigen::MatrixXd::Zero(4, 4);
  start(2, 0) = start(0, 1) = start(1, 2) = start(3, 3) = 1;  // e_2 first
  const auto& registry = alg::algorithm_registry();
  for (const auto& [id, params] :
       {std::pair<const char*, dpb::core::ParamMap>{"liu2022.private_oja", {{"lambda1", 1.0}, {"lambda2", 0.5}, {"gamma", 1.0}}},
        {"liu2022.minibatch_private_oja", {{"T", 2.0}, {"lambda1", 1.0}, {"gamma", 1.0}, {"step", std::string("constant")}, {"eta", 0.1}}},
        {"baseline.k_dp_ojas", {{"lambda1", 1.0}, {"gamma", 1.0}, {"step", std::string("constant")}, {"eta", 0.1}, {"noise_calibration", std::string("proven")}}},
        {"dugler2026.private_oja", {{"clip_radius", 1.0}}}}) {
    INFO(id);
    const auto& entry = registry.find(id);
    const auto estimator = registry.make(id, params);
    alg::Input in = input_for(entry, data, 1);
    in.record_transcript = true;
    in.start = &start;
    dpb::core::Rng rng(4, 1);
    const alg::Estimate e = estimator->run(in, rng);
    REQUIRE_FALSE(e.transcript.empty());
    CHECK(e.transcript.front().query.col(0) == start.col(0));
    // Without it, the start is the algorithm's own random draw.
    in.start = nullptr;
    dpb::core::Rng random_rng(4, 1);
    CHECK(estimator->run(in, random_rng).transcript.front().query.col(0) != start.col(0));
    // A start of the wrong shape, or not orthonormal, is refused.
    const Eigen::MatrixXd short_start = start.topRows(3), skewed = 2 * start;
    for (const Eigen::MatrixXd* bad : {&short_start, &skewed}) {
      in.start = bad;
      dpb::core::Rng bad_rng(4, 1);
      CHECK_THROWS_WITH(estimator->run(in, bad_rng), Catch::Contains("the given start"));
    }
  }
}
