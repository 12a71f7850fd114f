#pragma once
// The theorem side of a paper's reproduction (docs/experiments.md "Reproductions"), written next to its
// figures into `dir`:
//   theorems.tex   the paper's rates as booktabs tables (kumar2025: its Tables 1 and 2 rebuilt)
//   theorems.md    the same theorems as a Markdown table
//   bounds.md      every lower bound with explicit constants evaluated at its example point: the
//                  construction behind it built and measured (`dpbounds bound ID --example`)
//   gaps.md        each comparable upper/lower pair's ratio as parameters scale (`dpbounds gaps`)
#include <filesystem>
#include <string>
#include <vector>

namespace dpb::verify {

// The files written (none when no theorem carries the paper's key).
std::vector<std::filesystem::path> write_paper_theorems(const std::string& key, const std::filesystem::path& dir);

}  // namespace dpb::verify
