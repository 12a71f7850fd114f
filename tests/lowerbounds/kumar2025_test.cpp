#include <catch2/catch.hpp>
#include <cmath>

#include "bounds/theorem.hpp"
#include "core/errors.hpp"
#include "lowerbounds/catalog.hpp"
#include "lowerbounds/constructions/kumar2025_packing.hpp"
#include "lowerbounds/papers.hpp"
#include "support/theorem_lookup.hpp"

using dpb::bounds::Params;
using dpb::bounds::Theorem;
using dpb::test::with;
using dpb::test::without;

namespace {

const std::vector<Theorem>& theorems() {
  static const std::vector<Theorem> all = dpb::lower::kumar2025_lower_bounds();
  return all;
}

const Theorem& find(const std::string& id) { return dpb::test::find_theorem(theorems(), id); }

bool kumar2025_lower_holds(const Theorem& t, const std::string& name, const Params& p) {
  return dpb::test::find_condition(t, name).holds(p);
}

}  // namespace

TEST_CASE("kumar2025 lower bounds: ids, kinds, classes, settings, examples satisfy every condition",
          "[kumar2025]") {
  const std::vector<std::string> ids = {"kumar2025.thm2",
                                        "kumar2025.thm4",
                                        "kumar2025.thm5",
                                        "kumar2025.thm7",
                                        "kumar2025.table1.lower.nonprivate",
                                        "kumar2025.table1.lower.ours",
                                        "kumar2025.table2.lower.nonprivate",
                                        "kumar2025.table2.lower.ours"};
  REQUIRE(theorems().size() == ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const Theorem& t = theorems()[i];
    CHECK(t.id == ids[i]);
    CHECK(t.kind == dpb::bounds::Kind::lower);
    CHECK(!t.latex.empty());
    CHECK(!t.hides.empty());
    CHECK(t.setting.rfind("kumar2025.model", 0) == 0);
    for (const auto& c : t.conditions) {
      INFO(t.id << ": " << c.name);
      CHECK(c.holds(t.example));
    }
    CHECK(t.rate(t.example) > 0);
  }
  CHECK(find("kumar2025.thm4").applies == std::vector<std::string>{"(eps,0)-DP"});
  CHECK(find("kumar2025.thm5").applies == std::vector<std::string>{"(eps,delta)-DP"});
  CHECK(find("kumar2025.thm7").setting == "kumar2025.model4");
  // The lower-bound catalogue carries them.
  int in_catalog = 0;
  for (const auto& t : dpb::lower::lower_bound_theorems()) in_catalog += t.id.rfind("kumar2025.", 0) == 0;
  CHECK(in_catalog == int(ids.size()));
}

TEST_CASE("kumar2025.thm2: rate by hand at two points, conditions on both sides", "[kumar2025]") {
  const Theorem& t = find("kumar2025.thm2");
  // sigma2 (k/sqrt(n) + k sqrt(d)/(n eps)):
  //   n = 1e4, d = 1000, k = 40, eps = 1, sigma2 = 10: 10 (0.4 + 40 * 31.6227766 / 1e4) = 5.26491106
  //   n = 400, d = 100, k = 20, eps = 0.5, sigma2 = 2: 2 (20/20 + 20 * 10 / 200) = 4
  CHECK(t.rate(t.example) == Approx(5.26491106).epsilon(1e-8));
  const Params q{{"n", 400}, {"p", 100}, {"k", 20}, {"epsilon", 0.5}, {"subgaussian_sigma2", 2}};  // aliases
  CHECK(t.rate(q) == Approx(4).epsilon(1e-14));
  const Params& e = t.example;
  CHECK_FALSE(kumar2025_lower_holds(t, "eps <= 1", with(e, "epsilon", 1.5)));
  CHECK(kumar2025_lower_holds(t, "delta <= eps^2/d^2", with(e, "delta", 1e-6)));  // boundary eps^2/d^2 = 1e-6
  CHECK_FALSE(kumar2025_lower_holds(t, "delta <= eps^2/d^2", with(e, "delta", 2e-6)));
  CHECK_FALSE(kumar2025_lower_holds(t, "d >= 10", with(with(e, "d", 8), "k", 4)));
  CHECK_FALSE(kumar2025_lower_holds(t, "k | d", with(e, "k", 30)));
  // (k+1)/2 (log 10 - 2) > log(d/k): k = 40: 6.20 > log 25 = 3.22; k = 5: 0.91 < log 200 = 5.30.
  CHECK_FALSE(kumar2025_lower_holds(t, "k >= C log d", with(e, "k", 5)));
  CHECK(kumar2025_lower_holds(t, "n < d e^k / eps",
                              with(e, "n", 1e20)));  // log 1e20 = 46.05 < log 1000 + 40 = 46.91
  CHECK_FALSE(kumar2025_lower_holds(t, "n < d e^k / eps", with(e, "n", 1e21)));
  CHECK_THROWS_WITH(t.rate(without(e, "epsilon")), Catch::Contains("'epsilon'"));
  CHECK_THROWS_WITH(t.rate(without(e, "sigma2")), Catch::Contains("'sigma2'"));
  CHECK_FALSE(t.explicit_value.has_value());  // universal constants unspecified
}

