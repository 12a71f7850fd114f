#include "bounds/cai2024_model.hpp"

#include <cmath>

#include "bounds/params.hpp"

namespace dpb::bounds::cai2024 {

double Point::log_n() const { return std::log(n); }

Point read_point(const Params& x) {
  return {positive(x, "n"),
          positive(x, aliased(x, "p", "d")),
          positive(x, aliased(x, "r", "k")),
          positive(x, "lambda"),
          positive(x, "sigma2"),
          positive(x, "epsilon"),
          unit_interval(x, "delta")};
}

Loss normalized(Loss::Name name, double q) { return {name, q, true}; }

Condition rank_half_dimension() {
  return {"C-r", "2 r <= p", [](const Params& x) {
            const Point s = read_point(x);
            return 2 * s.r <= s.p;
          }};
}

}  // namespace dpb::bounds::cai2024
