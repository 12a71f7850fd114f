#pragma once
// The cai2024 spiked-covariance model as both of its bound files read it (spec: cai2024-spiked-dp-pca.md
// §1.3, §4, §5): the parameter point, the Schatten-q losses each "for all q in [1, inf]" claim is exposed
// under, and the condition upper and lower bounds share. Upper and lower bounds use the same losses and
// setting, so `gaps` pairs them.
#include <limits>

#include "bounds/theorem.hpp"

namespace dpb::bounds::cai2024 {

// The spec's parameters; p may come as d and r as k (the verifier's names, core/models/spiked.cpp).
// lambda is the largest spike EXCLUDING sigma^2 (the model's lambda1 is lambda + sigma^2).
struct Point {
  double n, p, r, lambda, sigma2, eps, delta;
  double log_n() const;
};
// Throws dpb::InvalidArgument naming a missing or out-of-domain parameter (delta must lie in (0, 1)).
Point read_point(const Params& x);

// One exposed q of a "for all q" claim: the id suffix, the norm's LaTeX subscript, and the loss names
// for a projector and a covariance bound in that norm.
struct SchattenVariant {
  double q;
  const char* suffix;
  const char* tex;
  Loss::Name projector, covariance;
};
inline constexpr SchattenVariant kVariants[] = {
    {1, "q1", "1", Loss::Name::projector_schatten, Loss::Name::cov_schatten},
    {2, "q2", "2", Loss::Name::projector_fro, Loss::Name::cov_fro},
    {std::numeric_limits<double>::infinity(), "qinf", "\\infty", Loss::Name::projector_op,
     Loss::Name::cov_op},
};

// ||.||_q / r^{1/q}, the normalisation cai2024 reports every loss in.
Loss normalized(Loss::Name name, double q);

// Standing condition C-r: 2 r <= p.
Condition rank_half_dimension();

// The Gaussian spiked-covariance setting of Thm 3.1/3.2/5.2 and Thm 4.1/4.2.
inline constexpr const char* kSetting = "cai2024.spiked_covariance";

}  // namespace dpb::bounds::cai2024
