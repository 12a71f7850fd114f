#pragma once
// Refusing work that cannot fit in memory before it starts: a size that cannot fit (n = 1e12, d = 1e5,
// 1e12 audit runs) is one clean error naming what asked for it, never std::bad_alloc halfway through.
// The estimates are deliberately rough (the peak of the largest objects); they catch what cannot fit,
// not what fits tightly.
#include <cstddef>
#include <string>

namespace dpb::core {

// The memory a new allocation can have now: MemAvailable of /proc/meminfo, else physical memory.
double available_memory_bytes();

// Peak bytes of one trial on d x n data: the data and one d x n working copy, a few d x d matrices
// (a covariance, its eigenvectors, a noise matrix, workspace).
double trial_memory_bytes(double n, double d);

// Throws dpb::InvalidArgument when `bytes` exceeds available_memory_bytes(): "<what> needs about 7.3e+03
// GiB of memory; this machine has 21.4 GiB available (<hint>)".
void require_memory(double bytes, const std::string& what, const std::string& hint);

// Asks the kernel to back an allocation not touched yet with transparent huge pages (2 MiB) where it allows
// them on request (Linux, THP "madvise" or "always"). For a model's samples: the Oja family reads one record
// at a random place per step, and on 4 KiB pages nearly every read of n = 1e5, d = 100 data misses the TLB
// (measured: about 6 of Private Oja's 46 ms a trial). A hint: nothing changes where it is refused.
void advise_huge_pages(void* data, std::size_t bytes);

// Keeps freed memory in the process for the next allocation rather than handing it back to the kernel. For
// the dpbounds executable: called first thing in main(), before any thread exists. Trials allocate and free
// the same blocks, trial after trial. By default glibc (2.36) maps a block of 128 KiB or more on its own (a
// free raises that threshold to the freed block's size, up to 32 MiB) and hands a heap's free top back to
// the kernel beyond 128 KiB (twice the threshold once raised); either way the next trial's block is pages the
// kernel must fault in and zero again (measured: 28% of the CPU time of kumar2025's quick-suite experiment).
// So (glibc; elsewhere a no-op) blocks below 1 GiB come from the heap, and a heap's top goes back only beyond
// 1 GiB. A worker thread's arena still maps a block above its 64 MiB heaps on its own, and unmaps such a heap
// once it is empty. Returns whether the allocator took both settings.
bool retain_freed_memory();

}  // namespace dpb::core
