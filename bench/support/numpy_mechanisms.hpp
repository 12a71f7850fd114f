#pragma once
// The mechanisms the bench's numpy loops share, as a researcher would write them: run_numpy_script's
// prelude comes first, then this, then the loops (numpy_dp_pca_loops.hpp, numpy_adaptive_loops.hpp).

namespace dpb::bench {

// Python:
//   stable_mode(bins, eps, delta)  the stability histogram (liu2022 §2.7, dugler2026 Lemma 12): each
//                                  occupied bin's frequency plus Laplace(2 / (eps n)), kept from
//                                  2 log(2 / delta) / (eps n) + 1 / n on; the kept bin of largest noisy
//                                  frequency (ties to the smallest), or None.
constexpr const char* kNumpyMechanisms = R"(
def stable_mode(bins, eps, delta):
    vals, counts = np.unique(bins, return_counts=True)
    p = counts / len(bins) + rng.laplace(0.0, 2 / (eps * len(bins)), len(vals))
    p[p < 2 * np.log(2 / delta) / (eps * len(bins)) + 1 / len(bins)] = 0
    return vals[np.argmax(p)] if p.max() > 0 else None
)";

}  // namespace dpb::bench
