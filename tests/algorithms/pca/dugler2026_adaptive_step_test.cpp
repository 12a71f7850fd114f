#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/pca/dugler2026_adaptive_step.hpp"
#include "algorithms/pca/dugler2026_support.hpp"
#include "core/errors.hpp"
#include "core/samplers.hpp"

using namespace dpb;
using namespace dpb::alg::dugler2026;
namespace dt = dpb::test::dugler;

TEST_CASE("dugler2026 adaptive step: sigma_t = c R sqrt(dk)/(B eps) sqrt(2 log(2.5/delta))", "[dugler2026]") {
  const alg::Privacy priv{0.8, 0.02, alg::Neighbours::replace};
  AdaptiveSettings s;
  for (const double c : {8.0, 12.0})
    for (const double R : {0.5, 3.0}) {
      s.noise_constant = c;
      CHECK(adaptive_noise_sigma(s, R, 10, 3, 1000, priv) ==
            Approx(c * R * std::sqrt(30.0) / (1000 * 0.8) * std::sqrt(2 * std::log(2.5 / 0.02)))
                .epsilon(1e-13));
    }
  s.noise_constant = 8;
  // The Gaussian at (eps/2, delta/2) for sensitivity (c/2) R sqrt(dk)/B.
  s.calibration = alg::GaussianCalibration::analytic;
  CHECK(adaptive_noise_sigma(s, 3.0, 10, 3, 1000, priv) ==
        alg::gaussian_sigma(alg::GaussianCalibration::analytic, 4 * 3.0 * std::sqrt(30.0) / 1000, 0.4, 0.01));
}

TEST_CASE("dugler2026 adaptive step: the batch requirement is 2 max(m_req, 2 m b) and says why",
          "[dugler2026]") {
  const alg::Privacy priv{1, 0.01, alg::Neighbours::replace};
  AdaptiveSettings s;
  const auto req = adaptive_requirement(4, 2, priv, s, 2.0);
  const Eigen::Index m_req = truncated_mean_min_samples(4, 2, alg::Budget{0.5, 0.005}, 2.0);
  for (const Eigen::Index T : {1L, 10L, 1000L}) {
    const Eigen::Index range = private_range_min_inputs(s.range, alg::Budget{1, 0.01}, 0.01 / (2.0 * static_cast<double>(T)), 4);
    CHECK(req.min_batch(T) == 2 * std::max(m_req, range));
    CHECK_THAT(req.why(T), Catch::Contains(std::to_string(m_req)) && Catch::Contains(std::to_string(range)));
  }
  CHECK(req.min_batch(1000) >= req.min_batch(1));  // zeta / (2T): more steps, more blocks
  s.block_min = AdaptiveSettings::BlockMin::one;
  CHECK(adaptive_requirement(4, 2, priv, s, 2.0).min_batch(1) <= req.min_batch(1));
  s.block_min = AdaptiveSettings::BlockMin::theory;
  CHECK(adaptive_requirement(4, 2, priv, s, 2.0).min_batch(1) >= req.min_batch(1));
}

