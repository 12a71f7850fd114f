#include "algorithms/privacy.hpp"

#include <catch2/catch.hpp>
#include <limits>

#include "algorithms/mechanisms/exponential_mechanism.hpp"
#include "core/errors.hpp"

using dpb::alg::ClaimScope;
using dpb::alg::Privacy;
using dpb::alg::PrivacyClaim;

namespace {
Privacy privacy(double epsilon, double delta) {
  Privacy p;
  p.epsilon = epsilon;
  p.delta = delta;
  return p;
}

PrivacyClaim claim(double epsilon, double delta) {
  PrivacyClaim c;
  c.epsilon = epsilon;
  c.delta = delta;
  return c;
}
}  // namespace

TEST_CASE("privacy parameters are validated", "[privacy]") {
  CHECK_NOTHROW(validate(privacy(1.0, 1e-5)));
  CHECK_NOTHROW(validate(privacy(0.1, 0.0)));
  CHECK_THROWS_AS(validate(privacy(0.0, 1e-5)), dpb::InvalidArgument);
  CHECK_THROWS_AS(validate(privacy(-1.0, 1e-5)), dpb::InvalidArgument);
  CHECK_THROWS_AS(validate(privacy(std::numeric_limits<double>::infinity(), 1e-5)), dpb::InvalidArgument);
  CHECK_THROWS_AS(validate(privacy(std::nan(""), 1e-5)), dpb::InvalidArgument);
  CHECK_THROWS_AS(validate(privacy(1.0, 1.0)), dpb::InvalidArgument);
  CHECK_THROWS_AS(validate(privacy(1.0, -1e-9)), dpb::InvalidArgument);
}

TEST_CASE("one rule for epsilon and delta, named by whoever applies it", "[privacy]") {
  // The mechanisms and the experiment loader apply this rule; before, each wrote its own copy (the
  // exponential mechanism, its PCA, the Wishart mutant, the loader's grid axes).
  CHECK_THROWS_WITH(dpb::alg::validate_epsilon(std::numeric_limits<double>::infinity(), "exponential mechanism"),
                    "exponential mechanism: epsilon must be a finite number > 0, got inf");
  CHECK_THROWS_WITH(dpb::alg::validate_delta(1.0), "delta must lie in [0, 1), got 1");
  CHECK_NOTHROW(dpb::alg::validate_delta(0.0));
  const std::vector<double> scores{1.0, 2.0};
  CHECK_THROWS_WITH(dpb::alg::exponential_mechanism_probabilities(scores, 0.0, 1.0),
                    Catch::Contains("exponential mechanism: epsilon must be a finite number > 0"));
}

TEST_CASE("a model-dependent claim says so in its description", "[privacy]") {
  CHECK(describe(claim(1.0, 1e-5)) == "(1, 1e-05)-DP, replace-one neighbours, worst case");
  PrivacyClaim model = claim(1.0, 1e-5);
  model.scope = ClaimScope::under_model_assumptions;
  model.conditions = {"n >= C r log n"};
  const std::string text = describe(model);
  CHECK(text.find("ONLY with high probability under the model") != std::string::npos);
  CHECK(text.find("n >= C r log n") != std::string::npos);
  CHECK(describe(claim(0.5, 0.0)) == "0.5-DP (pure), replace-one neighbours, worst case");
  PrivacyClaim add_remove = claim(2.0, 0.0);
  add_remove.neighbours = dpb::alg::Neighbours::add_remove;
  CHECK(describe(add_remove) == "2-DP (pure), add/remove-one neighbours, worst case");
}
