#include "verify/theorems/paper_theorems.hpp"

#include <fmt/format.h>

#include "verify/theorems/bound_evaluation.hpp"
#include "verify/theorems/gaps.hpp"
#include "verify/report/atomic_file.hpp"
#include "verify/theorems/theorem_table.hpp"

namespace dpb::verify {
namespace {

std::string explicit_lower_bounds(const TheoremList& theorems) {
  std::string text = "# Lower bounds with explicit constants, at their example points\n\n";
  for (const auto* t : theorems)
    if (t->kind == bounds::Kind::lower && t->explicit_value)
      text += "```\n" + to_text(evaluate_bound(*t, t->example)) + "```\n\n";
  return text;
}

}  // namespace

std::vector<std::filesystem::path> write_paper_theorems(const std::string& key, const std::filesystem::path& dir) {
  const TheoremList all = all_theorems();
  bool known = false;
  for (const auto* t : all) known = known || paper_key(*t) == key;
  if (!known) return {};
  const TheoremList theorems = select_theorems(all, {key, std::nullopt});
  const std::vector<std::pair<std::string, std::string>> files = {
      {"theorems.tex", theorem_table(theorems, TableFormat::tex)},
      {"theorems.md", theorem_table(theorems, TableFormat::md)},
      {"bounds.md", explicit_lower_bounds(theorems)},
      {"gaps.md", gaps_report(find_gaps(theorems), TableFormat::md)}};
  std::filesystem::create_directories(dir);
  std::vector<std::filesystem::path> written;
  for (const auto& [name, content] : files) {
    write_file_atomically(dir / name, content);
    written.push_back(dir / name);
  }
  return written;
}

}  // namespace dpb::verify
