#include "verify/experiment/canonical.hpp"

#include <nlohmann/json.hpp>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>

#include "core/rng.hpp"
#include "tests/support/scratch_dir.hpp"
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

TEST_CASE("the stored content names the stream layout that drew its numbers", "[experiment]") {
  // A store made by another layout (another map from seeds to numbers) must not be resumed into.
  const auto form = canonical_form(test::parse_text(test::kTinyExperiment));
  CHECK(form.at("stream_layout") == dpb::core::kStreamLayout);
}

TEST_CASE("parameter values become JSON by type", "[experiment]") {
  CHECK(to_json(dpb::core::ParamValue{2.5}) == nlohmann::json(2.5));
  CHECK(to_json(dpb::core::ParamValue{std::string("a")}) == nlohmann::json("a"));
  CHECK(to_json(dpb::core::ParamMap{{"l", std::vector<double>{1, 2}}}) == nlohmann::json({{"l", {1.0, 2.0}}}));
}

namespace {

// A scratch folder with a file `name` holding `content`, removed at exit.
std::string external_experiment(const std::string& script, const std::string& inputs) {
  return fmt::format(R"(name: external
seed: 1
trials: 2
model: {{ name: spiked_gaussian, d: 5, r: 1, lambda: 4, sigma2: 1 }}
grid: {{ n: [200] }}
privacy: {{ epsilon: 1.0, delta: 1.0e-5 }}
algorithms:
  - external.command: {{ command: "sh '{}'", inputs: "{}" }}
metrics: [sin]
)",
                     script, inputs);
}

}  // namespace

TEST_CASE("an external program's files and the dpbounds version key the experiment", "[experiment]") {
  // Observed: editing the program left the hash unchanged, so --resume mixed rows of two versions.
  const dpb::test::ScratchDir scratch("canonical");
  const std::string script = scratch.write("pca.sh", "exec ./pca --noise 1\n").string();
  const std::string weights = scratch.write("weights.txt", "1 2 3\n").string();
  const auto hash = [&] { return content_hash(test::parse_text(external_experiment(script, weights))); };
  const std::string before = hash();
  CHECK(hash() == before);
  scratch.write("pca.sh", "exec ./pca --noise 0.5\n");  // a new version of the program
  const std::string edited = hash();
  CHECK(edited != before);
  scratch.write("weights.txt", "1 2 4\n");  // a file it reads, declared in inputs
  CHECK(hash() != edited);
  CHECK(canonical_form(test::parse_text(test::kTinyExperiment)).at("dpbounds") == DPB_VERSION);
  // A declared input that does not exist is an error naming it, not a silently unkeyed run.
  CHECK_THROWS_WITH(content_hash(test::parse_text(external_experiment(script, scratch.path().string() + "/missing.npy"))),
                    Catch::Contains("missing.npy") && Catch::Contains("not a readable file"));
}