TEST_CASE("dugler2026 adaptive step: the streamed step equals PRIVRANGE and TRUNCATEDMEAN on stored halves",
          "[dugler2026]") {
  // The optimised path produces A_i Q a block/chunk at a time (twice for the mean half); the reference
  // stores both halves and calls the stored-matrix forms. Released values, the RNG state and the ledger
  // must agree. PRIVRANGE's entry is in the range half's part, the center histograms and the Gaussian in
  // the mean half's (parts are named by their first record): each step reads its own halves.
  const long d = 5, k = 2, first = 100, B = 40000;
  const auto data = dt::shifted(d, k, 0.5, first + B + 50, 9);
  const core::SampleMatrices& S = *data.samples;
  const alg::Privacy priv{1, 0.01, alg::Neighbours::replace};
  AdaptiveSettings s;
  core::Rng qr(9, 1);
  const Eigen::MatrixXd Q = core::haar_frame(qr, d, k);
  for (const bool tangent : {false, true}) {
    AdaptiveWorkspace ws;
    ws.resize(d, k);
    core::Rng rng(10, tangent ? 1 : 0), ref_rng = rng;
    ws.name_steps("T ", "Gaussian");
    alg::Ledger ledger, ref_ledger;
    const auto tr = adaptive_mean(S, first, B, Q, tangent, 0.005, 1e6, priv, s, ws, ledger, rng);
    // Reference.
    const long half = B / 2;
    Eigen::MatrixXd G_range(d, k * half), G_mean(d, k * half), scratch;
    if (tangent) {  // Pi_Q A_i Q for every sample at once (its formula: sample_matrices_test.cpp)
      S.apply_range_tangent(first, half, Q, G_range, scratch);
      S.apply_range_tangent(first + half, half, Q, G_mean, scratch);
    } else {
      for (long i = 0; i < half; ++i) {
        auto a = G_range.middleCols(i * k, k), b = G_mean.middleCols(i * k, k);
        S.apply(first + i, Q, a);
        S.apply(first + half + i, Q, b);
      }
    }
    PrivateRangeWorkspace rws;
    const auto range = private_range(G_range, k, alg::Budget{1, 0.01}, 0.005, s.range,
                                     "T PRIVRANGE histogram (range half)", ref_ledger, rws, ref_rng);
    REQUIRE(range.Lhat);
    REQUIRE(tr.Lhat);
    CHECK(*tr.Lhat == *range.Lhat);
    const double R = s.radius_constant * s.K * std::sqrt(*range.Lhat) * std::log(1e6);
    CHECK(tr.R == R);
    TruncatedMeanWorkspace tws;
    Eigen::MatrixXd mean(d, k);
    const auto tm =
        truncated_mean(G_mean, k, R, *range.Lhat, alg::Budget{0.5, 0.005},
                       "T TRUNCATEDMEAN center histograms (mean half)", ref_ledger, mean, tws, ref_rng);
    CHECK(ws.mean == mean);
    CHECK(tr.tm.truncated_entries == tm.truncated_entries);
    CHECK(tr.tm.empty_histograms == tm.empty_histograms);
    CHECK(tr.sigma == adaptive_noise_sigma(s, R, d, k, B, priv));
    CHECK(rng() == ref_rng());  // the same number of draws
    // The ledger: PRIVRANGE at (eps, delta) over its m blocks, then the dk center histograms at
    // (eps/(2dk), delta/(2dk)) on the mean half (composed: not disjoint).
    REQUIRE(ledger.entries().size() == 2);
    REQUIRE(ref_ledger.entries().size() == 2);
    const auto& pr = ledger.entries()[0];
    const auto& centers = ledger.entries()[1];
    CHECK(pr.step == "T PRIVRANGE histogram (range half)");
    CHECK(pr.mechanism == alg::Mechanism::stability_histogram);
    CHECK(pr.part == first);
    CHECK(pr.records == static_cast<std::size_t>(range.blocks));
    CHECK(pr.calibrated_for.epsilon == 1);
    CHECK(pr.calibrated_for.delta == 0.01);
    CHECK(ref_ledger.entries()[0].part == -1);  // private_range itself records in the caller's part
    CHECK(centers.step == ref_ledger.entries()[1].step);
    CHECK(centers.part == first + half);
    CHECK(centers.uses == d * k);
    CHECK(centers.records == static_cast<std::size_t>(half));
    CHECK(centers.calibrated_for.epsilon == Approx(0.5 / (d * k)));
    CHECK(centers.calibrated_for.delta == Approx(0.005 / (d * k)));
    // The caller's Gaussian: the clamped mean's sensitivity 2 R sqrt(dk)/(B/2), sd sigma_t, (eps/2, delta/2).
    CHECK(ws.mean_noise.step == "T Gaussian (mean half)");
    CHECK(ws.mean_noise.part == first + half);
    CHECK(ws.mean_noise.sensitivity == Approx(2 * R * std::sqrt(d * k * 1.0) / half).epsilon(1e-14));
    CHECK(ws.mean_noise.noise_scale == tr.sigma);
    CHECK(ws.mean_noise.calibrated_for.epsilon == 0.5);
    CHECK(ws.mean_noise.calibrated_for.delta == 0.005);
    // The mean half's two releases compose to (eps, delta), what Lemma 2 step 4 charges it.
    alg::Ledger mean_half;
    mean_half.record(centers);
    mean_half.record(ws.mean_noise);
    CHECK(dt::within(alg::account(mean_half, 0.01, alg::Neighbours::replace), 1, 0.01));
  }
}

