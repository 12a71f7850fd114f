#include "algorithms/registry.hpp"

#include <catch2/catch.hpp>
#include <set>

#include "algorithms/mechanisms/accountant.hpp"
#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/mechanisms/ledger.hpp"
#include "core/errors.hpp"

namespace {

using dpb::alg::AlgorithmEntry;
using dpb::alg::ParamSpec;
using dpb::alg::ParamType;

// A stand-in estimator that reports the mode it was built with in its notes, so the tests can see what
// the registry resolved through the estimator `make` returns. Its ledger holds one Gaussian release
// calibrated for the claimed (1, 1e-5) at the noise scale given by `noise_fraction` (1: exactly enough).
class Echo final : public dpb::alg::Estimator {
 public:
  explicit Echo(dpb::core::ParamMap p) : params(std::move(p)) {}
  dpb::alg::Estimate run(const dpb::alg::Input&, dpb::core::Rng&) const override {
    dpb::alg::Estimate e;
    e.claim = claim({});
    e.diagnostics.notes.push_back(params.get_string("mode", "", "t"));
    const double sd = dpb::alg::analytic_gaussian_sigma(1.0, 1.0, 1e-5) * params.get_real("noise_fraction", 1, "t");
    e.ledger.record(dpb::alg::gaussian_entry("echo", 1.0, sd, {1.0, 1e-5, dpb::alg::Neighbours::replace}));
    return e;
  }
  dpb::alg::PrivacyClaim claim(const dpb::alg::Input&) const override {
    dpb::alg::PrivacyClaim c;
    c.epsilon = 1;
    c.delta = 1e-5;
    return c;
  }
  dpb::core::ParamMap params;
};

AlgorithmEntry echo_entry() {
  AlgorithmEntry e;
  e.id = "test.echo";
  e.summary = "echoes its parameters";
  e.params = {ParamSpec{"clip", ParamType::real, 0.2, 0.0, std::nullopt, {}, "clip constant", "test"},
              ParamSpec{"T", ParamType::integer, 10.0, 1.0, 1000.0, {}, "steps", "test"},
              ParamSpec{"noise_fraction", ParamType::real, 1.0, 0.0, std::nullopt, {}, "noise / needed", "test"},
              ParamSpec{"mode", ParamType::choice, std::string("corrected"), {}, {}, {"faithful", "corrected"},
                        "reading", "test"}};
  e.factory = [](const dpb::core::ParamMap& p) { return std::make_unique<Echo>(p); };
  return e;
}

}  // namespace

TEST_CASE("registry fills defaults and keeps given values", "[registry]") {
  dpb::alg::Registry r;
  r.add(echo_entry());
  const auto p = r.resolve("test.echo", {{"clip", 0.5}});
  CHECK(p.get_real("clip", -1, "t") == 0.5);
  CHECK(p.get_int("T", -1, "t") == 10);
  CHECK(p.get_string("mode", "", "t") == "corrected");
  const auto est = r.make("test.echo", {{"mode", std::string("faithful")}});
  dpb::core::Rng rng(1, 1);
  CHECK(est->run({}, rng).diagnostics.notes == std::vector<std::string>{"faithful"});
}

TEST_CASE("registry estimators refuse to return an estimate whose ledger spends more than its claim",
          "[registry][privacy]") {
  dpb::alg::Registry r;
  r.add(echo_entry());
  dpb::core::Rng rng(1, 1);
  CHECK_NOTHROW(r.make("test.echo", {})->run({}, rng));
  // 0.9 of the noise the claim needs: the accountant's eps exceeds 1, and the run names the entry.
  CHECK_THROWS_AS(r.make("test.echo", {{"noise_fraction", 0.9}})->run({}, rng), dpb::alg::PrivacyOverspend);
  CHECK_THROWS_WITH(r.make("test.echo", {{"noise_fraction", 0.9}})->run({}, rng),
                    Catch::Matchers::Contains("test.echo") && Catch::Matchers::Contains("echo"));
}

TEST_CASE("registry rejects invalid parameters with what is allowed", "[registry]") {
  dpb::alg::Registry r;
  r.add(echo_entry());
  using Catch::Matchers::Contains;
  CHECK_THROWS_WITH(r.resolve("test.echo", {{"nope", 1.0}}), Contains("unknown parameter 'nope'") && Contains("clip"));
  CHECK_THROWS_WITH(r.resolve("test.echo", {{"clip", -1.0}}), Contains("must lie in [0, inf]"));
  CHECK_THROWS_WITH(r.resolve("test.echo", {{"T", 2.5}}), Contains("must be an integer"));
  CHECK_THROWS_WITH(r.resolve("test.echo", {{"T", 5000.0}}), Contains("[1, 1000]"));
  CHECK_THROWS_WITH(r.resolve("test.echo", {{"mode", std::string("other")}}), Contains("faithful, corrected"));
  CHECK_THROWS_WITH(r.resolve("test.echo", {{"clip", std::string("big")}}), Contains("must be a number"));
  CHECK_THROWS_WITH(r.find("missing"), Contains("unknown algorithm 'missing'") && Contains("test.echo"));
}

TEST_CASE("registry refuses duplicate ids and malformed entries", "[registry]") {
  dpb::alg::Registry r;
  r.add(echo_entry());
  CHECK_THROWS_AS(r.add(echo_entry()), dpb::InvalidArgument);
  auto no_factory = echo_entry();
  no_factory.id = "test.other";
  no_factory.factory = nullptr;
  CHECK_THROWS_AS(r.add(no_factory), dpb::InvalidArgument);
  auto bad_default = echo_entry();
  bad_default.id = "test.bad_default";
  bad_default.params[0].default_value = -3.0;  // outside its own range [0, inf]
  CHECK_THROWS_AS(r.add(bad_default), dpb::InvalidArgument);
  CHECK(r.entries().size() == 1);
}

TEST_CASE("built-in registry ids are unique and every default resolves", "[registry]") {
  const auto& reg = dpb::alg::algorithm_registry();
  for (const auto& e : reg.entries()) {
    CHECK_NOTHROW(reg.resolve(e.id, {}));
    CHECK(&reg.find(e.id) == &e);
  }
}

TEST_CASE("every built-in algorithm has a human name, distinct from the others", "[registry]") {
  // Issue 21: tables and legends showed registry ids (`cai2024.gaussian_mechanism[C2=3,C5=4]`). The name
  // is the summary's lead before ": "; a mutant is named by its id.
  std::set<std::string> names;
  for (const auto& e : dpb::alg::algorithm_registry().entries()) {
    INFO(e.id << ": " << e.summary);
    const std::string name = dpb::alg::display_name(e);
    if (e.mutant) {
      CHECK(name == e.id);
      continue;
    }
    CHECK(name != e.id);
    CHECK(name.find('(') == std::string::npos);  // no half of a parenthesis cut at the colon
    CHECK(names.insert(name).second);
  }
  dpb::alg::AlgorithmEntry plugin;
  plugin.id = "my.plugin";
  plugin.summary = "an algorithm without a named lead";
  CHECK(dpb::alg::display_name(plugin) == "my.plugin");
}
