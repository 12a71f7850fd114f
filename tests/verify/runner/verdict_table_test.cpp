#include "verify/runner/verdict_table.hpp"

#include <catch2/catch.hpp>
#include <sstream>

#include "tests/verify/checks/synthetic.hpp"

using namespace dpb::verify;

TEST_CASE("verdicts print status first and decide the exit code", "[runner]") {
  const Verdict pass{dpb::test::check_spec("rate", "t.1", "a", "sin", "n"), VerdictStatus::pass, "mean", "slope -0.02", {}};
  const Verdict fail{dpb::test::check_spec("consistency", "t.1", "", "", "", "t.2"), VerdictStatus::fail, "",
                     "gap grows in n", {}};
  CHECK(describe_check(pass.check) == "rate t.1 a sin vs n");
  CHECK(describe_check(fail.check) == "consistency t.1 vs t.2");
  CheckSpec dominates = dpb::test::check_spec("dominates", "", "ours", "sin", "", "theirs");
  dominates.tolerance = 0;
  CHECK(describe_check(dominates) == "dominates ours <= theirs on sin");
  dominates.where = {{"lambda", {2, 5}}, {"n", {100, 1000}}};
  CHECK(describe_check(dominates) == "dominates ours <= theirs on sin where lambda in [2, 5], n in [100, 1000]");
  CheckSpec with_params = dpb::test::check_spec("rate", "t.1", "a", "sin", "n");
  with_params.params = {{"M", 50}, {"lr_mult", 1}};
  CHECK(describe_check(with_params) == "rate t.1 a sin vs n [M=50, lr_mult=1]");
  std::ostringstream out;
  print_verdicts({pass, fail}, out);
  CHECK_THAT(out.str(), Catch::StartsWith("PASS          rate t.1 a sin vs n\n              slope -0.02\nFAIL "));
  CHECK(count_verdicts({pass, fail, fail}) == std::array<std::size_t, 3>{1, 2, 0});
  CHECK(verdicts_exit_code({pass}) == 0);
  CHECK(verdicts_exit_code({pass, fail}) == kFailedCheckExitCode);
  std::ostringstream none;
  print_verdicts({}, none);
  CHECK(none.str() == "(no checks)\n");
}
