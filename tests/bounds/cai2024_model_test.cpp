#include "bounds/cai2024_model.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <iterator>
#include <limits>

#include "core/errors.hpp"

using dpb::bounds::Loss;
using dpb::bounds::Params;
namespace model = dpb::bounds::cai2024;

namespace {

Params spec_point() {
  return {{"n", 200}, {"p", 10}, {"r", 3}, {"lambda", 4}, {"sigma2", 0.5}, {"epsilon", 2}, {"delta", 0.01}};
}

}  // namespace

TEST_CASE("cai2024 model: the point is read under the spec's names or the verifier's aliases", "[cai2024]") {
  const model::Point s = model::read_point(spec_point());
  CHECK(s.n == 200);
  CHECK(s.p == 10);
  CHECK(s.r == 3);
  CHECK(s.lambda == 4);
  CHECK(s.sigma2 == 0.5);
  CHECK(s.eps == 2);
  CHECK(s.delta == 0.01);
  CHECK(s.log_n() == std::log(200.0));

  Params aliased = spec_point();
  aliased.erase("p");
  aliased.erase("r");
  aliased["d"] = 12;
  aliased["k"] = 5;
  CHECK(model::read_point(aliased).p == 12);
  CHECK(model::read_point(aliased).r == 5);
  Params both = spec_point();
  both["d"] = 99;  // the spec's name wins
  CHECK(model::read_point(both).p == 10);
}

TEST_CASE("cai2024 model: missing or out-of-domain parameters are named", "[cai2024]") {
  Params x = spec_point();
  x.erase("sigma2");
  CHECK_THROWS_WITH(model::read_point(x), Catch::Contains("'sigma2'"));
  x = spec_point();
  x.erase("p");
  CHECK_THROWS_WITH(model::read_point(x), Catch::Contains("'p'"));  // a miss names the spec's name
  x = spec_point();
  x["delta"] = 1;
  CHECK_THROWS_AS(model::read_point(x), dpb::InvalidArgument);
}

TEST_CASE("cai2024 model: the exposed Schatten norms and their normalised losses", "[cai2024]") {
  REQUIRE(std::size(model::kVariants) == 3);
  CHECK(model::kVariants[0].q == 1);
  CHECK(model::kVariants[0].projector == Loss::Name::projector_schatten);
  CHECK(model::kVariants[0].covariance == Loss::Name::cov_schatten);
  CHECK(model::kVariants[1].q == 2);
  CHECK(model::kVariants[1].projector == Loss::Name::projector_fro);
  CHECK(model::kVariants[1].covariance == Loss::Name::cov_fro);
  CHECK(model::kVariants[2].q == std::numeric_limits<double>::infinity());
  CHECK(model::kVariants[2].projector == Loss::Name::projector_op);
  CHECK(model::kVariants[2].covariance == Loss::Name::cov_op);
  const Loss loss = model::normalized(Loss::Name::cov_fro, 2);
  CHECK(loss.name == Loss::Name::cov_fro);
  CHECK(loss.q == 2);
  CHECK(loss.normalized_by_rank);
}

TEST_CASE("cai2024 model: C-r holds exactly while 2 r <= p", "[cai2024]") {
  const auto c = model::rank_half_dimension();
  Params x = spec_point();
  x["r"] = 5;  // 2 r = p
  CHECK(c.holds(x));
  x["r"] = 5.5;
  CHECK_FALSE(c.holds(x));
  x.erase("r");
  x["k"] = 6;  // the alias is read too
  CHECK_FALSE(c.holds(x));
}
