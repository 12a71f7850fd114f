#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "algorithms/registry.hpp"
#include "bounds/papers.hpp"
#include "core/errors.hpp"
#include "support/theorem_lookup.hpp"

using dpb::bounds::Params;
using dpb::bounds::Theorem;
using namespace dpb::test;

namespace {

const Theorem& kumar2025_upper(const std::string& id) {
  static const auto all = dpb::bounds::kumar2025_upper_bounds();
  return find_theorem(all, id);
}

bool kumar2025_holds(const std::string& id, const std::string& name, const Params& x) {
  return find_condition(kumar2025_upper(id), name).holds(x);
}

}  // namespace

TEST_CASE("kumar2025 upper bounds: the catalogue's shape and every example inside its domain",
          "[kumar2025]") {
  const auto all = dpb::bounds::kumar2025_upper_bounds();
  REQUIRE(all.size() == 10);  // Thm 1, 3, 6, Lemma 39 and the six upper-bound cells of Tables 1-2
  for (const auto& t : all) {
    INFO(t.id);
    CHECK(t.kind == dpb::bounds::Kind::upper);
    for (const auto& algorithm : t.applies) CHECK_NOTHROW(dpb::alg::algorithm_registry().find(algorithm));
    CHECK(t.setting.rfind("kumar2025.", 0) == 0);
    // Cells citing other papers ([BL09], [WX21]) apply to no dpbounds algorithm; the rest must.
    if (t.source.back() == ']') {
      CHECK(t.applies.empty());
      CHECK(t.rate(t.example) > 0);
    } else {
      check_catalogue_entry(t);
    }
  }
}

TEST_CASE("kumar2025 table cells: ours copy the theorem's rate, cited ones read as errors", "[kumar2025]") {
  const auto& thm1 = kumar2025_upper("kumar2025.thm1");
  const auto& ours = kumar2025_upper("kumar2025.table1.upper.ours");
  CHECK(ours.rate(thm1.example) == thm1.rate(thm1.example));
  CHECK(ours.source.substr(ours.source.size() - 8) == ": Thm. 1");
  // [WX21], Table 1: sigma^2 k sqrt(d log(d/delta)/n)/eps at n = 1e5, d = 100, k = 4, delta = 1e-5, eps = 1,
  // sigma^2 = 5: 5 * 4 * sqrt(100 * log(1e7) / 1e5) = 20 * sqrt(0.0161181) = 2.539141.
  CHECK(kumar2025_upper("kumar2025.table1.upper.prior").rate(thm1.example) == Approx(2.539141).epsilon(1e-6));
  // [BL09], Table 2: k sqrt(log d / n) = 4 sqrt(4.6051702 / 1e5) = 0.0271446.
  CHECK(kumar2025_upper("kumar2025.table2.upper.nonprivate").rate(thm1.example) ==
        Approx(0.0271446).epsilon(1e-5));
}

TEST_CASE("kumar2025 Thm 1: the rate at two points, computed by hand", "[kumar2025]") {
  const auto& t = kumar2025_upper("kumar2025.thm1");
  // A: n = 1e5, d = 100, k = 4, eps = 1, delta = 1e-5, beta = 0.05, sigma^2 = 5.
  //   k sqrt(log(d/beta)/n) = 4 sqrt(log 2000 / 1e5) = 4 * sqrt(7.6009025e-5) = 0.0348733
  //   k^{3/2} sqrt(d) log(nd/beta) log(d/beta) log(d/delta)/(n eps) = 8 * 10 * log(2e8) * log(2000) *
  //   log(1e7) / 1e5
  //     = 80 * 19.113828 * 7.6009025 * 16.118096 / 1e5 = 1.8733397
  //   sigma^2 (sum) = 5 * 1.9082130 = 9.5410650
  CHECK(t.rate(
            {{"n", 1e5}, {"d", 100}, {"k", 4}, {"epsilon", 1}, {"delta", 1e-5}, {"beta", 0.05}, {"sigma2", 5}}) ==
        Approx(9.5410650).epsilon(1e-6));
  // B, under the aliases p and subgaussian_sigma2 and the default beta = 0.01: n = 1e6, d = 400, k = 2,
  // eps = 0.5, delta = 1e-6, sigma^2 = 3.
  //   2 sqrt(log(40000)/1e6) = 2 * sqrt(1.0596635e-5) = 0.0065105
  //   2^{3/2} * 20 * log(4e10) * log(40000) * log(4e8) / 5e5 = 56.568542 * 24.412145 * 10.596635 * 19.806975
  //   / 5e5
  //     = 0.5796917
  //   3 * 0.5862022 = 1.7586065
  CHECK(
      t.rate({{"n", 1e6}, {"p", 400}, {"k", 2}, {"epsilon", 0.5}, {"delta", 1e-6}, {"subgaussian_sigma2", 3}}) ==
      Approx(1.7586065).epsilon(1e-6));
}

