#include "verify/distributed/spread.hpp"

#include <omp.h>
#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

#include "verify/runner/runner.hpp"

// A job's exception used to escape the OpenMP region and terminate the program (found auditing
// baseline.dp_gauss_2 with a score that some of its runs' outputs cannot give): now the lowest failing job's
// exception is thrown after the loop, whatever the threads.
TEST_CASE("spread rethrows the lowest failing job's exception instead of terminating", "[distributed]") {
  const auto job = [](std::size_t i) -> std::vector<double> {
    if (i == 37 || i == 80 || i == 999) throw std::invalid_argument("job " + std::to_string(i));
    return {static_cast<double>(i)};
  };
  CHECK_THROWS_WITH(dpb::verify::ranks::spread(1000, job), "job 37");
  const auto values = dpb::verify::ranks::spread(37, job);  // the jobs before the first failure run as before
  REQUIRE(values.size() == 37);
  CHECK(values[36] == std::vector<double>{36.0});
}

// `dpbounds verify --threads 1` ran its audits' runs on every core: spread's region took OpenMP's default.
// A run's ThreadCount now holds for the audits' runs too, and is undone after.
TEST_CASE("spread's jobs run on as many threads as the run's ThreadCount says", "[distributed]") {
  const int before = omp_get_max_threads();
  const auto team = [](std::size_t) { return std::vector<double>{double(omp_get_num_threads())}; };
  for (const int threads : {1, 2}) {
    const dpb::verify::ThreadCount count(threads);
    for (const auto& v : dpb::verify::ranks::spread(64, team)) CHECK(v.front() == threads);
  }
  CHECK(omp_get_max_threads() == before);
}
