#pragma once
// gnuplot as a child process (DESIGN.md §2: a run-time dependency, optional: reports skip PNG/SVG
// and say so when it is absent).
#include <filesystem>
#include <string>

namespace dpb::verify {

// The full path of `program` found on $PATH (or `program` itself when it contains a '/' and is
// executable); empty when there is none.
std::filesystem::path find_program(const std::string& program);

struct ProgramResult {
  int exit_code = -1;       // -1: could not start or did not exit normally
  std::string diagnostics;  // what it wrote on stderr
};

// Runs `program script` with `directory` as working directory and waits for it.
ProgramResult run_script(const std::filesystem::path& program, const std::filesystem::path& script,
                         const std::filesystem::path& directory);

}  // namespace dpb::verify
