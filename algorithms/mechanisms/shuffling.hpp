#pragma once
// Amplification by shuffling (Feldman, McMillan, Talwar 2021, the explicit bound; liu2022 Thm D.1 uses
// it for Private Oja; spec: liu2022 §3.1): n local randomizers, each (eps0, delta0)-DP and each applied to
// its own record in a uniformly shuffled order, are together (eps, delta_s + (e^eps + 1)(1 + e^{-eps0}/2)
// n delta0)-DP with
//   eps = log(1 + (e^{eps0} - 1)/(e^{eps0} + 1) (8 sqrt(e^{eps0} log(4/delta_s))/sqrt(n) + 8 e^{eps0}/n)),
// on condition that eps0 <= log(n / (16 log(2/delta_s))).
#include <cstdint>

namespace dpb::alg {

// The bound's eps; +infinity when its condition on eps0 fails.
double shuffled_epsilon(double eps0, std::int64_t n, double delta_s);

// The split of a total delta this project uses for the bound: delta_s = delta/2 and delta0 =
// delta / (3 n (e^eps + 1)), so that (e^eps' + 1)(1 + e^{-eps0}/2) n delta0 <= delta/2 for every eps' <= eps.
struct ShufflingDeltas {
  double delta_s = 0;
  double delta0 = 0;
};
ShufflingDeltas shuffling_deltas(double epsilon, double delta, std::int64_t n);

// The (eps, delta) that Gaussian local steps with noise multiplier z = sd / sensitivity give on n shuffled
// records when the deltas are split for a target eps `eps_split` (shuffling_deltas): eps from the bound
// (+infinity outside its condition), delta = delta_s + (e^eps + 1)(1 + e^{-eps0}/2) n delta0.
struct ShuffledGuarantee {
  double epsilon = 0;
  double delta = 0;
};
ShuffledGuarantee shuffled_gaussian_guarantee(double noise_multiplier, std::int64_t n, double eps_split,
                                              double delta);

// Whether the bound's condition can hold at all for n records and total delta (delta_s = delta/2):
// n > 16 log(2/delta_s).
bool shuffling_applies(double delta, std::int64_t n);

// The smallest noise multiplier z whose shuffled guarantee is (eps, delta) (on the split for eps).
// Throws dpb::InvalidArgument unless shuffling_applies(delta, n).
double shuffling_noise_multiplier(double epsilon, double delta, std::int64_t n);

}  // namespace dpb::alg