TEST_CASE("kumar2025 Thm 3, Thm 6, Lemma 39: rates computed by hand", "[kumar2025]") {
  // Thm 3: k^2 sigma^2 / (gamma lambda_1 sqrt(eps^3 n)).
  //   A: 16 * 5 / (0.4 * 5 * sqrt(1e15)) = 80 / (2 * 31622776.6) = 1.2649111e-6
  //   B: 4 * 3 / (0.2 * 2 * sqrt(0.125 * 1e8)) = 12 / (0.4 * 3535.5339) = 0.0084853
  const Params a{{"n", 1e15},     {"d", 100},    {"k", 4},       {"epsilon", 1},
                 {"delta", 1e-5}, {"sigma2", 5}, {"lambda1", 5}, {"gamma", 0.4}};
  const Params b{{"n", 1e8},      {"d", 100},    {"k", 2},       {"epsilon", 0.5},
                 {"delta", 1e-5}, {"sigma2", 3}, {"lambda1", 2}, {"gamma", 0.2}};
  CHECK(kumar2025_upper("kumar2025.thm3").rate(a) == Approx(1.2649111e-6).epsilon(1e-6));
  CHECK(kumar2025_upper("kumar2025.thm3").rate(b) == Approx(0.0084853).epsilon(1e-5));
  // Thm 6: k sigma^2 / sqrt(eps^3 n). A at n = 1e6: 4 * 5 / 1000 = 0.02; B: 2 * 3 / 3535.5339 = 0.0016971.
  CHECK(kumar2025_upper("kumar2025.thm6").rate(with(a, "n", 1e6)) == Approx(0.02));
  CHECK(kumar2025_upper("kumar2025.thm6").rate(b) == Approx(0.0016971).epsilon(1e-4));
  // Lemma 39: sqrt((sigma^2/(gamma lambda_1)) (sqrt((k/n) log(d/(k beta))) + (k^2/(eps n)) log(d/(k beta))
  // log(nd/beta))).
  //   A: n = 1e5, d = 20, k = 3, eps = 1, beta = 0.05, sigma^2 = lambda_1 = 5, gamma = 0.4:
  //     log(20/0.15) = 4.8928523; sqrt(3e-5 * 4.8928523) = 0.0121155; 9e-5 * 4.8928523 * log(4e7) = 9e-5
  //     * 4.8928523
  //     * 17.504390 = 0.0077082; sqrt(2.5 * 0.0198237) = sqrt(0.0495592) = 0.2226190
  //   B: n = 1e4, d = 30, k = 2, eps = 0.5, beta = 0.01 (default), sigma^2 = 3, lambda_1 = 2, gamma = 0.2:
  //     log(30/0.02) = 7.3132204; sqrt(2e-4 * 7.3132204) = 0.0382445; 4/5000 * 7.3132204 * log(3e7) = 8e-4
  //     * 7.3132204
  //     * 17.216708 = 0.1007277; sqrt(7.5 * 0.1389722) = sqrt(1.0422915) = 1.0209268
  CHECK(kumar2025_upper("kumar2025.lem39")
            .rate({{"n", 1e5},
                   {"d", 20},
                   {"k", 3},
                   {"epsilon", 1},
                   {"beta", 0.05},
                   {"sigma2", 5},
                   {"lambda1", 5},
                   {"gamma", 0.4}}) == Approx(0.2226190).epsilon(1e-5));
  CHECK(kumar2025_upper("kumar2025.lem39")
            .rate({{"n", 1e4},
                   {"d", 30},
                   {"k", 2},
                   {"epsilon", 0.5},
                   {"sigma2", 3},
                   {"lambda1", 2},
                   {"gamma", 0.2}}) == Approx(1.0209268).epsilon(1e-5));
}

