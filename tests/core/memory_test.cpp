#include "core/memory.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <thread>

#if defined(__GLIBC__)
#include <malloc.h>

namespace {

// Above glibc's default mmap threshold (128 KiB) and below the 1 GiB the setting raises it to: 20 MiB fits a
// worker thread arena's 64 MiB heap; 48 MiB is above the 32 MiB where glibc's own raises stop.
constexpr std::size_t kBlock = std::size_t{20} << 20, kLargeBlock = std::size_t{48} << 20;

void* volatile kept;  // the compiler must not pair a malloc with its free and drop both

// Allocates and frees one block; true when the block was neither mapped on its own nor handed back.
bool block_is_reused(std::size_t bytes) {
  const std::size_t mapped = mallinfo2().hblkhd;
  kept = std::malloc(bytes);
  const bool from_heap = mallinfo2().hblkhd == mapped;
  std::free(kept);
  return from_heap && mallinfo2().fordblks >= bytes;
}

}  // namespace

TEST_CASE("retain_freed_memory: a freed trial-sized block stays for the next, on every thread", "[memory]") {
  REQUIRE(dpb::core::retain_freed_memory());
  CHECK(block_is_reused(kBlock));
  CHECK(block_is_reused(kLargeBlock));
  bool on_worker = false;
  std::thread([&] { on_worker = block_is_reused(kBlock); }).join();  // a thread's own arena
  CHECK(on_worker);
}
#endif