TEST_CASE("kumar2025.thm7: rate d/(n eps) by hand, conditions on both sides", "[kumar2025]") {
  const Theorem& t = find("kumar2025.thm7");
  CHECK(t.rate(t.example) == Approx(0.1).epsilon(1e-14));                               // 50 / (1000 * 0.5)
  CHECK(t.rate({{"n", 200}, {"d", 10}, {"epsilon", 0.25}}) == Approx(0.2).epsilon(1e-14));  // 10 / 50
  const Params& e = t.example;
  CHECK_FALSE(
      kumar2025_lower_holds(t, "delta < eps^2/d^2", with(e, "delta", 1e-4)));  // eps^2/d^2 = 1e-4, strict
  CHECK_FALSE(kumar2025_lower_holds(t, "n >= t2 d", with(e, "n", 49)));
  CHECK_FALSE(kumar2025_lower_holds(t, "e^-d < rho < t1", with(e, "n", 100)));  // rho = 50/50 = 1
  CHECK_FALSE(kumar2025_lower_holds(t, "eps < 1", with(e, "epsilon", 1)));
  CHECK_THROWS_WITH(t.rate(without(e, "n")), Catch::Contains("'n'"));
}

TEST_CASE("kumar2025.thm4: explicit value from the built Lemma 20 code, conditions on both sides",
          "[kumar2025]") {
  const Theorem& t = find("kumar2025.thm4");
  const Params& e = t.example;  // d = 300, eps = 1
  const double threshold =
      dpb::lower::thm4_sample_threshold(dpb::lower::thm4_packing(300, 2025, 512).log_size(), 1);
  CHECK(threshold > 0.196 * 300 * 0.9);  // ~ (d/3) log 1.8: Omega(d/eps)
  CHECK((*t.explicit_value)(with(e, "n", std::floor(threshold))) ==
        1.0 / 20);  // sin > 1/20 <=> sin^2 > 1/400
  CHECK((*t.explicit_value)(with(e, "n", std::ceil(threshold) + 1)) == 0);
  CHECK_FALSE(kumar2025_lower_holds(t, "3 | d", with(e, "d", 301)));
  CHECK_FALSE(kumar2025_lower_holds(t, "k >= 6 even", with(e, "k", 7)));
  CHECK_FALSE(kumar2025_lower_holds(t, "k >= 6 even", with(e, "k", 4)));
  CHECK_FALSE(kumar2025_lower_holds(t, "k <= d/3", with(e, "k", 102)));
  CHECK_FALSE(kumar2025_lower_holds(t, "n < c d/eps", with(e, "n", 60)));  // c d / eps = 0.1959 * 300 = 58.8
  CHECK(t.rate(e) == 1);
  CHECK_THROWS_WITH(t.rate(without(e, "d")), Catch::Contains("'d'"));
}

TEST_CASE("kumar2025.thm5: explicit value = private Assouad on the built family, by hand", "[kumar2025]") {
  const Theorem& t = find("kumar2025.thm5");
  // n = 5, d = 1000, eps = 1, delta = 1e-3: (1/16)(0.9 e^{-0.1} - 20 * 5 * 1e-3 / 1000)
  //   = (1/16)(0.9 * 0.9048374180 - 0.0001) = (1/16)(0.8142536762) = 0.0508908548
  CHECK((*t.explicit_value)(t.example) == Approx(0.0508908548).epsilon(1e-9));
  CHECK((*t.explicit_value)(t.example) > 0.01);  // Thm 5: more than 1/100 in its regime
  const Params& e = t.example;
  CHECK_FALSE(kumar2025_lower_holds(t, "d even", with(e, "d", 1001)));
  CHECK_FALSE(kumar2025_lower_holds(t, "delta <= eps/100", with(e, "delta", 0.02)));
  CHECK_FALSE(kumar2025_lower_holds(t, "n < d/(100 eps)", with(e, "n", 10)));
  CHECK_FALSE(kumar2025_lower_holds(t, "d/2 >= k-1", with(with(e, "d", 8), "k", 6)));
  CHECK_THROWS_WITH((*t.explicit_value)(without(e, "delta")), Catch::Contains("'delta'"));
}

TEST_CASE("kumar2025 table cells: the table's text, the citation after the last ': '", "[kumar2025]") {
  const Theorem& ours1 = find("kumar2025.table1.lower.ours");
  CHECK(ours1.latex == R"(k^2 + \sqrt{d}\,k)");
  CHECK(ours1.source.substr(ours1.source.rfind(": ") + 2) == "Thm. 2");
  CHECK(ours1.rate(ours1.example) == find("kumar2025.thm2").rate(ours1.example));
  const Theorem& np1 = find("kumar2025.table1.lower.nonprivate");
  CHECK(np1.latex == "k^2");
  CHECK(np1.source.substr(np1.source.rfind(": ") + 2) == "[CZ12]");
  CHECK(np1.rate({{"n", 400}, {"k", 20}, {"sigma2", 3}}) == Approx(3));  // sigma2 k / sqrt(n) = 3 * 20/20
  CHECK(np1.rate(np1.example) == Approx(4));                             // 10 * 40 / 100
  const Theorem& np2 = find("kumar2025.table2.lower.nonprivate");
  CHECK(np2.latex == "k");
  CHECK(np2.rate({{"n", 600}, {"k", 6}}) == Approx(0.1));  // sqrt(k / n)
  CHECK(np2.rate({{"n", 24}, {"k", 6}}) == Approx(0.5));   // sqrt(6 / 24)
  CHECK(find("kumar2025.table2.lower.ours").latex == "d");
}
