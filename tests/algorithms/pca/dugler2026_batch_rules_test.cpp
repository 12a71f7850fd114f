#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/pca/dugler2026_batch_rules.hpp"
#include "core/errors.hpp"

using namespace dpb;
using namespace dpb::alg::dugler2026;

namespace {
BatchRequirement none_needed() { return {}; }
}  // namespace

TEST_CASE("dugler2026 batch rules: n/log n, sqrt n, even rounding, theory steps, feasibility",
          "[dugler2026]") {
  BatchSettings s;
  const BatchRequirement none{};
  CHECK(plan_batches(s, 10000, true, 1, none, "t").B == 1084);  // 10000/log(10000) = 1085.7 -> even 1084
  CHECK(plan_batches(s, 10000, false, 1, none, "t").B == 1085);
  s.rule = BatchRule::sqrt_n;
  CHECK(plan_batches(s, 10001, true, 1, none, "t").B == 100);
  s.rule = BatchRule::theory_steps;
  s.steps = 7;
  const auto th = plan_batches(s, 10000, true, 1, none, "t");
  CHECK(th.B == 1428);
  CHECK(th.T == 7);
  s.steps = 0;
  s.C_T = 2;  // T = ceil(2 log(1e6)) = 28
  CHECK(plan_batches(s, 28000, false, 1e6, none, "t").T == 28);
  s.rule = BatchRule::fixed;
  s.batch_size = 0;
  CHECK_THROWS_AS(plan_batches(s, 100, true, 1, none, "t"), InvalidArgument);
  s.batch_size = 10;
  BatchRequirement req{[](Eigen::Index) { return Eigen::Index{41}; },
                       [](Eigen::Index) { return std::string("x"); }};
  const auto inc = plan_batches(s, 100, true, 1, req, "t");
  CHECK(inc.B == 42);  // raised to the requirement, rounded up to even
  CHECK(inc.T == 2);
  CHECK(inc.increased);
  s.auto_increase = false;
  CHECK_THROWS_WITH(plan_batches(s, 100, true, 1, req, "t"), Catch::Contains("B >= 42"));
}

TEST_CASE("dugler2026 batch rules: exact sizes of sqrt(n) and n / log n, T = floor(n / B)", "[dugler2026]") {
  BatchSettings s;
  const BatchRequirement none{};
  for (const Eigen::Index n : {1000L, 4097L, 65536L, 1000003L}) {
    const double nd = static_cast<double>(n);
    s.rule = BatchRule::n_over_log_n;
    const auto a = plan_batches(s, n, false, 1, none, "t");
    CHECK(a.B == static_cast<Eigen::Index>(std::floor(nd / std::log(nd))));
    CHECK(a.T == n / a.B);
    CHECK(a.requested == a.B);
    CHECK_FALSE(a.increased);
    s.rule = BatchRule::sqrt_n;
    const auto b = plan_batches(s, n, false, 1, none, "t");
    CHECK(b.B == static_cast<Eigen::Index>(std::floor(std::sqrt(nd))));
    CHECK(b.T == n / b.B);
  }
}

TEST_CASE("dugler2026 batch rules: even rounding is 2 floor(B / 2), at least 2", "[dugler2026]") {
  CHECK(even_floor(7.9) == 6);
  CHECK(even_floor(8.0) == 8);
  CHECK(even_floor(9.99) == 8);
  CHECK(even_floor(1.5) == 2);
  CHECK(even_floor(0.1) == 2);
  BatchSettings s;
  s.rule = BatchRule::fixed;
  const BatchRequirement none{};
  for (const Eigen::Index B : {3L, 5L, 99L, 100L}) {
    s.batch_size = B;
    CHECK(plan_batches(s, 1000, true, 1, none, "t").B == 2 * (B / 2));
    CHECK(plan_batches(s, 1000, false, 1, none, "t").B == B);
  }
  // An odd requirement is rounded up to even where batches are halved, and kept where they are not.
  s.batch_size = 4;
  const BatchRequirement odd{[](Eigen::Index) { return Eigen::Index{33}; },
                             [](Eigen::Index) { return std::string("odd"); }};
  CHECK(plan_batches(s, 1000, true, 1, odd, "t").B == 34);
  CHECK(plan_batches(s, 1000, false, 1, odd, "t").B == 33);
}

