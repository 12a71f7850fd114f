#include "algorithms/param_fields.hpp"

#include <catch2/catch.hpp>

#include "algorithms/baselines/k_dp_ojas.hpp"
#include "algorithms/baselines/k_dp_pca.hpp"
#include "algorithms/covariance/spiked_inputs.hpp"
#include "algorithms/pca/liu2022_fields.hpp"
#include "algorithms/sparse/private_covariance.hpp"
#include "core/errors.hpp"

using namespace dpb::alg;
using dpb::core::ParamMap;

namespace {

enum class Shape { round, square, flat };

struct Inner {
  double width = 2.5;
  bool tidy = true;
};

struct Base {
  long long count = 3;
};

struct Outer : Base {
  double rate = 0.25;
  Shape shape = Shape::square;
  std::string label = "plain";
  Inner inner;
  Inner other{7, false};  // a member whose default differs from its type's initialisers
};

FieldTable<Inner> inner_fields() {
  FieldTable<Inner> t;
  t.real("width", &Inner::width, 0.0, 10.0, "how wide", "ref w").flag("tidy", &Inner::tidy, "tidy up", "ref t");
  return t;
}

FieldTable<Outer> outer_fields() {
  FieldTable<Base> base;
  base.integer("count", &Base::count, 1, "how many", "ref c");
  FieldTable<Outer> t;
  t.real("rate", &Outer::rate, 0.0, 1.0, "a rate", "ref r")
      .choice("shape", &Outer::shape, {{"round", Shape::round}, {"square", Shape::square}, {"flat", Shape::flat}},
              "its shape", "ref s", ChoiceOrder::default_first)
      .inherit(base)
      .text("label", &Outer::label, "a label", "ref l")
      .nest(&Outer::inner, inner_fields())
      .nest(&Outer::other, inner_fields(), "other_")
      .fixed_choice("ties", "index_order", "lower index wins", "ref ties");
  return t;
}

}  // namespace

TEST_CASE("field table: the schema's defaults are the struct's initialisers, in declaration order", "[params]") {
  const auto schema = outer_fields().schema();
  REQUIRE(schema.size() == 9);
  std::vector<std::string> names;
  for (const auto& s : schema) names.push_back(s.name);
  CHECK(names == std::vector<std::string>{"rate", "shape", "count", "label", "width", "tidy", "other_width",
                                          "other_tidy", "ties"});
  CHECK(std::get<double>(schema[0].default_value) == 0.25);
  CHECK(schema[0].min == 0.0);
  CHECK(schema[0].max == 1.0);
  CHECK(schema[0].doc == "a rate");
  CHECK(schema[0].spec_ref == "ref r");
  // default_first: the default leads, the rest as written
  CHECK(std::get<std::string>(schema[1].default_value) == "square");
  CHECK(schema[1].choices == std::vector<std::string>{"square", "round", "flat"});
  CHECK(schema[2].type == ParamType::integer);
  CHECK(std::get<double>(schema[2].default_value) == 3);
  CHECK(std::get<std::string>(schema[3].default_value) == "plain");
  CHECK(std::get<double>(schema[4].default_value) == 2.5);
  CHECK(schema[5].choices == std::vector<std::string>{"true", "false"});
  CHECK(std::get<std::string>(schema[5].default_value) == "true");
  // a nested member takes its defaults from the outer struct's initialiser, not its type's
  CHECK(std::get<double>(schema[6].default_value) == 7);
  CHECK(std::get<std::string>(schema[7].default_value) == "false");
  CHECK(schema[8].choices == std::vector<std::string>{"index_order"});
}

TEST_CASE("field table: reading sets what the map names and keeps the rest", "[params]") {
  const auto fields = outer_fields();
  const Outer read = fields.read(ParamMap{{"rate", 0.5},
                                          {"shape", std::string("flat")},
                                          {"count", 9.0},
                                          {"label", std::string("x")},
                                          {"tidy", std::string("false")},
                                          {"other_width", 1.0},
                                          {"width_unrelated", 4.0}},
                                 "own");
  CHECK(read.rate == 0.5);
  CHECK(read.shape == Shape::flat);
  CHECK(read.count == 9);
  CHECK(read.label == "x");
  CHECK(read.inner.width == 2.5);  // "other_width" is the other member's
  CHECK_FALSE(read.inner.tidy);
  CHECK(read.other.width == 1.0);
  CHECK_FALSE(read.other.tidy);  // kept from Outer's initialiser
  const Outer untouched = fields.read(ParamMap{}, "own");
  CHECK(untouched.rate == 0.25);
  CHECK(untouched.shape == Shape::square);
}

