#include "core/cpu_level.hpp"

namespace dpb::core {

bool has_avx2() noexcept {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool yes = __builtin_cpu_supports("x86-64-v3");
  return yes;
#else
  return false;
#endif
}

bool avx2_is_widest() noexcept {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool yes = has_avx2() && !__builtin_cpu_supports("x86-64-v4");
  return yes;
#else
  return false;
#endif
}

}  // namespace dpb::core
