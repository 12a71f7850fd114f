#pragma once
// A small result set whose table entries are easy to compute by hand, and a scratch directory.
#include <unistd.h>
#include <filesystem>
#include <string>

#include "tests/support/scratch_dir.hpp"
#include "tests/support/text.hpp"
#include "verify/store/results.hpp"

namespace dpb::test {

// Algorithms "a" and "b" at n = 100 (cell 0) and n = 1000 (cell 1), three trials each, metric "sin":
//   a, n = 100:  1, 2, 3          mean 2, sd 1, median 2, quartiles 1.5 and 2.5
//   a, n = 1000: 0.5, 0.5, 0.8    mean 0.6, sd sqrt(0.03)
//   b, n = 100:  4, 4, 4          mean 4, sd 0
//   b, n = 1000: one failed trial and 0.2, 0.4
inline verify::ResultSet small_results() {
  verify::ResultSet r;
  r.experiment = std::string("small");
  r.hash = std::string("abc123");
  auto add = [&](std::size_t cell, const std::string& alg, std::size_t trial, double value) {
    verify::TrialRow row;
    row.cell = cell;
    row.cell_params = {{"n", cell == 0 ? 100.0 : 1000.0}, {"d", 5.0}};
    row.algorithm = alg;
    row.trial = trial;
    row.metrics["sin"] = value;
    r.rows.push_back(row);
  };
  add(0, "a", 0, 1), add(0, "a", 1, 2), add(0, "a", 2, 3);
  add(1, "a", 0, 0.5), add(1, "a", 1, 0.5), add(1, "a", 2, 0.8);
  add(0, "b", 0, 4), add(0, "b", 1, 4), add(0, "b", 2, 4);
  add(1, "b", 1, 0.2), add(1, "b", 2, 0.4);
  verify::TrialRow failed;
  failed.cell = 1;
  failed.cell_params = {{"n", 1000.0}, {"d", 5.0}};
  failed.algorithm = std::string("b");
  failed.error = std::string("diverged");
  r.rows.push_back(failed);
  return r;
}

}  // namespace dpb::test
