// End-to-end tests of the `dpbounds` executable (its path comes from ctest's DPB_CLI).
#include <catch2/catch.hpp>

#include "cli/run_cli.hpp"

using dpb::test::lines;
using dpb::test::run_cli;

TEST_CASE("dpbounds --help teaches the verbs and --version prints the version", "[cli]") {
  const auto help = run_cli("--help");
  CHECK(help.code == 0);
  for (const char* verb : {"list", "calibrate", "demo", "Examples"}) CHECK(help.out.find(verb) != std::string::npos);
  const auto version = run_cli("--version");
  CHECK(version.code == 0);
  CHECK(version.out.rfind("dpbounds ", 0) == 0);
}

TEST_CASE("each verb's --help ends with its own examples, not the global verb list", "[cli]") {
  // Observed: 10 of 16 verbs ended their help with the 60-line list of every verb.
  for (const std::string verb :
       {"list", "verify", "reproduce", "run", "check", "table", "plot", "compare", "demo", "bench", "audit", "pca"}) {
    INFO(verb);
    const auto help = run_cli(verb + " --help");
    CHECK(help.code == 0);
    CHECK(help.out.find("Verbs:") == std::string::npos);
    CHECK(help.out.find("\nExamples:\n  dpbounds " + verb) != std::string::npos);
  }
}

TEST_CASE("an unknown verb is named, with the verbs there are", "[cli]") {
  const auto r = run_cli("frobnicate");
  CHECK(r.code == 2);
  CHECK(lines(r.err) == 1);
  CHECK_THAT(r.err, Catch::Contains("unknown verb 'frobnicate'; the verbs are list, verify,"));
  CHECK_THAT(run_cli("verfy").err, Catch::Contains("unknown verb 'verfy' (did you mean 'verify'?)"));
}

TEST_CASE("list prints one id per line and valid JSON with --json", "[cli]") {
  const auto models = run_cli("list models");
  CHECK(models.code == 0);
  CHECK(models.out.find("spiked_gaussian\n") != std::string::npos);
  const auto json = run_cli("list models --json");
  CHECK(json.code == 0);
  CHECK(json.out.find("\"id\": \"spiked_gaussian\"") != std::string::npos);
  CHECK(run_cli("list algorithms").code == 0);
  CHECK(run_cli("list theorems --json").code == 0);
}

TEST_CASE("calibrate prints the noise scale and its exact privacy", "[cli]") {
  const auto g = run_cli("calibrate gaussian --sensitivity 1 --epsilon 0.5 --delta 1e-5");
  CHECK(g.code == 0);
  // sqrt(2 log(1.25e5)) / 0.5 = 9.689...
  CHECK(g.out.find("sigma          9.68") != std::string::npos);
  CHECK(g.out.find("exact privacy") != std::string::npos);
  const auto a = run_cli("calibrate gaussian --sensitivity 1 --epsilon 2 --delta 1e-5 --analytic --json");
  CHECK(a.code == 0);
  CHECK(a.out.find("\"exact_delta\"") != std::string::npos);
  const auto l = run_cli("calibrate laplace --sensitivity 2 --epsilon 4");
  CHECK(l.code == 0);
  CHECK(l.out.find("b              0.5\n") != std::string::npos);
}

TEST_CASE("demo prints its privacy claim and an error table", "[cli]") {
  const auto r = run_cli("demo --seed 3");
  CHECK(r.code == 0);
  CHECK(r.out.find("claim    (1, 1e-05)-DP, replace-one neighbours, worst case") != std::string::npos);
  CHECK(r.out.find("  100000  ") != std::string::npos);
  CHECK(r.err.empty());
}

TEST_CASE("every invalid input exits 2 with one line on stderr and nothing on stdout", "[cli]") {
  const char* bad[] = {
      "calibrate gaussian --sensitivity 1 --epsilon 0 --delta 1e-5",      // eps <= 0
      "calibrate gaussian --sensitivity 1 --epsilon -1 --delta 1e-5",     // eps < 0
      "calibrate gaussian --sensitivity 1 --epsilon 0.5 --delta 1",       // delta outside (0,1)
      "calibrate gaussian --sensitivity 1 --epsilon 0.5 --delta 0",       // delta outside (0,1)
      "calibrate gaussian --sensitivity 1 --epsilon 0.5",                 // delta missing
      "calibrate gaussian --sensitivity 1 --epsilon 2 --delta 1e-5",      // classical needs eps < 1
      "calibrate gaussian --sensitivity 1 --epsilon 1x --delta 1e-5",     // malformed number
      "calibrate gaussian --sensitivity nan --epsilon 1 --delta 1e-5",    // not finite
      "calibrate laplace --sensitivity 1 --epsilon 1 --delta 1e-5",       // Laplace is pure DP
      "calibrate cauchy --sensitivity 1 --epsilon 1",                     // unknown mechanism
      "calibrate gaussian --epsilon 1 --delta 1e-5",                      // missing option
      "list widgets",                                                     // unknown kind
      "frobnicate",                                                       // unknown verb
      "",                                                                 // no verb
      "demo --epsilon 0",                                                 // demo validates too
      "demo --seed -3",                                                   // seeds are >= 0
  };
  for (const char* args : bad) {
    INFO("dpbounds " << args);
    dpb::test::check_usage_error(run_cli(args));
  }
}
