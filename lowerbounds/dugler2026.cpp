// Lower bounds cited by Dügler & Sanyal 2026 in its Appendix D (spec: dugler2026 §5).
//
// Parameters (bounds::Params names):
//   Thm 7: as liu2022.thm5.3 (n, d, epsilon, lambda1, lambda2; packing_seed, packing_max_words)
//   Thm 8: n, d, k, epsilon, delta; lambda (spike strength, all k spikes of order lambda), sigma2 (noise level);
//          c0, c0_prime: the unspecified "small constants" of its delta condition (Params entries; defaults
//          below are placeholders chosen small, as the theorem asks, not values from the paper)
// Corollary 5 (energy metric zeta of Dügler & Sanyal 2025, Def. 4) is not encoded: `Loss` has no energy kind.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "bounds/params.hpp"
#include "lowerbounds/papers.hpp"

namespace dpb::lower {
namespace {

using bounds::Params;
using bounds::positive;
using bounds::Theorem;

constexpr double default_c0 = 0.01;
constexpr double default_c0_prime = 1;

// Thm 7 is liu2022's Thm 5.3 restated: the same object (rate, conditions, explicit value, setting).
Theorem thm7() {
  const auto liu = liu2022_lower_bounds();
  const auto it =
      std::find_if(liu.begin(), liu.end(), [](const Theorem& t) { return t.id == "liu2022.thm5.3"; });
  if (it == liu.end()) throw std::logic_error("dugler2026.thm7 restates liu2022.thm5.3, which is missing");
  Theorem t = *it;
  t.id = "dugler2026.thm7";
  t.source = "Dügler & Sanyal 2026, Theorem 7 (App. D) = Liu, Kong, Jain, Oh 2022, Theorem 5.3";
  return t;
}

Theorem thm8() {
  Theorem t;
  t.id = "dugler2026.thm8";
  t.source = "Dügler & Sanyal 2026, Theorem 8 (App. D) = Cai, Xia, Zha 2024, Theorem 4.2";
  t.kind = bounds::Kind::lower;
  // Printed for E||.||_F / sqrt(k); encoded as E||.||_F (the rate times sqrt(k)) so that it pairs with the
  // unnormalised Frobenius upper bounds of this paper (Cor. 3).
  t.loss = {bounds::Loss::Name::projector_fro};
  t.semantics = {false, 0};
  t.applies = {"(eps,delta)-DP"};
  t.rate = [](const Params& p) {
    const double n = positive(p, "n"), d = positive(p, "d"), k = positive(p, "k"), eps = positive(p, "epsilon");
    const double lambda = positive(p, "lambda"), sigma = std::sqrt(positive(p, "sigma2"));
    const double normalised = ((sigma * std::sqrt(lambda) + sigma * sigma) / lambda) *
                              (std::sqrt(d / n) + d * std::sqrt(k) / (n * eps));
    return std::sqrt(k) * std::min(normalised, 1.0);
  };
  t.conditions = {{"delta condition", "delta <= c0' exp(2 eps - c0 (eps sqrt(n d k) + d k))",
                   [](const Params& p) {
                     const double c0 = bounds::param_or(p, "c0", default_c0);
                     const double c0_prime = bounds::param_or(p, "c0_prime", default_c0_prime);
                     const double n = positive(p, "n"), d = positive(p, "d"), k = positive(p, "k");
                     const double eps = positive(p, "epsilon");
                     const double log_bound =
                         std::log(c0_prime) + 2 * eps - c0 * (eps * std::sqrt(n * d * k) + d * k);
                     return std::log(bounds::unit_interval(p, "delta")) <= log_bound;
                   }},
                  {"k <= d", "1 <= k <= d", [](const Params& p) {
                     const double k = positive(p, "k");
                     return k >= 1 && k <= positive(p, "d");
                   }}};
  t.latex =
      R"(\inf\sup \mathbb E\|\hat U\hat U^\top - UU^\top\|_F \gtrsim \sqrt k\left(\frac{\sigma\sqrt\lambda + \sigma^2}{\lambda}\left(\sqrt{\frac{d}{n}} + \frac{d\sqrt k}{n\varepsilon}\right)\wedge 1\right))";
  t.hides = "a universal constant c1; the spike eigenvalues only within constant factors of lambda";
  t.setting = "dugler2026.spiked_gaussian";
  // log delta must sit below 2 eps - c0 (eps sqrt(ndk) + dk) = 2 - 0.01 (6324.6 + 40) = -61.6 at the
  // defaults.
  t.example = {{"n", 1e6}, {"d", 20}, {"k", 2}, {"epsilon", 1}, {"delta", 1e-30}, {"lambda", 4}, {"sigma2", 1}};
  return t;
}

}  // namespace

std::vector<bounds::Theorem> dugler2026_lower_bounds() { return {thm7(), thm8()}; }

}  // namespace dpb::lower