TEST_CASE("kumar2025 conditions on both sides", "[kumar2025]") {
  const Params t1 = kumar2025_upper("kumar2025.thm1").example;
  CHECK(kumar2025_holds("kumar2025.thm1", "eps <= 1", with(t1, "epsilon", 1)));
  CHECK_FALSE(kumar2025_holds("kumar2025.thm1", "eps <= 1", with(t1, "epsilon", 1.5)));
  CHECK(kumar2025_holds("kumar2025.thm1", "k <= d", with(t1, "k", 100)));
  CHECK_FALSE(kumar2025_holds("kumar2025.thm1", "k <= d", with(t1, "k", 101)));

  const Params t3 = kumar2025_upper("kumar2025.thm3").example;
  CHECK_FALSE(kumar2025_holds("kumar2025.thm3", "0 < gamma < 1/2", with(t3, "gamma", 0.5)));
  CHECK(kumar2025_holds("kumar2025.thm3", "lambda1 <= sigma2", with(t3, "sigma2", 5)));
  CHECK_FALSE(kumar2025_holds("kumar2025.thm3", "lambda1 <= sigma2", with(t3, "sigma2", 4.9)));
  // A7: max{31, ceil(420 log(1.2e6)), ceil(62 log(160))} = max{31, 5880, 315} = 5880.
  CHECK(kumar2025_holds("kumar2025.thm3", "m (A7)", with(t3, "m", 5880)));
  CHECK_FALSE(kumar2025_holds("kumar2025.thm3", "m (A7)", with(t3, "m", 5879)));
  // Eq. 28 with m = 5880, c_tau = 8 + 4 sqrt(log 800 / log 100) = 12.819203: 34 k tau <= (gamma/16)(1 -
  // gamma/16) lambda_1 = 0.121875 needs n >= (34 * 4 * 12.819203 * 5)^2 * 5880 * log(100) * 2 / 0.121875^2
  // = 2.7705e14.
  CHECK(kumar2025_holds("kumar2025.thm3", "Eq. 28", with(t3, "n", 2.8e14)));
  CHECK_FALSE(kumar2025_holds("kumar2025.thm3", "Eq. 28", with(t3, "n", 2.7e14)));
  // The constant is exposed: n grows as c_tau^2, (30/12.819)^2 * 2.77e14 = 1.5e15 > 1e15.
  CHECK_FALSE(kumar2025_holds("kumar2025.thm3", "Eq. 28", with(t3, "c_tau", 30)));

  // Thm 6 sample size: (25/25)(16/0.16) log(20) log(100) log(1e5) log(2e6) = 100 * 2304.4199 = 230442.
  const Params t6 = kumar2025_upper("kumar2025.thm6").example;
  CHECK(kumar2025_holds("kumar2025.thm6", "sample size", with(t6, "n", 230500)));
  CHECK_FALSE(kumar2025_holds("kumar2025.thm6", "sample size", with(t6, "n", 230400)));

  const Params l39 = kumar2025_upper("kumar2025.lem39").example;
  CHECK(kumar2025_holds("kumar2025.lem39", "nnz(v1) <= k", with(l39, "nnz_v1", 3)));
  CHECK_FALSE(kumar2025_holds("kumar2025.lem39", "nnz(v1) <= k", with(l39, "nnz_v1", 4)));
  CHECK(kumar2025_holds("kumar2025.lem39", "0 < gamma <= 1", with(l39, "gamma", 1)));
  CHECK_FALSE(kumar2025_holds("kumar2025.lem39", "0 < gamma <= 1", with(l39, "gamma", 1.1)));
}

TEST_CASE("kumar2025 upper bounds: missing parameters are named", "[kumar2025]") {
  Params x = kumar2025_upper("kumar2025.thm3").example;
  x.erase("lambda1");
  CHECK_THROWS_WITH(kumar2025_upper("kumar2025.thm3").rate(x), Catch::Contains("'lambda1'"));
  x = kumar2025_upper("kumar2025.thm1").example;
  x.erase("sigma2");
  CHECK_THROWS_WITH(kumar2025_upper("kumar2025.thm1").rate(x), Catch::Contains("'sigma2'"));
  x = kumar2025_upper("kumar2025.lem39").example;
  x.erase("nnz_v1");
  CHECK_THROWS_WITH(kumar2025_upper("kumar2025.lem39").conditions.back().holds(x),
                    Catch::Contains("'nnz_v1'"));
  CHECK_THROWS_WITH(
      kumar2025_upper("kumar2025.thm1").rate(with(kumar2025_upper("kumar2025.thm1").example, "beta", 2)),
      Catch::Contains("'beta'"));
}
