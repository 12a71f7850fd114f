#pragma once
// The IDX format of the MNIST files (LeCun et al.): a magic number whose third byte names the element
// type and whose fourth the number of dimensions, big-endian 32-bit sizes, then the values row-major.
#include <cstdint>
#include <filesystem>
#include <vector>

namespace dpb::verify {

struct IdxArray {
  std::vector<std::uint32_t> dims;  // e.g. {60000, 28, 28} for the training images
  std::vector<double> values;       // row-major, converted to double
};

// Reads any IDX file (unsigned/signed byte, short, int, float, double elements). Throws
// dpb::InvalidArgument naming the file for a missing file, a gzip file (decompress it first), a bad
// magic number or a file shorter than its header says.
IdxArray read_idx(const std::filesystem::path& path);

}  // namespace dpb::verify
