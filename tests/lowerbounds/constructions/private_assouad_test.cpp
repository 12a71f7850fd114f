#include "lowerbounds/constructions/private_assouad.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"

using dpb::core::Rng;
using namespace dpb::lower;

namespace {

PaddedSubcube assouad_cube() {
  Rng rng(21, 0);
  return padded_subcube(20, 6, {}, rng);
}

}  // namespace

TEST_CASE("private Assouad on the built padded subcube equals Lemma 26's closed form",
          "[kumar2025][constructions]") {
  const PaddedSubcube cube = assouad_cube();
  const double n = 3, eps = 0.5, delta = 1e-3;
  const AssouadInputs in = padded_subcube_assouad_inputs(cube, n);
  CHECK(in.tau == Approx(1.0 / 20).epsilon(1e-12));
  CHECK(in.dimension == 10);
  CHECK(in.min_fraction == 0.5);
  CHECK(in.coupling_distance == Approx(2 * n / 20).epsilon(1e-12));
  // By hand: (1/16)(0.9 e^{-20 eps n/d} - 20 n delta/d) = (1/16)(0.9 e^{-1.5} - 0.003)
  //        = (1/16)(0.9 * 0.2231301601 - 0.003) = (1/16)(0.1978171441) = 0.0123635715.
  CHECK(private_assouad_bound(in, eps, delta) == Approx(0.0123635715).epsilon(1e-9));
  // The paper's constant 1/8 doubles it (A16).
  CHECK(private_assouad_bound(in, eps, delta, AssouadConstant::paper) == Approx(0.0247271430).epsilon(1e-9));
}

TEST_CASE("private Assouad: monotone in n and eps, clamped at 0, Thm 5's regime exceeds 1/100",
          "[kumar2025][constructions]") {
  const PaddedSubcube cube = assouad_cube();
  const double eps = 0.5, delta = 1e-4;
  double previous = 1;
  for (double n : {1.0, 2.0, 4.0, 8.0, 16.0}) {
    const double value = private_assouad_bound(padded_subcube_assouad_inputs(cube, n), eps, delta);
    CHECK(value < previous);
    previous = value;
  }
  const AssouadInputs in = padded_subcube_assouad_inputs(cube, 2);
  CHECK(private_assouad_bound(in, 0.2, delta) > private_assouad_bound(in, 0.4, delta));
  CHECK(private_assouad_bound(padded_subcube_assouad_inputs(cube, 1e6), eps, delta) == 0);
  // Thm 5: n < d/(100 eps) and delta <= eps/100 give more than 1/100 even with the conservative 1/16.
  const double small_eps = 0.01, n = 20 / (100 * small_eps) * 0.99;
  CHECK(private_assouad_bound(padded_subcube_assouad_inputs(cube, n), small_eps, small_eps / 100) > 0.01);
  CHECK_THROWS_WITH(private_assouad_bound({0, 1, 0.5, 1}, eps, delta), Catch::Contains("tau > 0"));
  CHECK_THROWS_WITH(private_assouad_bound(in, eps, 2), Catch::Contains("delta in [0, 1]"));
}
