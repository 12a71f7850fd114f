#pragma once
// The vector level of this CPU, for the kernels that choose a version of themselves at run time.

namespace dpb::core {

// True where the CPU has x86-64-v3 (AVX2) but not x86-64-v4 (AVX-512): there the target_clones' AVX-512
// clones are not chosen, and the hand-written AVX2 kernels (algorithms/mechanisms/quick_bins_avx2,
// core/lane_products_avx2) beat their baseline clones. Decided once; false off x86-64.
bool avx2_is_widest() noexcept;

// True where the CPU has x86-64-v3 (AVX2), whether or not it has more: for kernels with an AVX2 version and
// no wider one (core/gram_products). False off x86-64.
bool has_avx2() noexcept;

}  // namespace dpb::core
