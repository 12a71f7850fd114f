#pragma once
// A fresh folder for one test's files, removed with everything in it when the test ends.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace dpb::test {

class ScratchDir {
 public:
  // <temp>/dpb_<tag>_<pid>_<count>: the process id keeps parallel ctest runs apart, the count two folders of
  // one test. Whatever a crashed earlier run left under the name is removed first.
  explicit ScratchDir(const std::string& tag)
      : path_(std::filesystem::temp_directory_path() /
              ("dpb_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(count_++))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() { std::filesystem::remove_all(path_); }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

  // Writes `text` to the file `name` in the folder; returns its path.
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name) << text;
    return path_ / name;
  }

 private:
  static inline int count_ = 0;
  std::filesystem::path path_;
};

}  // namespace dpb::test