TEST_CASE("dugler2026 adaptive step: fallbacks skip or stop, the counters record each step", "[dugler2026]") {
  const long d = 3, k = 1;
  Eigen::MatrixXd Q0 = Eigen::MatrixXd::Zero(d, k);
  Q0(0, 0) = 1;
  const BatchPlan plan{10, 4, 10, false};
  LearningRateSettings constant;
  constant.family = LearningRateFamily::constant;
  constant.eta = 1.0;
  const LearningRate eta(constant, plan.T, 1, d, 0, 0, 0);
  SECTION("skip keeps Q_{t-1}; a step moves Q") {
    alg::Estimate e;
    const alg::Diagnostics& diag = e.diagnostics;
    int calls = 0;
    const auto Q =
        run_adaptive_steps(Q0, plan, eta, "p.", e,
                           [&](Eigen::Index first, const Eigen::MatrixXd&, Eigen::Ref<Eigen::MatrixXd> D) {
                             CHECK(first == 10 * calls);
                             ++calls;
                             AdaptiveStepTrace tr;
                             if (calls < 4) {
                               tr.skipped = true;  // BOTTOM
                               return tr;
                             }
                             tr.Lhat = 1.0;
                             tr.R = 2.0;
                             tr.sigma = 0.5;
                             D.setZero();
                             D(1, 0) = 1;  // Q + D = (1, 1, 0): normalised
                             return tr;
                           });
    CHECK(calls == 4);
    CHECK(Q(0, 0) == Approx(std::sqrt(0.5)));
    CHECK(Q(1, 0) == Approx(std::sqrt(0.5)));
    CHECK(diag.counters.at("p.steps") == 4);
    CHECK(diag.counters.at("p.bottom_ranges") == 3);
    CHECK(diag.counters.at("p.skipped_steps") == 3);
    CHECK(diag.counters.at("p.planned_steps") == 4);
    CHECK(diag.counters.at("p.zero_ranges") == 0);  // recorded at 0, not missing
    CHECK(diag.counters.at("p.sigma_4") == 0.5);
    CHECK(diag.counters.count("p.sigma_3") == 0);  // skipped steps release no Gaussian
    // Said to a user too (the skips follow from released histograms only): 3 of 4 skipped, Q moved.
    REQUIRE(e.release_notes.size() == 1);
    CHECK_THAT(e.release_notes[0], Catch::StartsWith("the p stage: 3 of its 4 steps were skipped") &&
                                       !Catch::Contains("random starting subspace"));
  }
  SECTION("stop returns Q_{t-1} at once") {
    alg::Estimate e;
    const alg::Diagnostics& diag = e.diagnostics;
    int calls = 0;
    const auto Q = run_adaptive_steps(Q0, plan, eta, "", e,
                                      [&](Eigen::Index, const Eigen::MatrixXd&, Eigen::Ref<Eigen::MatrixXd>) {
                                        ++calls;
                                        AdaptiveStepTrace tr;
                                        tr.skipped = tr.stop = true;
                                        return tr;
                                      });
    CHECK(calls == 1);
    CHECK(Q == Q0);
    CHECK(diag.counters.at("steps") == 1);
    REQUIRE(e.release_notes.size() == 1);
    CHECK_THAT(e.release_notes[0], Catch::Contains("4 of its 4 steps were skipped") &&
                                       Catch::Contains("random starting subspace"));
  }
}

TEST_CASE("dugler2026 adaptive step: schema and reading reject settings that break privacy", "[dugler2026]") {
  const auto fields = adaptive_fields("ref");
  CHECK(fields.size() >= 13);
  const auto read = fields.read(core::ParamMap{{"range_block_min", std::string("theory")},
                                               {"calibration", std::string("analytic")},
                                               {"range_fallback", std::string("stop")}},
                                "t");
  CHECK(read.block_min == AdaptiveSettings::BlockMin::theory);
  CHECK(read.calibration == alg::GaussianCalibration::analytic);
  CHECK(read.stop_on_bottom);
  CHECK_THROWS_WITH(fields.read(core::ParamMap{{"calibration", std::string("laplace")}}, "owner"),
                    Catch::Contains("owner") && Catch::Contains("laplace"));
  // The ranges that keep the privacy proof are the schema's, checked by the registry under any prefix.
  const auto& registry = alg::algorithm_registry();
  CHECK_THROWS_WITH(registry.resolve("dugler2026.adadpo", {{"noise_constant", 7.9}}),
                    Catch::Contains("noise_constant") && Catch::Contains("[8, inf]"));
  CHECK_THROWS_WITH(registry.resolve("dugler2026.two_stage", {{"refine_noise_constant", 7.9}}),
                    Catch::Contains("refine_noise_constant") && Catch::Contains("[8, inf]"));
  CHECK_THROWS_AS(registry.resolve("dugler2026.adadpo", {{"zeta", 1.0}}), InvalidArgument);
  CHECK_THROWS_AS(registry.resolve("dugler2026.tadadpo", {{"feasibility_margin", 0.5}}), InvalidArgument);
}
