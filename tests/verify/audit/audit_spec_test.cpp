#include "verify/audit/audit_spec.hpp"

#include <catch2/catch.hpp>
#include <cctype>

#include "core/errors.hpp"

using namespace dpb::verify;

TEST_CASE("parse_audit_spec reads every key and keeps the defaults it is given", "[audit]") {
  const YAML::Node node = YAML::Load(
      "algorithm: baseline.dp_gauss_1\n"
      "params: { calibration: analytic, beta: 3 }\n"
      "model_params: { lambda: 4, lambdas: [4, 2] }\n"
      "epsilon: 0.5\n"
      "delta: 1e-6\n"
      "n: 80\n"
      "d: 6\n"
      "k: 2\n"
      "trials: 400\n"
      "neighbours: fresh\n"
      "search_trials: 300\n"
      "per_entry: true\n"
      "score: subspace_energy\n"
      "confidence: 0.99\n"
      "canary_scale: 4\n"
      "index: 3\n");
  AuditSpec defaults;
  defaults.seed = 42;
  const AuditSpec s = parse_audit_spec(node, "exp.yaml", defaults);
  CHECK(s.algorithm == "baseline.dp_gauss_1");
  CHECK(s.params.get_string("calibration", "", "t") == "analytic");
  CHECK(s.params.get_real("beta", 0, "t") == 3);
  CHECK(*s.model_params.get_reals("lambdas", "t") == std::vector<double>{4, 2});
  CHECK(s.model == "spiked_gaussian");
  CHECK(s.privacy.epsilon == 0.5);
  CHECK(s.privacy.delta == 1e-6);
  CHECK(s.n == 80);
  CHECK(s.d == 6);
  CHECK(s.k == 2);
  CHECK(s.trials == 400);
  CHECK(s.neighbours == NeighbourKind::fresh);
  CHECK(s.search_trials == 300);
  CHECK(s.per_entry);
  CHECK(s.score == "subspace_energy");
  CHECK(s.confidence == 0.99);
  CHECK(s.seed == 42);
  CHECK(s.canary_scale == 4);
  CHECK(s.index == 3);
}

