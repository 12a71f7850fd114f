#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "bounds/theorem.hpp"
#include "core/errors.hpp"
#include "lowerbounds/papers.hpp"
#include "support/theorem_lookup.hpp"

using dpb::bounds::Params;
using dpb::bounds::Theorem;
using namespace dpb::test;

namespace {

const Theorem& lower(const std::string& id) {
  static const auto all = dpb::lower::cai2024_lower_bounds();
  return find_theorem(all, id);
}

bool holds(const Theorem& t, const std::string& name, const Params& x) {
  return find_condition(t, name).holds(x);
}

const std::string kSuffixes[] = {"q1", "q2", "qinf"};

// A: n = 20000, p = 50, r = 2, lambda = 10, sigma^2 = 1, eps = 1, delta = 1e-30.
Params point_a() {
  return {{"n", 20000}, {"p", 50}, {"r", 2}, {"lambda", 10}, {"sigma2", 1}, {"epsilon", 1}, {"delta", 1e-30}};
}
// B, under the verifier's aliases d and k: n = 5000, p = 100, r = 1, lambda = 4, sigma^2 = 2, eps = 0.5.
Params point_b() {
  return {{"n", 5000}, {"d", 100}, {"k", 1}, {"lambda", 4}, {"sigma2", 2}, {"epsilon", 0.5}, {"delta", 1e-30}};
}
// Far too few samples: n = 10, p = 100, r = 1, lambda = sigma^2 = 1, eps = 0.1.
Params saturating_point() {
  return {{"n", 10}, {"p", 100}, {"r", 1}, {"lambda", 1}, {"sigma2", 1}, {"epsilon", 0.1}, {"delta", 1e-9}};
}

}  // namespace

TEST_CASE("cai2024 lower bounds: the catalogue's shape and every example inside its domain", "[cai2024]") {
  const auto all = dpb::lower::cai2024_lower_bounds();
  CHECK(all.size() == 6);
  for (const auto& t : all) {
    INFO(t.id);
    CHECK(t.kind == dpb::bounds::Kind::lower);
    CHECK(t.applies == std::vector<std::string>{"(eps,delta)-DP"});
    CHECK(t.setting == "cai2024.spiked_covariance");
    CHECK_FALSE(t.semantics.high_probability);
    CHECK(t.loss.normalized_by_rank);
    check_catalogue_entry(t);
    REQUIRE(t.explicit_value);
    CHECK((*t.explicit_value)(t.example) > 0);
  }
}

TEST_CASE("cai2024 Thm 4.1: the rate at two points, computed by hand, for every q", "[cai2024]") {
  for (const auto& q : kSuffixes) {
    const auto& t = lower("cai2024.thm4.1." + q);
    // A: sqrt(sigma^2 (lambda + sigma^2))/lambda = sqrt(11)/10 = 0.3316625;
    //    sqrt(p/n) + p sqrt(r)/(n eps) = 0.05 + 50 * 1.4142136 / 20000 = 0.0535355; product 0.0177557.
    CHECK(t.rate(point_a()) == Approx(0.0177557).epsilon(1e-5));
    // B: sqrt(2 * 6)/4 = 0.8660254; sqrt(100/5000) + 100/(5000 * 0.5) = 0.1414214 + 0.04 = 0.1814214;
    //    product 0.1571155.
    CHECK(t.rate(point_b()) == Approx(0.1571155).epsilon(1e-5));
    // Saturation: sqrt(2) (3.16 + 100) >> 1, so the rate is 1.
    CHECK(t.rate(saturating_point()) == 1);
  }
}

TEST_CASE("cai2024 Thm 4.2: the rate at two points, computed by hand, for every q", "[cai2024]") {
  for (const auto& q : kSuffixes) {
    const auto& t = lower("cai2024.thm4.2." + q);
    // A: lambda (sqrt(r/n) + r^{3/2}/(n eps)) = 10 (0.01 + 2.8284271/20000) = 0.1014142;
    //    sqrt(sigma^2 (lambda + sigma^2)) (sqrt(p/n) + p sqrt(r)/(n eps)) = 3.3166248 * 0.0535355 =
    //    0.1775573; sum 0.2789715 < lambda.
    CHECK(t.rate(point_a()) == Approx(0.2789715).epsilon(1e-5));
    // B: 4 (0.0141421 + 1/2500) = 0.0581685; sqrt(12) * 0.1814214 = 0.6284622; sum 0.6866307.
    CHECK(t.rate(point_b()) == Approx(0.6866307).epsilon(1e-5));
    // Saturates at lambda = 1.
    CHECK(t.rate(saturating_point()) == 1);
  }
}

TEST_CASE("cai2024 lower bounds: each condition on both sides, missing parameters are named", "[cai2024]") {
  const auto& t = lower("cai2024.thm4.1.q2");
  Params x = t.example;  // n = 100, p = 12, r = 4: c0 (eps sqrt(npr) + pr) = 0.1 (69.28 + 48) = 11.73
  CHECK(holds(t, "C-r", x));
  x["r"] = 7;
  CHECK_FALSE(holds(t, "C-r", x));
  x = t.example;  // delta <= exp(2 - 11.73) = 5.9e-5
  x["delta"] = 5e-5;
  CHECK(holds(t, "delta", x));
  x["delta"] = 7e-5;
  CHECK_FALSE(holds(t, "delta", x));
  x["c0_delta"] = 0.05;  // exp(2 - 5.86) = 2.1e-2
  CHECK(holds(t, "delta", x));

  x = t.example;
  x.erase("lambda");
  CHECK_THROWS_WITH(t.rate(x), Catch::Contains("'lambda'"));
  x = t.example;
  x.erase("p");
  CHECK_THROWS_WITH(t.rate(x), Catch::Contains("'p'"));
  CHECK_THROWS_AS((*t.explicit_value)(x), dpb::InvalidArgument);
}

TEST_CASE("cai2024 lower bounds: explicit values from the built packing", "[cai2024][slow]") {
  for (const auto& q : kSuffixes) {
    INFO(q);
    const auto& pca = lower("cai2024.thm4.1." + q);
    const auto& cov = lower("cai2024.thm4.2." + q);
    const Params x = pca.example;
    const double value = (*pca.explicit_value)(x);
    // ||P_i - P_j||_q / r^{1/q} <= (2r)^{1/q} / r^{1/q} = 2^{1/q}: no lower bound may exceed it.
    const double qv = q == "q1" ? 1 : q == "q2" ? 2 : INFINITY;
    CHECK(value <= std::pow(2.0, 1 / qv));
    // Family (i) of Thm 4.2 is Thm 4.1's family measured in lambda ||P_i - P_j||_q; (ii) can only add (r =
    // 4).
    CHECK((*cov.explicit_value)(x) >= 10 * value * (1 - 1e-12));
    Params rank_two = x;
    rank_two["r"] = 2;  // r < 4: family (ii) does not exist, so the two agree exactly
    CHECK((*cov.explicit_value)(rank_two) == Approx(10 * (*pca.explicit_value)(rank_two)).epsilon(1e-12));
    // More samples cannot raise a lower bound.
    Params more = x;
    more["n"] = 1e4;
    CHECK((*pca.explicit_value)(more) <= value);
  }
  Params square = lower("cai2024.thm4.1.q2").example;
  square["p"] = 8;  // p = 2r: O_{p-r, r} is a single point
  CHECK_THROWS_WITH((*lower("cai2024.thm4.1.q2").explicit_value)(square), Catch::Contains("p > 2r"));
}
