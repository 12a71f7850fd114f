#pragma once
// What an external program's results depend on besides its parameters: the bytes of the files its command
// runs and reads. Their digest enters the experiment's key (verify/experiment/canonical.hpp), so editing
// the program never lets `run --resume` mix its new rows with rows of the old version.
#include <string>
#include <vector>

namespace dpb::alg::external {

// The files whose content decides the program's output: every word of `argv` that names a regular file
// (argv[0] looked up on PATH when it has no '/', as posix_spawnp does; `python3 my_pca.py` gives the
// interpreter and the script), then every path in `inputs`, each of which must be a readable regular
// file (dpb::InvalidArgument naming it otherwise).
std::vector<std::string> program_files(const std::vector<std::string>& argv, const std::vector<std::string>& inputs);

// "path=<16 hex digits of FNV-1a 64 of its bytes>" for each file, joined by ';'.
std::string files_digest(const std::vector<std::string>& files);

}  // namespace dpb::alg::external
