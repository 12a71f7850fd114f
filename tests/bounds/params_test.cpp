#include <catch2/catch.hpp>
#include <cmath>

#include "bounds/params.hpp"
#include "core/errors.hpp"

using dpb::bounds::Params;

TEST_CASE("theorem parameters: present values are read, missing or out-of-domain ones are named", "[bounds]") {
  const Params p{{"n", 100}, {"delta", 1e-5}, {"zero", 0}, {"nan", std::nan("")}};
  CHECK(dpb::bounds::param(p, "n") == 100);
  CHECK(dpb::bounds::param_or(p, "d", 7) == 7);
  CHECK(dpb::bounds::positive(p, "n") == 100);
  CHECK(dpb::bounds::unit_interval(p, "delta") == 1e-5);
  CHECK_THROWS_WITH(dpb::bounds::param(p, "d"), Catch::Contains("'d'"));
  CHECK_THROWS_AS(dpb::bounds::param(p, "nan"), dpb::InvalidArgument);
  CHECK_THROWS_WITH(dpb::bounds::positive(p, "zero"), Catch::Contains("> 0"));
  CHECK_THROWS_WITH(dpb::bounds::unit_interval(p, "n"), Catch::Contains("(0, 1)"));
}

TEST_CASE("aliased parameter names prefer the spec's name and fall back to the verifier's", "[bounds]") {
  using dpb::bounds::aliased;
  CHECK(std::string(aliased(Params{{"p", 5}, {"d", 6}}, "p", "d")) == "p");
  CHECK(std::string(aliased(Params{{"d", 6}}, "p", "d")) == "d");
  CHECK(std::string(aliased(Params{}, "p", "d")) == "p");  // a miss names the spec's parameter
}
