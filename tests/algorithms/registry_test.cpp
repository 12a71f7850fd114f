#include "algorithms/registry.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"

namespace {

using dpb::alg::AlgorithmEntry;
using dpb::alg::ParamSpec;
using dpb::alg::ParamType;

// A stand-in estimator that reports the parameters it was built with, so the tests can see what
// the registry resolved.
class Echo final : public dpb::alg::Estimator {
 public:
  explicit Echo(dpb::core::ParamMap p) : params(std::move(p)) {}
  dpb::alg::Estimate run(const dpb::alg::Input&, dpb::core::Rng&) const override { return {}; }
  dpb::alg::PrivacyClaim claim(const dpb::alg::Input&) const override { return {}; }
  dpb::core::ParamMap params;
};

AlgorithmEntry echo_entry() {
  AlgorithmEntry e;
  e.id = "test.echo";
  e.summary = "echoes its parameters";
  e.params = {ParamSpec{"clip", ParamType::real, 0.2, 0.0, std::nullopt, {}, "clip constant", "test"},
              ParamSpec{"T", ParamType::integer, 10.0, 1.0, 1000.0, {}, "steps", "test"},
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
  CHECK(dynamic_cast<const Echo&>(*est).params.get_string("mode", "", "t") == "faithful");
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
