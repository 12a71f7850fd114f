#pragma once
// Report files appear whole or not at all: written under a temporary name in the same directory,
// then renamed over the target (rename is atomic within one file system).
#include <filesystem>
#include <string>

namespace dpb::verify {

// Creates the parent directories as needed. Throws dpb::InvalidArgument naming the path when it
// cannot be written; the temporary file is then removed.
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

// The temporary name `path` is written under before the rename.
std::filesystem::path partial_path(const std::filesystem::path& path);

// `name` with every character outside [A-Za-z0-9._-] replaced by '_', for file names.
std::string file_stem(const std::string& name);

}  // namespace dpb::verify
