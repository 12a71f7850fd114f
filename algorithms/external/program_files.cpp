#include "algorithms/external/program_files.hpp"

#include <fmt/format.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "core/errors.hpp"
#include "core/rng.hpp"

namespace dpb::alg::external {
namespace {

namespace fs = std::filesystem;

bool regular_file(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error);
}

// argv[0] as posix_spawnp finds it: as given when it holds a '/', else the first PATH entry that has it.
std::string locate_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::istringstream directories(path != nullptr ? path : "");
  for (std::string directory; std::getline(directories, directory, ':');)
    if (const fs::path candidate = fs::path(directory.empty() ? "." : directory) / name; regular_file(candidate))
      return candidate.string();
  return name;
}

}  // namespace

std::vector<std::string> program_files(const std::vector<std::string>& argv, const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (std::size_t i = 0; i < argv.size(); ++i)
    if (const std::string word = i == 0 ? locate_program(argv[0]) : argv[i]; regular_file(word))
      files.push_back(word);
  for (const auto& input : inputs) {
    if (!regular_file(input))
      throw InvalidArgument(fmt::format(
          "external.command: inputs names '{}', which is not a readable file (inputs lists the files the "
          "program reads, so that a changed file starts a new experiment)",
          input));
    files.push_back(input);
  }
  return files;
}

std::string files_digest(const std::vector<std::string>& files) {
  std::string digest;
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (!in.good() && !in.eof())
      throw InvalidArgument(fmt::format("external.command: cannot read '{}'", file));
    digest += fmt::format("{}{}={:016x}", digest.empty() ? "" : ";", file, core::hash_name(bytes));
  }
  return digest;
}

}  // namespace dpb::alg::external
