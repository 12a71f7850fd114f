#pragma once
// Writes NumPy .npy files (format version 1.0) for the tests of the data readers.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace dpb::test {

// `values` are already laid out in the stated order (C: row after row; Fortran: column after column).
template <typename T>
void write_npy(const std::filesystem::path& path, const std::string& descr, bool fortran, std::size_t rows,
               std::size_t cols, const std::vector<T>& values) {
  std::string header = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                       ", 'shape': (" + std::to_string(rows) + ", " + std::to_string(cols) + "), }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';  // the format aligns the data to 64 bytes
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  out.write("\x93NUMPY\x01\x00", 8);
  const char length[2] = {static_cast<char>(header.size() & 0xff), static_cast<char>(header.size() >> 8)};
  out.write(length, 2);
  out << header;
  out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(T)));
}

}  // namespace dpb::test
