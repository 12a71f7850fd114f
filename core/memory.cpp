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
  constexpr int kMapFrom = 32 << 20;   // the largest threshold glibc's own raises reach
  constexpr int kTrimAbove = 1 << 30;  // a heap top this large goes back: one huge trial's memory is not kept
  return mallopt(M_MMAP_THRESHOLD, kMapFrom) == 1 && mallopt(M_TRIM_THRESHOLD, kTrimAbove) == 1;
#else
  return false;
#endif
}

}  // namespace dpb::core
