#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "core/errors.hpp"
#include "verify/datasets/idx.hpp"

namespace fs = std::filesystem;

namespace {

fs::path temp_file(const std::string& name) {
  return fs::temp_directory_path() / ("dpb_idx_" + std::to_string(::getpid()) + "_" + name);
}

void put_u32(std::ofstream& out, std::uint32_t v) {
  const char b[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
  out.write(b, 4);
}

}  // namespace

TEST_CASE("IDX files of several element types read back in row-major order", "[verify][idx]") {
  const auto bytes = temp_file("u8");
  {
    std::ofstream out(bytes, std::ios::binary);
    out.write("\x00\x00\x08\x02", 4);
    put_u32(out, 2);
    put_u32(out, 3);
    out.write("\x01\x02\x03\xfe\x05\x06", 6);
  }
  const auto a = dpb::verify::read_idx(bytes);
  CHECK(a.dims == std::vector<std::uint32_t>{2, 3});
  CHECK(a.values == std::vector<double>{1, 2, 3, 254, 5, 6});

  const auto floats = temp_file("f32");
  {
    std::ofstream out(floats, std::ios::binary);
    out.write("\x00\x00\x0d\x01", 4);
    put_u32(out, 2);
    put_u32(out, 0x3fc00000);  // 1.5f, big-endian
    put_u32(out, 0xc0200000);  // -2.5f
  }
  CHECK(dpb::verify::read_idx(floats).values == std::vector<double>{1.5, -2.5});

  const auto shorts = temp_file("i16");
  {
    std::ofstream out(shorts, std::ios::binary);
    out.write("\x00\x00\x0b\x01", 4);
    put_u32(out, 1);
    out.write("\xff\xfe", 2);  // -2
  }
  CHECK(dpb::verify::read_idx(shorts).values == std::vector<double>{-2});
  for (const auto& p : {bytes, floats, shorts}) fs::remove(p);
}

TEST_CASE("bad IDX files are refused by name", "[verify][idx]") {
  const auto gz = temp_file("gz"), bad = temp_file("bad"), truncated = temp_file("trunc");
  std::ofstream(gz, std::ios::binary).write("\x1f\x8b\x08\x00", 4);
  std::ofstream(bad, std::ios::binary).write("\x00\x00\x07\x01", 4);
  {
    std::ofstream out(truncated, std::ios::binary);
    out.write("\x00\x00\x08\x01", 4);
    put_u32(out, 10);
    out.write("\x01\x02", 2);
  }
  CHECK_THROWS_WITH(dpb::verify::read_idx(gz), Catch::Contains("gzip-compressed"));
  CHECK_THROWS_WITH(dpb::verify::read_idx(bad), Catch::Contains("not an IDX file"));
  CHECK_THROWS_WITH(dpb::verify::read_idx(truncated), Catch::Contains("ends before its 10 values"));
  CHECK_THROWS_WITH(dpb::verify::read_idx(temp_file("missing")), Catch::Contains("cannot open"));
  for (const auto& p : {gz, bad, truncated}) fs::remove(p);
}
