#include "verify/report/report_spec.hpp"

#include <catch2/catch.hpp>

TEST_CASE("report spec defaults: rows n, columns algorithm, mean with its 95% interval, log-log figures", "[report][spec]") {
  const dpb::verify::TableSpec t;
  CHECK(t.rows == "n");
  CHECK(t.columns == "algorithm");
  CHECK(t.stat == "mean_ci");
  CHECK(t.metrics.empty());
  const dpb::verify::FigureSpec f;
  CHECK(f.x == "n");
  CHECK(f.log_x);
  CHECK(f.log_y);
  CHECK(f.theorem.empty());
}
