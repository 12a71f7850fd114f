#include "verify/experiment/canonical.hpp"

#include <catch2/catch.hpp>

#include "verify/experiment/experiment_fixture.hpp"

using namespace dpb::verify;

TEST_CASE("the content hash changes with what decides rows, and only with that", "[experiment]") {
  const std::string base = content_hash(test::parse_text(test::kTinyExperiment));
  CHECK(base.size() == 16);
  CHECK(content_hash(test::parse_text(test::kTinyExperiment)) == base);
  for (const char* change : {"seed=8", "trials=4", "grid.n=[200,401]", "model.lambda=5", "privacy.delta=1e-6",
                             "metrics=[sin]"})
    CHECK(content_hash(test::parse_text(test::kTinyExperiment, {{change}, {}})) != base);
  // --only changes the content too, so a selected run never mixes with the full one.
  CHECK(content_hash(test::parse_text(test::kTinyExperiment, {{}, {"baseline.nonprivate_pca"}})) != base);
  // Source text and report settings do not change rows.
  CHECK(content_hash(test::parse_text(test::kTinyExperiment, {{"source=elsewhere"}, {}})) == base);
  CHECK(content_hash(test::parse_text(std::string(test::kTinyExperiment) + "report: { table: { rows: n } }\n")) == base);
}

TEST_CASE("parameter values become JSON by type", "[experiment]") {
  CHECK(to_json(dpb::core::ParamValue{2.5}) == nlohmann::json(2.5));
  CHECK(to_json(dpb::core::ParamValue{std::string("a")}) == nlohmann::json("a"));
  CHECK(to_json(dpb::core::ParamMap{{"l", std::vector<double>{1, 2}}}) == nlohmann::json({{"l", {1.0, 2.0}}}));
}
