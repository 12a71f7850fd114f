#include "algorithms/baselines/k_dp_pca.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "algorithms/mechanisms/accountant.hpp"
#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "core/models/model.hpp"
#include "core/samplers.hpp"
#include "support/same_bits.hpp"

using namespace dpb::alg;
using Catch::Matchers::Contains;

namespace {

struct Data {
  std::unique_ptr<dpb::core::Model> model;
  std::unique_ptr<dpb::core::SampleMatrices> samples;
};

// Spiked Gaussian with two spikes 8 and 4 over sigma^2 = 1 (eigenvalues 9, 5, 1, ...).
Data two_spikes(Eigen::Index d, Eigen::Index n, std::uint64_t seed) {
  dpb::core::Rng rng(seed, 1);
  Data out;
  out.model = dpb::core::make_model(
      "spiked_gaussian",
      {{"d", static_cast<double>(d)}, {"lambdas", std::vector<double>{8, 4}}, {"sigma2", 1.0}}, rng);
  out.samples = out.model->sample_matrices(n, rng);
  return out;
}

}  // namespace

TEST_CASE("baseline.k_dp_pca deflated samples apply P A P without forming it", "[liu2022]") {
  dpb::core::Rng rng(1, 1);
  const Eigen::MatrixXd X = dpb::core::standard_normal_matrix(rng, 5, 10);
  const dpb::core::VectorSamples base(X);
  const Eigen::MatrixXd U = dpb::core::haar_frame(rng, 5, 2);
  const DeflatedSampleRange view(base, 4, 6, U);
  CHECK(view.n() == 6);
  const Eigen::MatrixXd P = Eigen::MatrixXd::Identity(5, 5) - U * U.transpose();
  const Eigen::MatrixXd Q = dpb::core::standard_normal_matrix(rng, 5, 1);
  Eigen::MatrixXd out(5, 1);
  view.apply(2, Q, out);
  const Eigen::VectorXd x = X.col(6);
  CHECK((out - P * x * x.transpose() * P * Q).norm() < 1e-12);
  // Shapes are checked before anything is read (Eigen's own checks are compiled out in a release build).
  Eigen::MatrixXd short_q(4, 1), wide_out(5, 2);
  CHECK_THROWS_WITH(view.apply(2, short_q, out), Contains("must be 5 x k"));
  CHECK_THROWS_AS(view.apply(2, Q, wide_out), dpb::InvalidArgument);
  CHECK_THROWS_WITH(view.apply(6, Q, out), Contains("sample index 6 out of range [0, 6)"));
  CHECK_THROWS_AS(DeflatedSampleRange(base, 5, 6, U), dpb::InvalidArgument);
}

TEST_CASE(
    "baseline.k_dp_pca deflated samples: the base's products, bit for bit, before any direction is found",
    "[liu2022]") {
  // Component 1 (and all of k = 1) deflates nothing: its products are the base's, taken by the base's own
  // range path; a range with directions deflated is the products sample by sample.
  dpb::core::Rng rng(2, 1);
  const Eigen::MatrixXd X = dpb::core::standard_normal_matrix(rng, 7, 40);
  const dpb::core::VectorSamples base(X);
  const Eigen::MatrixXd none(7, 0), U = dpb::core::haar_frame(rng, 7, 2);
  const Eigen::MatrixXd Q = dpb::core::haar_frame(rng, 7, 3);
  const DeflatedSampleRange first(base, 10, 20, none), later(base, 10, 20, U);
  Eigen::MatrixXd range(7, 5 * 3), expected(7, 5 * 3), one(7, 3);
  first.apply_range(4, 5, Q, range);
  base.apply_range(14, 5, Q, expected);
  CHECK(range == expected);
  first.apply(6, Q, one);
  CHECK(one == expected.middleCols(2 * 3, 3));
  later.apply_range(4, 5, Q, range);
  for (Eigen::Index l = 0; l < 5; ++l) {
    later.apply(4 + l, Q, one);
    CHECK(range.middleCols(l * 3, 3) == one);
  }
  CHECK_THROWS_AS(first.apply_range(18, 3, Q, range), dpb::InvalidArgument);
}

TEST_CASE("baseline.k_dp_pca deflated samples: one column's products have the bits of Eigen's P A P",
          "[liu2022]") {
  // A column (every Oja step) takes the sums written out (core/eigen_order.hpp); they must be the bits of the
  // Eigen expressions used for every other shape, with 1 to 4 directions deflated (Eigen's dot product, then
  // its GEMV) at d = 50, and at d = 17 below the GEMV threshold with one direction and past it with three.
  dpb::core::Rng rng(3, 1);
  for (const auto& [d, r] :
       {std::pair<Eigen::Index, Eigen::Index>{50, 1}, {50, 2}, {50, 3}, {50, 4}, {17, 1}, {17, 3}}) {
    CAPTURE(d, r);
    const Eigen::MatrixXd X = dpb::core::standard_normal_matrix(rng, d, 6);
    const dpb::core::VectorSamples base(X);
    const Eigen::MatrixXd U = dpb::core::haar_frame(rng, d, r);
    const DeflatedSampleRange view(base, 2, 4, U);
    const Eigen::MatrixXd q = dpb::core::standard_normal_matrix(rng, d, 1);
    Eigen::MatrixXd c(r, 1), projected(d, 1), product(d, 1), expected(d, 1), out(d, 1);
    c.noalias() = U.transpose() * q;
    projected = q;
    projected.noalias() -= U * c;
    base.apply(3, projected, product);
    c.noalias() = U.transpose() * product;
    expected = product;
    expected.noalias() -= U * c;
    view.apply(1, q, out);
    CHECK(dpb::test::same_bits(out, expected));
  }
}