TEST_CASE("field table: a value of the wrong kind is refused naming the owner and the parameter", "[params]") {
  const auto fields = outer_fields();
  CHECK_THROWS_WITH(fields.read(ParamMap{{"shape", std::string("oval")}}, "own"),
                    "own: parameter 'shape' must be one of: round, square, flat; got 'oval'");
  CHECK_THROWS_AS(fields.read(ParamMap{{"rate", std::string("fast")}}, "own"), dpb::InvalidArgument);
  CHECK_THROWS_AS(fields.read(ParamMap{{"count", 2.5}}, "own"), dpb::InvalidArgument);
}

TEST_CASE("field table: a kumar2025 estimator's schema defaults are its parameter struct's", "[params][kumar2025]") {
  // The registry resolves an empty map to the schema's defaults; before the field tables each default was
  // written twice (schema and reader), and nothing held them equal.
  const ParamMap resolved = algorithm_registry().resolve("kumar2025.priv_cov", {});
  const PrivCovParams defaults;
  CHECK(resolved.get_real("noise_multiplier", -1, "test") == defaults.noise_multiplier);
  CHECK(resolved.get_real("beta", -1, "test") == defaults.beta);
  CHECK(resolved.get_real("scaled_noise_factor", -1, "test") == defaults.constants.noise_factor);
  CHECK(resolved.get_string("diagonal", "", "test") == (defaults.fill_diagonal ? "fill" : "faithful"));
  CHECK(resolved.get_string("constants", "", "test") == defaults.constants.name());
}

TEST_CASE("field table: cai2024's releases of noisy eigenvalues share one Delta2 constant", "[params][cai2024]") {
  // C3 was the Algorithm-1 struct's default written into three schemas and three readers (private rank and
  // spike each had their own 3.0); now each struct's initialiser is kDelta2Constant and each schema reads it.
  for (const char* id : {"cai2024.gaussian_mechanism", "cai2024.gaussian_mechanism_private_sigma2",
                         "cai2024.private_rank", "cai2024.private_spike"}) {
    INFO(id);
    CHECK(algorithm_registry().resolve(id, {}).get_real("C3", -1, "test") == kDelta2Constant);
  }
  // A choice reaches the struct as a value: a name outside the list is refused before any run.
  CHECK_THROWS_WITH(algorithm_registry().resolve("cai2024.private_noise_variance", {{"bulk_range", std::string("mid")}}),
                    Catch::Contains("bulk_range") && Catch::Contains("inner, outer"));
}

TEST_CASE("field table: liu2022 Private Oja's step sets its schedule and its step size in one name", "[params][liu2022]") {
  const auto fields = liu2022::private_oja_fields();
  const auto eta_of = [](const PrivateOjaParams& p) {
    return liu2022::practical_schedule(p.practical, p.constants, nullptr, 400, p.zeta, "test")(1);
  };
  // constant_half_over_n is 0.5/n whatever eta says (the reader once reset eta after reading it).
  const auto half = fields.read({{"step", std::string("constant_half_over_n")}, {"eta", 0.3}}, "test");
  CHECK(half.schedule == PrivateOjaParams::Schedule::constant);
  CHECK(eta_of(half) == Approx(0.5 / 400));
  const auto constant = fields.read({{"step", std::string("constant")}, {"eta", 0.3}}, "test");
  CHECK(constant.schedule == PrivateOjaParams::Schedule::constant);
  CHECK(eta_of(constant) == 0.3);
  const auto theory = fields.read({{"step", std::string("theory")}}, "test");
  CHECK(theory.schedule == PrivateOjaParams::Schedule::theory);
  CHECK(theory.practical.kind == liu2022::PracticalSchedule::inverse_time);
  CHECK(fields.schema()[1].choices ==
        std::vector<std::string>{"inverse_time", "theory", "constant", "constant_half_over_n"});
}

TEST_CASE("field table: a deflation baseline's defaults are its own struct's, not its component's", "[params][liu2022]") {
  // baseline.k_dp_ojas runs Private Oja with dugler2026 §7's defaults (eta_t = 1/(1 + t), K = a = 1, no
  // amplification), set once in KDpOjasParams; its schema reads them there.
  const ParamMap resolved = algorithm_registry().resolve("baseline.k_dp_ojas", {});
  const KDpOjasParams defaults;
  CHECK(resolved.get_real("c1", -1, "test") == defaults.component.practical.c1);
  CHECK(resolved.get_real("K", -1, "test") == defaults.component.constants.K);
  CHECK(resolved.get_string("noise_calibration", "", "test") == "no_amplification");
  CHECK(algorithm_registry().resolve("liu2022.private_oja", {}).get_string("noise_calibration", "", "test") == "proven");
  const ParamMap dp_pca = algorithm_registry().resolve("baseline.k_dp_pca", {});
  CHECK(dp_pca.get_real("K", -1, "test") == KDpPcaParams{}.component.constants.K);
  CHECK(algorithm_registry().resolve("liu2022.dp_pca", {}).get_real("K", -1, "test") == DpPcaParams{}.constants.K);
}
