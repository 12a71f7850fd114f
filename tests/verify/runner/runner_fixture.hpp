#pragma once
// A fresh temporary directory per test, removed afterwards; rows compared without their timings.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/scratch_dir.hpp"
#include "verify/store/results.hpp"

namespace dpb::verify::test {

// Everything a row stores except its wall time, which differs between any two runs.
inline bool same_rows(const std::vector<TrialRow>& a, const std::vector<TrialRow>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].cell != b[i].cell || a[i].algorithm != b[i].algorithm || a[i].trial != b[i].trial ||
        a[i].cell_params != b[i].cell_params || a[i].metrics != b[i].metrics || a[i].error != b[i].error ||
        a[i].diagnostics != b[i].diagnostics)
      return false;
  return true;
}

}  // namespace dpb::verify::test
