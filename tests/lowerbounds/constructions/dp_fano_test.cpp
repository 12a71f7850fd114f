#include "lowerbounds/constructions/dp_fano.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/errors.hpp"

using dpb::lower::FanoInputs;
using dpb::lower::FanoVariant;

TEST_CASE("DP Fano: both printed renderings against their closed forms", "[constructions][liu2022]") {
  // n = 10, eps = 1, tau = 0.5, KL = 0.01, TV = 0.05, |V| = 100:
  //   statistical = 0.25 (1 - (0.1 + log 2)/log 100) = 0.2069426
  //   [003] SECOND = min(1, log 100/(10*0.05*1)) = 1 -> privacy 0.2
  //   [000] SECOND = min(1, 100 e^{-5}) = 0.6737947 -> privacy 0.1347589
  const FanoInputs in{10, 1, 0.5, 0.01, 0.05, std::log(100.0)};
  const auto a = dpb::lower::dp_fano(in, FanoVariant::printed_003);
  const auto b = dpb::lower::dp_fano(in, FanoVariant::printed_000);
  CHECK(a.statistical == Approx(0.2069426).epsilon(1e-6));
  CHECK(a.privacy == Approx(0.2));
  CHECK(b.privacy == Approx(0.1347589).epsilon(1e-6));
  CHECK(a.value() == Approx(0.2069426).epsilon(1e-6));
  // KL = 1 kills the statistical term: the values are the privacy terms, the conservative one is [000]'s.
  const FanoInputs loud{10, 1, 0.5, 1, 0.05, std::log(100.0)};
  CHECK(dpb::lower::dp_fano(loud, FanoVariant::printed_003).value() == Approx(0.2));
  CHECK(dpb::lower::dp_fano_conservative(loud) == Approx(0.1347589).epsilon(1e-6));
  // An infinite KL (mixtures with distinct atoms) leaves only the privacy term.
  const FanoInputs atoms{10, 1, 0.5, std::numeric_limits<double>::infinity(), 0.05, std::log(100.0)};
  CHECK(dpb::lower::dp_fano(atoms, FanoVariant::printed_003).value() == Approx(0.2));
}

TEST_CASE("DP Fano is non-increasing in n and eps", "[constructions][liu2022]") {
  for (auto variant : {FanoVariant::printed_003, FanoVariant::printed_000}) {
    double previous = std::numeric_limits<double>::infinity();
    for (double n : {1.0, 10.0, 100.0, 1e3, 1e4}) {
      const double v = dpb::lower::dp_fano({n, 1, 0.5, 1e-3, 0.01, std::log(50.0)}, variant).value();
      CHECK(v <= previous);
      previous = v;
    }
    previous = std::numeric_limits<double>::infinity();
    for (double eps : {0.01, 0.1, 1.0, 10.0}) {
      const double v = dpb::lower::dp_fano({100, eps, 0.5, 1e-3, 0.01, std::log(50.0)}, variant).value();
      CHECK(v <= previous);
      previous = v;
    }
  }
}

TEST_CASE("DP Fano rejects inputs outside its domain", "[constructions][liu2022]") {
  CHECK_THROWS_AS(dpb::lower::dp_fano({0.5, 1, 0.5, 0, 0.1, 1}, FanoVariant::printed_003),
                  dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::lower::dp_fano({10, 0, 0.5, 0, 0.1, 1}, FanoVariant::printed_003),
                  dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::lower::dp_fano({10, 1, 0.5, 0, 1.5, 1}, FanoVariant::printed_003),
                  dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::lower::dp_fano({10, 1, 0.5, -1, 0.1, 1}, FanoVariant::printed_000),
                  dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::lower::dp_fano({10, 1, 0.5, 0, 0.1, 0}, FanoVariant::printed_000),
                  dpb::InvalidArgument);
}
