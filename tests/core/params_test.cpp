#include "core/params.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/errors.hpp"

using dpb::InvalidArgument;
using namespace dpb::core;

TEST_CASE("ParamMap: typed getters return stored values or the fallback", "[params]") {
  const ParamMap p{
      {"eps", 0.5}, {"T", 200.0}, {"mode", std::string("faithful")}, {"grid", std::vector<double>{1, 2, 3}}};
  CHECK(p.get_real("eps", 9, "alg") == 0.5);
  CHECK(p.get_real("delta", 1e-5, "alg") == 1e-5);
  CHECK(p.get_int("T", 1, "alg") == 200);
  CHECK(p.get_int("missing", -7, "alg") == -7);
  CHECK(p.get_string("mode", "corrected", "alg") == "faithful");
  CHECK(p.get_string("other", "corrected", "alg") == "corrected");
  CHECK(p.get_reals("grid", "alg") == std::vector<double>{1, 2, 3});
  CHECK(p.get_reals("eps", "alg") == std::vector<double>{0.5});  // a number is a one-element list
  CHECK_FALSE(p.get_reals("missing", "alg").has_value());
  CHECK(p.has("eps"));
  CHECK_FALSE(p.has("delta"));
}

TEST_CASE("ParamMap: wrong types and non-integers throw, naming owner and parameter", "[params]") {
  ParamMap p{{"eps", 0.5}, {"mode", std::string("x")}, {"grid", std::vector<double>{1, 2}}};
  CHECK_THROWS_WITH(p.get_real("mode", 0, "oja"), Catch::Contains("oja") && Catch::Contains("'mode'"));
  CHECK_THROWS_AS(p.get_real("grid", 0, "oja"), InvalidArgument);
  CHECK_THROWS_WITH(p.get_int("eps", 0, "oja"), Catch::Contains("integer") && Catch::Contains("'eps'"));
  CHECK_THROWS_AS(p.get_int("mode", 0, "oja"), InvalidArgument);
  CHECK_THROWS_AS(p.get_string("eps", "", "oja"), InvalidArgument);
  CHECK_THROWS_AS(p.get_reals("mode", "oja"), InvalidArgument);
  p.set("huge", 1e17);  // not representable as an exact integer count
  CHECK_THROWS_AS(p.get_int("huge", 0, "oja"), InvalidArgument);
  p.set("neg", -3.0);
  CHECK(p.get_int("neg", 0, "oja") == -3);
}

TEST_CASE("ParamMap::require_known lists the allowed names", "[params]") {
  const ParamMap p{{"eps", 1.0}, {"stepsize", 0.1}};
  CHECK_NOTHROW(p.require_known({"eps", "stepsize", "T"}, "oja"));
  CHECK_THROWS_AS(p.require_known({"eps", "step"}, "oja"), InvalidArgument);
  CHECK_THROWS_WITH(
      p.require_known({"eps", "step", "T"}, "oja"),
      Catch::Contains("'stepsize'") && Catch::Contains("oja") && Catch::Contains("allowed: eps, step, T"));
  CHECK_NOTHROW(ParamMap{}.require_known({}, "oja"));
}

TEST_CASE("ParamMap::parse_assignment: numbers, lists and strings", "[params]") {
  using P = std::pair<std::string, ParamValue>;
  CHECK(ParamMap::parse_assignment("eps=0.5") == P{"eps", 0.5});
  CHECK(ParamMap::parse_assignment("delta=1e-5") == P{"delta", 1e-5});
  CHECK(ParamMap::parse_assignment("T=+200") == P{"T", 200.0});
  CHECK(ParamMap::parse_assignment("shift=-2.5") == P{"shift", -2.5});
  CHECK(ParamMap::parse_assignment("n=[1,2, 3]") == P{"n", std::vector<double>{1, 2, 3}});
  CHECK(ParamMap::parse_assignment("n=[ 1e3 ,\t-2 ]") == P{"n", std::vector<double>{1000, -2}});
  CHECK(ParamMap::parse_assignment("n=[7]") == P{"n", std::vector<double>{7}});
  CHECK(ParamMap::parse_assignment("n=[]") == P{"n", std::vector<double>{}});
  CHECK(ParamMap::parse_assignment("n=[ ]") == P{"n", std::vector<double>{}});
  CHECK(ParamMap::parse_assignment("mode=faithful") == P{"mode", std::string("faithful")});
  // Not a number, so a string (the getter then reports the type error).
  CHECK(ParamMap::parse_assignment("x=1x") == P{"x", std::string("1x")});
  CHECK(ParamMap::parse_assignment("x=nan") == P{"x", std::string("nan")});
  // Only the first '=' separates.
  CHECK(ParamMap::parse_assignment("expr=a=b") == P{"expr", std::string("a=b")});
}

TEST_CASE("ParamMap::parse_assignment: malformed input throws InvalidArgument", "[params]") {
  CHECK_THROWS_AS(ParamMap::parse_assignment("eps"), InvalidArgument);       // no '='
  CHECK_THROWS_AS(ParamMap::parse_assignment("=0.5"), InvalidArgument);      // no name
  CHECK_THROWS_AS(ParamMap::parse_assignment("eps="), InvalidArgument);      // no value
  CHECK_THROWS_AS(ParamMap::parse_assignment("n=[1,,2]"), InvalidArgument);  // empty item
  CHECK_THROWS_AS(ParamMap::parse_assignment("n=[1,2,]"), InvalidArgument);
  CHECK_THROWS_AS(ParamMap::parse_assignment("n=[1,x]"), InvalidArgument);
  CHECK_THROWS_AS(ParamMap::parse_assignment("n=[1,inf]"), InvalidArgument);
}

TEST_CASE("parse_number: strict, finite numbers only", "[params]") {
  CHECK(parse_number("0.5", "eps") == 0.5);
  CHECK(parse_number("1e-3", "eps") == 1e-3);
  CHECK(parse_number("-2", "eps") == -2);
  CHECK(parse_number("+4", "eps") == 4);
  CHECK(parse_number("7", "eps") == 7);
  for (const char* bad :
       {"1x", "", "nan", "inf", "-inf", "NaN", "1e999", " 1", "1 ", "+", "+-1", "--1", "0x10"})
    CHECK_THROWS_AS(parse_number(bad, "eps"), InvalidArgument);
  CHECK_THROWS_WITH(parse_number("1x", "parameter eps"),
                    Catch::Contains("parameter eps") && Catch::Contains("'1x'"));
}
