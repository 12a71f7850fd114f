#include "algorithms/mechanisms/exponential_mechanism.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "support/statistics.hpp"
#include "core/errors.hpp"

using namespace dpb::alg;

namespace {
Ledger scratch;  // where releases whose ledger a test does not read are recorded
}  // namespace

TEST_CASE("exponential mechanism probabilities are the softmax of eps q / (2 Delta)", "[mechanisms]") {
  // eps = 2, Delta = 1: p_r proportional to e^{q_r}. By hand for q = (0, 1, 2, 3):
  // sum = 1 + e + e^2 + e^3 = 31.19287, so p_3 = 20.08554 / 31.19287 = 0.6439142.
  const std::vector<double> q{0, 1, 2, 3};
  const auto p = exponential_mechanism_probabilities(q, 2.0, 1.0);
  const double total = 1 + std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  for (std::size_t r = 0; r < q.size(); ++r) CHECK(p[r] == Approx(std::exp(q[r]) / total).epsilon(1e-14));
  CHECK(p[3] == Approx(0.6439142).epsilon(1e-6));
  // Only eps / Delta matters, and adding a constant to every score changes nothing.
  const auto same =
      exponential_mechanism_probabilities(std::vector<double>{1e15, 1e15 + 2, 1e15 + 4, 1e15 + 6}, 4.0, 4.0);
  for (std::size_t r = 0; r < q.size(); ++r) CHECK(same[r] == Approx(p[r]).epsilon(1e-14));
}

TEST_CASE("exponential mechanism selection frequencies match the probabilities", "[mechanisms]") {
  const std::vector<double> q{0.3, -1.0, 2.0, 1.2, 2.0};
  const double eps = 1.5, sensitivity = 0.8;
  const auto p = exponential_mechanism_probabilities(q, eps, sensitivity);
  constexpr int kRuns = 100000;
  std::vector<int> hits(q.size());
  dpb::core::Rng rng(17, dpb::core::hash_name("exponential mechanism"));
  for (int run = 0; run < kRuns; ++run) ++hits[exponential_mechanism(q, Privacy{eps, 0}, sensitivity, "selection", scratch, rng)];
  // Per-class Bernstein bound at level 1e-6: half-width <= 0.0083 here, while dropping the 1/2 in
  // the exponent moves the largest probabilities from 0.366 to 0.441.
  for (std::size_t r = 0; r < q.size(); ++r) {
    const double freq = hits[r] / double(kRuns);
    CAPTURE(r, p[r], freq);
    CHECK(std::abs(freq - p[r]) <= dpb::test::bernstein_halfwidth(p[r], kRuns, 1e-6));
  }
}

TEST_CASE("exponential mechanism survives huge scores", "[mechanisms]") {
  dpb::core::Rng rng(19, 19);
  // A difference of 1e300 (times eps/(2 Delta) = 1e5) would overflow exp(); the winner is certain.
  const std::vector<double> far{-1e300, 1e300, 0.0};
  for (int run = 0; run < 100; ++run) CHECK(exponential_mechanism(far, Privacy{2e5, 0}, 1.0, "selection", scratch, rng) == 1);
  CHECK(exponential_mechanism_probabilities(far, 2e5, 1.0) == std::vector<double>{0, 1, 0});
  // The difference itself overflows to -inf: probability exactly 0, never NaN.
  const std::vector<double> extreme{1.7e308, -1.7e308};
  CHECK(exponential_mechanism_probabilities(extreme, 1.0, 1.0) == std::vector<double>{1, 0});
  CHECK(exponential_mechanism(extreme, Privacy{1.0, 0}, 1.0, "selection", scratch, rng) == 0);
  // Equal huge scores: uniform.
  const std::vector<double> equal{1e300, 1e300};
  CHECK(exponential_mechanism_probabilities(equal, 1.0, 1e-300) == std::vector<double>{0.5, 0.5});
}

TEST_CASE("exponential mechanism validates its inputs", "[mechanisms]") {
  dpb::core::Rng rng(1, 1);
  const std::vector<double> ok{1, 2};
  CHECK_THROWS_AS(exponential_mechanism(std::vector<double>{}, Privacy{1.0, 0}, 1.0, "selection", scratch, rng), dpb::InvalidArgument);
  CHECK_THROWS_AS(exponential_mechanism(std::vector<double>{1, std::nan("")}, Privacy{1.0, 0}, 1.0, "selection", scratch, rng),
                  dpb::InvalidArgument);
  CHECK_THROWS_AS(
      exponential_mechanism(std::vector<double>{1, std::numeric_limits<double>::infinity()}, Privacy{1.0, 0}, 1.0, "selection", scratch, rng),
      dpb::InvalidArgument);
  CHECK_THROWS_AS(exponential_mechanism(ok, Privacy{0.0, 0}, 1.0, "selection", scratch, rng), dpb::InvalidArgument);
  CHECK_THROWS_AS(exponential_mechanism(ok, Privacy{-1.0, 0}, 1.0, "selection", scratch, rng), dpb::InvalidArgument);
  CHECK_THROWS_AS(exponential_mechanism(ok, Privacy{1.0, 0}, 0.0, "selection", scratch, rng), dpb::InvalidArgument);
  CHECK_THROWS_AS(exponential_mechanism(ok, Privacy{1.0, 0}, -2.0, "selection", scratch, rng), dpb::InvalidArgument);
  CHECK_THROWS_AS(exponential_mechanism_probabilities(ok, 1.0, std::nan("")), dpb::InvalidArgument);
  CHECK(exponential_mechanism(std::vector<double>{5.0}, Privacy{1.0, 0}, 1.0, "selection", scratch, rng) == 0);
}

TEST_CASE("exponential_mechanism records its release in the ledger", "[mechanisms][privacy]") {
  // Temperature 2 Delta_q / eps: the accountant reads eps = 2 Delta_q / temperature back from it.
  Ledger ledger;
  dpb::core::Rng rng(1, 9);
  const std::vector<double> q{0, 1, 2};
  exponential_mechanism(q, Privacy{0.8, 0, Neighbours::replace}, 0.25, "pick", ledger, rng);
  exponential_mechanism(q, Privacy{0.8, 0, Neighbours::replace}, 0.25, "pick", ledger, rng);
  REQUIRE(ledger.entries().size() == 1);
  const LedgerEntry& e = ledger.entries().front();
  CHECK(e.uses == 2);
  CHECK(e.mechanism == Mechanism::exponential);
  CHECK(e.noise_scale == Approx(2 * 0.25 / 0.8));
  CHECK(e.calibrated_for.epsilon == 0.8);
}