TEST_CASE("dugler2026 batch rules: feasibility sees T and names the required size", "[dugler2026]") {
  BatchSettings s;  // n / log n
  std::vector<Eigen::Index> seen_T;
  // The requirement grows as T grows (zeta / (c T) in PRIVRANGE): it is evaluated at the rule's T.
  const BatchRequirement req{[&](Eigen::Index T) {
                               seen_T.push_back(T);
                               return 100 * T;
                             },
                             [](Eigen::Index T) { return "needs " + std::to_string(100 * T); }};
  const auto plan = plan_batches(s, 10000, true, 1, req, "owner");
  REQUIRE(seen_T.size() == 1);
  CHECK(seen_T[0] == 10000 / 1084);  // T = 9 at the requested B = 1084
  CHECK(plan.B == 1084);             // 1084 >= 900: feasible as requested
  CHECK_FALSE(plan.increased);
  // sqrt(n): B = 100 makes T = 100 steps, which need 10000. Raised, B makes fewer steps that need less: the
  // smallest feasible batch is the smallest even B >= 100 floor(10000 / B), B = 1000 (T = 10; 998 gives
  // T = 10 too, needing 1000). Judging feasibility at the requested T = 100 instead would give 10000 (T = 1).
  s.rule = BatchRule::sqrt_n;
  const auto raised = plan_batches(s, 10000, true, 1, req, "owner");
  CHECK(raised.B == 1000);
  CHECK(raised.T == 10);
  CHECK(raised.requested == 100);
  CHECK(raised.increased);
  s.auto_increase = false;
  CHECK_THROWS_WITH(plan_batches(s, 10000, true, 1, req, "owner"),
                    Catch::Contains("owner") && Catch::Contains("B = 100") && Catch::Contains("T = 100") &&
                        Catch::Contains("needs 10000") && Catch::Contains("B >= 1000") &&
                        Catch::Contains("T = 10;") && Catch::Contains("auto_increase"));
  // No feasible B <= n: InvalidArgument naming the n it needs.
  s.auto_increase = true;
  const BatchRequirement big{[](Eigen::Index) { return Eigen::Index{5000}; },
                             [](Eigen::Index) { return std::string("big"); }};
  CHECK_THROWS_WITH(plan_batches(s, 4000, true, 1, big, "owner"),
                    Catch::Contains("n >= 5000") && Catch::Contains("n = 4000"));
  // A requirement without its words still gives the clean error, not a call of an empty function.
  const BatchRequirement unexplained{[](Eigen::Index) { return Eigen::Index{5000}; }, {}};
  CHECK_THROWS_AS(plan_batches(s, 4000, true, 1, unexplained, "owner"), InvalidArgument);
  s.auto_increase = false;
  CHECK_THROWS_AS(plan_batches(s, 10000, true, 1, unexplained, "owner"), InvalidArgument);
  s.auto_increase = true;
  // A fixed batch larger than n is refused as such.
  s.rule = BatchRule::fixed;
  s.batch_size = 500;
  CHECK_THROWS_WITH(plan_batches(s, 400, false, 1, none_needed(), "owner"),
                    Catch::Contains("B = 500") && Catch::Contains("n = 400"));
  // One sample cannot fill a halved batch of two under any rule; the error names the samples needed.
  for (const BatchRule rule : {BatchRule::n_over_log_n, BatchRule::sqrt_n, BatchRule::theory_steps}) {
    s.rule = rule;
    CHECK_THROWS_WITH(
        plan_batches(s, 1, true, 1, none_needed(), "owner"),
        Catch::Contains("n = 1 samples cannot fill one batch") && Catch::Contains("at least 2"));
    CHECK(plan_batches(s, 2, true, 1, none_needed(), "owner").B == 2);
    CHECK(plan_batches(s, 1, false, 1, none_needed(), "owner").B == 1);
  }
}

TEST_CASE("dugler2026 batch rules: the raised batch is the smallest feasible one", "[dugler2026]") {
  // Requirements of PRIVRANGE's shape, need(T) = a + c log(T) (zeta split over T steps), against every
  // batch written out: the plan's B is feasible, and the even (or any) batch just below it is not.
  BatchSettings s;
  s.rule = BatchRule::sqrt_n;
  for (const Eigen::Index n : {20000L, 65536L, 262144L, 1048576L})
    for (const double c : {10.0, 1000.0, 5000.0})
      for (const bool even : {true, false}) {
        const auto need = [n, c](Eigen::Index T) {
          return static_cast<Eigen::Index>(
              std::ceil(static_cast<double>(n) / 50 + c * std::log(static_cast<double>(T) + 1.0)));
        };
        const BatchRequirement req{need, [](Eigen::Index) { return std::string("log"); }};
        const auto plan = plan_batches(s, n, even, 1, req, "t");
        const auto feasible = [&](Eigen::Index B) { return B >= need(std::max<Eigen::Index>(1, n / B)); };
        CAPTURE(n, c, even, plan.B);
        CHECK(feasible(plan.B));
        CHECK(plan.T == n / plan.B);
        CHECK(plan.B % (even ? 2 : 1) == 0);
        const Eigen::Index step = even ? 2 : 1;
        for (Eigen::Index B = plan.requested; B < plan.B; B += step) REQUIRE_FALSE(feasible(B));
      }
}

TEST_CASE("dugler2026 batch rules: schema and reading", "[dugler2026]") {
  const auto& fields = batch_fields();
  std::vector<std::string> names;
  for (const auto& p : fields.schema()) names.push_back(p.name);
  CHECK(names == std::vector<std::string>{"batch_rule", "batch_size", "steps", "C_T", "auto_increase"});
  BatchSettings def;
  def.rule = BatchRule::sqrt_n;
  const auto read = fields.read(core::ParamMap{{"batch_rule", std::string("fixed")},
                                               {"batch_size", 64.0},
                                               {"auto_increase", std::string("no")}},
                                "t", def);
  CHECK(read.rule == BatchRule::fixed);
  CHECK(read.batch_size == 64);
  CHECK_FALSE(read.auto_increase);
  CHECK(fields.read(core::ParamMap{}, "t", def).rule == BatchRule::sqrt_n);  // the given default
  CHECK_THROWS_AS(fields.read(core::ParamMap{{"batch_rule", std::string("log")}}, "t"), InvalidArgument);
  CHECK_THROWS_AS(fields.read(core::ParamMap{{"auto_increase", std::string("maybe")}}, "t"), InvalidArgument);
  // Ranges are the schema's: the registry refuses them under the two-stage method's prefixes too.
  CHECK_THROWS_WITH(alg::algorithm_registry().resolve("dugler2026.two_stage", {{"warm_C_T", 0.0}}),
                    Catch::Contains("warm_C_T") && Catch::Contains("must lie in"));
}
