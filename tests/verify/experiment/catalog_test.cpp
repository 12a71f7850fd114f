#include "verify/experiment/catalog.hpp"

#include <nlohmann/json.hpp>
#include <catch2/catch.hpp>

#include "algorithms/registry.hpp"
#include "core/errors.hpp"
#include "core/models/model.hpp"

TEST_CASE("catalogue lists exactly the registered models, in order", "[catalog]") {
  const auto ids = dpb::verify::catalog_ids("models");
  REQUIRE(ids.size() == dpb::core::model_catalog().size());
  for (std::size_t i = 0; i < ids.size(); ++i) CHECK(ids[i] == dpb::core::model_catalog()[i].id);
  const auto json = dpb::verify::catalog_json("models");
  CHECK(json.at(0).at("params").size() == dpb::core::model_catalog()[0].params.size());
  CHECK(dpb::verify::catalog_ids("algorithms").size() == dpb::alg::algorithm_registry().entries().size());
}

TEST_CASE("catalogue rejects an unknown kind naming the allowed ones", "[catalog]") {
  CHECK_THROWS_WITH(dpb::verify::catalog_ids("widgets"),
                    Catch::Matchers::Contains("algorithms, models, theorems"));
  CHECK_THROWS_AS(dpb::verify::catalog_json(""), dpb::InvalidArgument);
}