TEST_CASE("block_ledger composes blocks of records in parallel, each block's batches as parts", "[liu2022]") {
  // Block 1 runs two steps on its two halves, block 2 the same, block 3 one step on all of its records.
  const Privacy half{0.5, 1e-6};
  Ledger a, b, c;
  for (Ledger* l : {&a, &b})
    for (std::int64_t part = 0; part < 2; ++part) {
      l->set_part(part);
      l->record(gaussian_entry("step", 1.0, 4.0, half));
    }
  c.record(gaussian_entry("whole", 1.0, 2.0, half));
  const Ledger all = block_ledger({a, b, c});
  REQUIRE(all.entries().size() == 5);
  std::vector<std::int64_t> parts;
  for (const auto& e : all.entries()) parts.push_back(e.part);
  CHECK(parts == std::vector<std::int64_t>{0, 1, 2, 3, 4});
  CHECK(all.entries()[2].step == "component 2: step");
  // Parallel composition: the whole is charged as its costliest block (block 3's noise is the smallest).
  CHECK(account(all, 1e-6, Neighbours::replace).epsilon ==
        Approx(account(c, 1e-6, Neighbours::replace).epsilon).epsilon(1e-9));
  // A block mixing batches with a step on all its records: that step composes with everything.
  Ledger mixed = a;
  mixed.set_part(-1);
  mixed.record(gaussian_entry("all of block", 1.0, 4.0, half));
  const Ledger with_mixed = block_ledger({mixed, c});
  CHECK(with_mixed.entries()[2].part == -1);
  CHECK(with_mixed.entries()[3].part == 2);
}

TEST_CASE("baseline.k_dp_pca: validation, deflation plumbing, determinism", "[liu2022]") {
  // Utility is not checked here: DP-PCA's Alg. 5 noise needs n/k in the millions per component before the
  // error drops (see dp_pca_test), which would dominate the test budget. Checked: input validation, k
  // orthonormal directions from k components on disjoint blocks, the claim, determinism for a seed.
  const auto data = two_spikes(5, 100000, 2);
  dpb::core::Rng rng(1, 1);
  Input in;
  in.samples = data.samples.get();
  in.k = 6;
  in.privacy = {0.8, 1e-6};
  in.oracle = &data.model->info();
  KDpPcaParams p;
  p.component.T = 5;
  p.component.bottom_policy = DpPcaParams::BottomPolicy::floor;  // see dp_pca_test: BOTTOM is common here
  p.component.lambda_min = 1;
  const KDpPca alg(p);
  CHECK_THROWS_WITH(alg.run(in, rng), Contains("1 <= k <= d"));
  in.k = 2;
  Input no_oracle = in;
  no_oracle.oracle = nullptr;
  CHECK_THROWS_WITH(alg.run(no_oracle, rng), Contains("oracle"));
  // Componentwise schedule (dugler2026 F.2) with oracle eigenvalues: T = 5 steps of B = 10000 per
  // component, on disjoint halves of the data.
  const auto e = alg.run(in, rng);
  REQUIRE(e.Q);
  CHECK((e.Q->transpose() * *e.Q - Eigen::MatrixXd::Identity(2, 2)).norm() < 1e-12);
  CHECK(e.diagnostics.counters.at("component 1: B") == 10000);
  CHECK(e.diagnostics.counters.at("component 2: T") == 5);
  // The ledger: both components' releases, each component's disjoint batches parts of their own (2 components
  // x 5 steps x the two halves of a minibatch), so the accountant composes them in parallel.
  std::set<std::int64_t> parts[2];
  for (const auto& entry : e.ledger.entries()) {
    const bool first = entry.step.rfind("component 1: ", 0) == 0;
    REQUIRE((first || entry.step.rfind("component 2: ", 0) == 0));
    REQUIRE(entry.part >= 0);
    parts[first ? 0 : 1].insert(entry.part);
  }
  CHECK(parts[0].size() == 10);
  CHECK(parts[1].size() == 10);
  CHECK(*parts[0].rbegin() < *parts[1].begin());
  CHECK_THAT(e.claim.conditions.at(0), Contains("parallel composition"));
  CHECK_NOTHROW(check_claim(e.ledger, e.claim, "baseline.k_dp_pca"));
  // Deterministic for a seed.
  dpb::core::Rng a(5, 5), b(5, 5);
  CHECK(*alg.run(in, a).Q == *alg.run(in, b).Q);
}
