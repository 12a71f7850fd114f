#include "core/memory.hpp"

#include <sys/mman.h>
#include <unistd.h>
#if defined(__GLIBC__)  // <unistd.h> defines it
#include <malloc.h>
#endif

#include <fmt/format.h>
#include <cstdint>
#include <fstream>
#include <string>

#include "core/errors.hpp"

namespace dpb::core {
namespace {

constexpr double kBytesPerDouble = 8;
constexpr double kDataCopies = 2;    // the data and one working copy (clipped, centred, a neighbour)
constexpr double kSquareCopies = 6;  // covariance, eigenvectors, noise, eigensolver workspace
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

}  // namespace

double available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  for (std::string key; meminfo >> key;) {
    double kib = 0;
    std::string unit;
    if (!(meminfo >> kib >> unit)) break;
    if (key == "MemAvailable:") return kib * 1024.0;
  }
  return double(::sysconf(_SC_PHYS_PAGES)) * double(::sysconf(_SC_PAGE_SIZE));
}

double trial_memory_bytes(double n, double d) {
  return kBytesPerDouble * (kDataCopies * n * d + kSquareCopies * d * d);
}

void require_memory(double bytes, const std::string& what, const std::string& hint) {
  const double available = available_memory_bytes();
  if (bytes <= available) return;
  throw InvalidArgument(fmt::format("{} needs about {:.3g} GiB of memory; this machine has {:.3g} GiB available ({})",
                                    what, bytes / kGiB, available / kGiB, hint));
}

void advise_huge_pages(void* data, std::size_t bytes) {
#ifdef MADV_HUGEPAGE
  // Only the whole huge pages inside the allocation: madvise needs page-aligned bounds.
  constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
  const auto start = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t begin = (start + kHugePage - 1) & ~(kHugePage - 1),
                       end = (start + bytes) & ~(kHugePage - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)data, (void)bytes;
#endif
}

bool retain_freed_memory() {
#if defined(__GLIBC__)
  // Below this a block comes from the heap, and a heap's free top up to this size is kept (measured against
  // 32 MiB, where glibc's own raises stop: liu2022's quick-suite experiment, whose 64 MB sample matrices are
  // then reused on the main thread, 10.5 s -> 9.7 s, its system time 1.5 s -> 0.3 s; dugler2026's headline
  // experiments unchanged). One huge trial's memory, a block of 1 GiB or more, still goes back.
  constexpr int kKeepBelow = 1 << 30;
  return mallopt(M_MMAP_THRESHOLD, kKeepBelow) == 1 && mallopt(M_TRIM_THRESHOLD, kKeepBelow) == 1;
#else
  return false;
#endif
}

}  // namespace dpb::core
