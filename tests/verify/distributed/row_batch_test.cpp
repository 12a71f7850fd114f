#include "verify/distributed/row_batch.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "support/same_bits.hpp"

using dpb::verify::RowBatch;
using dpb::verify::TrialRow;

using dpb::test::same_bits;

TEST_CASE("a batch of rows crosses between ranks bit for bit, NaN and infinities included", "[distributed]") {
  TrialRow ok;
  ok.cell = 3;
  ok.cell_params = {{"n", 1000}, {"epsilon", 0.1}, {"lambda1", 1.0 / 3.0}};
  ok.algorithm = "baseline.dp_gauss_1[clip_constant=2]";
  ok.trial = 41;
  // Values with no short decimal form, a subnormal, and the IEEE specials a metric may produce.
  ok.metrics = {{"sin", std::nextafter(0.1, 1.0)},
                {"tiny", std::numeric_limits<double>::denorm_min()},
                {"nan", std::numeric_limits<double>::quiet_NaN()},
                {"inf", -std::numeric_limits<double>::infinity()}};
  ok.seconds = 0.0123456789;
  TrialRow failed;
  failed.cell = 0;
  failed.algorithm = "cai2024.gaussian_mechanism";
  failed.trial = 7;
  failed.error = "n must be >= 2";

  const RowBatch sent{{ok, failed}, true, true};
  const RowBatch got = dpb::verify::decode_row_batch(dpb::verify::encode(sent));
  CHECK(got.last);
  CHECK(got.interrupted);
  REQUIRE(got.rows.size() == 2);
  const TrialRow& a = got.rows[0];
  CHECK(a.cell == 3);
  CHECK(a.trial == 41);
  CHECK(a.algorithm == ok.algorithm);
  CHECK(a.error.empty());
  CHECK(same_bits(a.seconds, ok.seconds));
  REQUIRE(a.cell_params.size() == ok.cell_params.size());
  for (const auto& [name, value] : ok.cell_params) CHECK(same_bits(a.cell_params.at(name), value));
  REQUIRE(a.metrics.size() == ok.metrics.size());
  for (const auto& [name, value] : ok.metrics) {
    INFO(name);
    CHECK(same_bits(a.metrics.at(name), value));
  }
  CHECK(got.rows[1].error == failed.error);
  CHECK(got.rows[1].metrics.empty());

  const RowBatch plain = dpb::verify::decode_row_batch(dpb::verify::encode({{ok}}));
  CHECK_FALSE(plain.last);
  CHECK_FALSE(plain.interrupted);
}

TEST_CASE("bytes that are not a batch of rows are refused", "[distributed]") {
  CHECK_THROWS_AS(dpb::verify::decode_row_batch("not cbor at all"), std::runtime_error);
  CHECK_THROWS_AS(dpb::verify::decode_row_batch(""), std::runtime_error);
}
