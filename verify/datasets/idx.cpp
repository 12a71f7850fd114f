#include "verify/datasets/idx.hpp"

#include <bit>
#include <cstring>
#include <fmt/core.h>
#include <fstream>

#include "core/errors.hpp"

namespace dpb::verify {
namespace {

std::uint32_t big_endian_u32(const unsigned char* b) {
  return (std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) | (std::uint32_t{b[2]} << 8) | b[3];
}

// One element of type `code` at `b` (big-endian), as a double.
double element(const unsigned char* b, unsigned char code) {
  switch (code) {
    case 0x08: return b[0];
    case 0x09: return static_cast<std::int8_t>(b[0]);
    case 0x0B: return static_cast<std::int16_t>((b[0] << 8) | b[1]);
    case 0x0C: return static_cast<std::int32_t>(big_endian_u32(b));
    case 0x0D: return std::bit_cast<float>(big_endian_u32(b));
    default: {  // 0x0E
      const std::uint64_t bits = (std::uint64_t{big_endian_u32(b)} << 32) | big_endian_u32(b + 4);
      return std::bit_cast<double>(bits);
    }
  }
}

std::size_t element_size(unsigned char code) {
  switch (code) {
    case 0x08: case 0x09: return 1;
    case 0x0B: return 2;
    case 0x0C: case 0x0D: return 4;
    case 0x0E: return 8;
    default: return 0;
  }
}

}  // namespace

IdxArray read_idx(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidArgument(fmt::format("{}: cannot open the file", name));
  unsigned char magic[4] = {};
  in.read(reinterpret_cast<char*>(magic), 4);
  if (!in) throw InvalidArgument(fmt::format("{}: shorter than an IDX header", name));
  if (magic[0] == 0x1f && magic[1] == 0x8b)
    throw InvalidArgument(fmt::format("{}: is gzip-compressed; decompress it first (gunzip)", name));
  const unsigned char code = magic[2], rank = magic[3];
  if (magic[0] != 0 || magic[1] != 0 || element_size(code) == 0 || rank == 0)
    throw InvalidArgument(fmt::format("{}: not an IDX file (magic bytes {:02x} {:02x} {:02x} {:02x})", name, magic[0],
                                      magic[1], magic[2], magic[3]));
  IdxArray array;
  std::size_t count = 1;
  for (int i = 0; i < rank; ++i) {
    unsigned char size[4];
    in.read(reinterpret_cast<char*>(size), 4);
    if (!in) throw InvalidArgument(fmt::format("{}: the header ends before its {} dimensions", name, int(rank)));
    array.dims.push_back(big_endian_u32(size));
    count *= array.dims.back();
  }
  const std::size_t width = element_size(code);
  std::vector<unsigned char> raw(count * width);
  in.read(reinterpret_cast<char*>(raw.data()), static_cast<std::streamsize>(raw.size()));
  if (!in) throw InvalidArgument(fmt::format("{}: the file ends before its {} values", name, count));
  array.values.resize(count);
  for (std::size_t i = 0; i < count; ++i) array.values[i] = element(raw.data() + i * width, code);
  return array;
}

}  // namespace dpb::verify
