#pragma once
// Paper reproductions (`dpbounds reproduce`, docs/experiments.md "Reproductions"): every figure of a
// paper is an experiment file configs/papers/<key>/<figure>.yaml written at the paper's scale (its
// grids and trial counts); a sibling <figure>.quick lists the --set edits (one `path=value` per line,
// '#' starts a comment) that shrink it to a few seconds for the test suite. A reproduction is run as a
// suite (verify/suite/suite.hpp) named reproduce-<key>-<scale>.
#include <filesystem>
#include <string>
#include <vector>

#include "verify/suite/suite.hpp"

namespace dpb::verify {

enum class Scale { quick, paper };
// "quick" or "paper"; anything else is dpb::InvalidArgument listing both.
Scale parse_scale(const std::string& text);
std::string to_string(Scale scale);

// The papers with a folder under `papers_root` (default configs/papers, relative to the working
// directory), sorted.
std::vector<std::string> known_papers(const std::filesystem::path& papers_root);
// The figure names of `key` (file stems of its *.yaml), sorted; dpb::InvalidArgument listing the known
// papers when `key` has no folder.
std::vector<std::string> paper_figures(const std::filesystem::path& papers_root, const std::string& key);

// The --set edits of <figure>.quick next to `figure_file`; dpb::ConfigError when the file is missing.
std::vector<std::string> quick_overrides(const std::filesystem::path& figure_file);

struct Reproduction {
  SuiteSpec suite;
  // Figures left out, one line each: "<key>/<figure>: skipped: no data (...)".
  std::vector<std::string> skipped;
};

// `target` is "<key>" (every figure) or "<key>/<figure>"; an unknown key or figure is
// dpb::InvalidArgument listing the known ones. Every figure file is validated (ConfigError).
// A figure on a dataset (`data:`, docs/experiments.md "Datasets") reads `data_path` when it is given,
// else its own data.path. When those files are missing, the figure is skipped if it is one of all the
// paper's figures and no data_path was given; asked for by name or with a data_path, it is a
// dpb::InvalidArgument saying where to get the data. A figure with `tuned_by` brings the figure it names along, and
// every tuning experiment comes before the figures it tunes (verify/experiment/tuned_by.hpp).
Reproduction load_reproduction(const std::filesystem::path& papers_root, const std::string& target, Scale scale,
                               const std::string& data_path = "");

}  // namespace dpb::verify