TEST_CASE("parse_audit_spec errors carry file:line:column", "[audit]") {
  const auto error_of = [](const std::string& yaml) {
    try {
      parse_audit_spec(YAML::Load(yaml), "exp.yaml", {});
    } catch (const dpb::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(error_of("algorithm: x\ntrails: 3\n"),
             Catch::StartsWith("exp.yaml:2:1: audit: unknown key 'trails'"));
  CHECK_THAT(error_of("algorithm: x\nn: ten\n"),
             Catch::StartsWith("exp.yaml:2:4:") && Catch::Contains("'ten'"));
  CHECK_THAT(error_of("algorithm: x\nn: 2.5\n"), Catch::Contains("integer"));
  CHECK_THAT(error_of("algorithm: x\nneighbours: worst\n"),
             Catch::StartsWith("exp.yaml:2:13:") && Catch::Contains("canary, fresh"));
  CHECK_THAT(error_of("algorithm: x\nparams: [1, 2]\n"), Catch::StartsWith("exp.yaml:2:9:"));
  // A spec that fails validation points at the section.
  CHECK_THAT(error_of("algorithm: x\ntrials: 5\n"),
             Catch::StartsWith("exp.yaml:1:1:") && Catch::Contains("trials"));
  CHECK_THAT(error_of("trials: 50\n"), Catch::Contains("name the algorithm"));
  CHECK_THAT(error_of("- 1\n"), Catch::Contains("mapping"));
}

TEST_CASE("validate says what is wrong", "[audit]") {
  AuditSpec s;
  s.algorithm = "baseline.dp_gauss_1";
  CHECK_NOTHROW(validate(s));
  auto bad = [&](auto change) {
    AuditSpec t = s;
    change(t);
    return t;
  };
  CHECK_THROWS_AS(validate(bad([](AuditSpec& t) { t.k = 11; })), dpb::InvalidArgument);
  CHECK_THROWS_AS(validate(bad([](AuditSpec& t) { t.n = 1; })), dpb::InvalidArgument);
  CHECK_THROWS_AS(validate(bad([](AuditSpec& t) { t.index = 200; })), dpb::InvalidArgument);
  CHECK_THROWS_AS(validate(bad([](AuditSpec& t) { t.confidence = 1; })), dpb::InvalidArgument);
  CHECK_THROWS_AS(validate(bad([](AuditSpec& t) { t.privacy.epsilon = 0; })), dpb::InvalidArgument);
  CHECK_THROWS_AS(validate(bad([](AuditSpec& t) { t.canary_scale = -1; })), dpb::InvalidArgument);
  CHECK_THROWS_AS(validate(bad([](AuditSpec& t) { t.model = "nope"; })), dpb::InvalidArgument);
  CHECK_THROWS_AS(validate(bad([](AuditSpec& t) { t.score = "nope"; })), dpb::InvalidArgument);
  CHECK_THROWS_WITH(validate(bad([](AuditSpec& t) { t.search_trials = 10; })),
                    Catch::Contains("search_trials must lie in 20..10000000"));
  CHECK_THROWS_AS(validate(bad([](AuditSpec& t) { t.search_trials = 20'000'000; })), dpb::InvalidArgument);
  // log_ladder: at most 64 records (default n = 200), and the index needs its pair partner index ^ 1.
  CHECK_THROWS_WITH(validate(bad([](AuditSpec& t) { t.neighbours = NeighbourKind::log_ladder; })),
                    Catch::Contains("log_ladder needs n <= 64"));
  CHECK_THROWS_WITH(validate(bad([](AuditSpec& t) {
                      t.neighbours = NeighbourKind::log_ladder;
                      t.n = 7;
                      t.index = 6;
                    })),
                    Catch::Contains("pair partner"));
  // opposed_at_start: the records differ along an axis outside the start's k columns, so k < d.
  CHECK_THROWS_WITH(validate(bad([](AuditSpec& t) {
                      t.neighbours = NeighbourKind::opposed_at_start;
                      t.d = 3;
                      t.k = 3;
                    })),
                    Catch::Contains("opposed_at_start needs k < d"));
  CHECK_NOTHROW(validate(bad([](AuditSpec& t) {
    t.neighbours = NeighbourKind::opposed_at_start;
    t.d = 3;
    t.k = 2;
  })));
}

TEST_CASE("neighbour kinds round-trip through their names", "[audit]") {
  for (auto kind : {NeighbourKind::canary, NeighbourKind::fresh, NeighbourKind::huge_norm,
                    NeighbourKind::sign_flip, NeighbourKind::axis_flip, NeighbourKind::corner,
                    NeighbourKind::orthogonal_axes, NeighbourKind::log_ladder, NeighbourKind::opposed_at_start,
                    NeighbourKind::search})
    CHECK(parse_neighbour_kind(to_string(kind)) == kind);
  CHECK_THROWS_WITH(parse_neighbour_kind("worst"), Catch::Contains("sign_flip, axis_flip, corner"));
  CHECK(neighbour_kind_names(" | ") ==
        "canary | fresh | huge_norm | sign_flip | axis_flip | corner | orthogonal_axes | log_ladder | "
        "opposed_at_start | search");
}

TEST_CASE("expect: given explicitly, or VIOLATION for a registered mutant and PASS otherwise", "[audit]") {
  AuditSpec s;
  s.algorithm = "mutant.wishart";  // a registered mutant
  CHECK(expected_verdict(s) == AuditExpectation::violation);
  CHECK(expected_as_mutant(s));
  s.algorithm = "baseline.dp_gauss_1";
  CHECK(expected_verdict(s) == AuditExpectation::pass);
  CHECK_FALSE(expected_as_mutant(s));
  s.algorithm = "mutant.not_registered";  // the id alone does not make a mutant
  CHECK(expected_verdict(s) == AuditExpectation::pass);
  s.algorithm = "mutant.wishart";
  s.expect = AuditExpectation::pass;  // an explicit expectation wins
  CHECK(expected_verdict(s) == AuditExpectation::pass);
  CHECK_FALSE(expected_as_mutant(s));

  const AuditSpec parsed = parse_audit_spec(YAML::Load("algorithm: baseline.dp_gauss_1\nexpect: violation\n"), "exp.yaml");
  REQUIRE(parsed.expect);
  CHECK(*parsed.expect == AuditExpectation::violation);
  CHECK_FALSE(parse_audit_spec(YAML::Load("algorithm: baseline.dp_gauss_1\n"), "exp.yaml").expect);
  CHECK_THROWS_WITH(parse_audit_spec(YAML::Load("algorithm: x\nexpect: fail\n"), "exp.yaml"),
                    Catch::StartsWith("exp.yaml:2:9:") && Catch::Contains("pass, violation or ledger"));
  for (auto e : {AuditExpectation::pass, AuditExpectation::violation, AuditExpectation::ledger}) {
    std::string name = to_string(e);
    for (auto& c : name) c = static_cast<char>(std::tolower(c));
    CHECK(parse_audit_expectation(name) == e);
  }
}
