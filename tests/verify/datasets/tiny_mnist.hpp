#pragma once
// Small MNIST-format IDX files written by tests (real MNIST cannot be downloaded here).
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <vector>

namespace dpb::test {

inline void put_u32(std::ofstream& out, std::uint32_t v) {
  const char b[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
  out.write(b, 4);
}

// train-images-idx3-ubyte and train-labels-idx1-ubyte in `dir`: one side x side image per label, pixel
// (r, c) of image i = pixel(i, r, c) in 0..255.
inline void write_tiny_mnist(const std::filesystem::path& dir, const std::vector<int>& labels, int side,
                             const std::function<int(int i, int r, int c)>& pixel) {
  std::filesystem::create_directories(dir);
  std::ofstream images(dir / "train-images-idx3-ubyte", std::ios::binary);
  std::ofstream label_file(dir / "train-labels-idx1-ubyte", std::ios::binary);
  images.write("\x00\x00\x08\x03", 4);
  put_u32(images, static_cast<std::uint32_t>(labels.size()));
  put_u32(images, static_cast<std::uint32_t>(side));
  put_u32(images, static_cast<std::uint32_t>(side));
  for (int i = 0; i < static_cast<int>(labels.size()); ++i)
    for (int r = 0; r < side; ++r)
      for (int c = 0; c < side; ++c) images.put(static_cast<char>(pixel(i, r, c)));
  label_file.write("\x00\x00\x08\x01", 4);
  put_u32(label_file, static_cast<std::uint32_t>(labels.size()));
  for (const int label : labels) label_file.put(static_cast<char>(label));
}

// 28 x 28 images of digits 1, 4, 9 in turn (per_digit of each), each a digit-specific stroke (1: a
// vertical bar, 4: a horizontal bar, 9: a top-left block) plus a deterministic speckle, so the leading
// PCs separate the digits as in cai2024 Fig 4.
inline void write_digit_mnist(const std::filesystem::path& dir, int per_digit) {
  std::vector<int> labels;
  for (int i = 0; i < per_digit; ++i)
    for (const int digit : {1, 4, 9}) labels.push_back(digit);
  write_tiny_mnist(dir, labels, 28, [&](int i, int r, int c) {
    const int digit = labels[static_cast<std::size_t>(i)];
    const bool stroke = digit == 1 ? (c >= 12 && c < 16) : digit == 4 ? (r >= 12 && r < 16) : (r < 12 && c < 12);
    const unsigned speckle = (static_cast<unsigned>(i) * 2654435761u ^ static_cast<unsigned>(r * 28 + c) * 40503u) % 97u;
    return (stroke ? 150 : 0) + static_cast<int>(speckle);
  });
}

}  // namespace dpb::test
