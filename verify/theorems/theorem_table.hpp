#pragma once
// What `dpbounds theorems` prints: the upper- and lower-bound theorems (DESIGN.md §4) as a text, Markdown,
// booktabs LaTeX or JSON table, filtered by paper and kind.
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bounds/theorem.hpp"

namespace dpb::verify {

using TheoremList = std::vector<const bounds::Theorem*>;

// Every theorem dpbounds knows: the upper bounds, then the lower bounds, each in catalogue order.
TheoremList all_theorems();

// The names of kinds, losses and semantics are bounds/theorem.hpp's (to_string, parse_kind, params_text).

struct TheoremFilter {
  std::string paper;                 // empty: every paper
  std::optional<bounds::Kind> kind;  // empty: both kinds
};
// The theorems of `all` that pass `filter`, in order. A paper key no theorem carries is a
// dpb::InvalidArgument listing the keys that do.
TheoremList select_theorems(const TheoremList& all, const TheoremFilter& filter);

enum class TableFormat { text, md, tex, json };
// "text" | "md" | "tex" | "json"; anything else is a dpb::InvalidArgument naming the allowed formats.
TableFormat parse_table_format(const std::string& text);

// Every field of a theorem except its functions (conditions appear by name and text).
nlohmann::json theorem_json(const bounds::Theorem& t);

// The table in `format`. text/md: one row per theorem. tex: one booktabs rates table per paper, plus the
// kumar2025 Tables 1 and 2 when their rows are among `theorems`. json: an array of theorem_json.
std::string theorem_table(const TheoremList& theorems, TableFormat format);

// `text` with LaTeX's special characters escaped, for text (not math) cells.
std::string latex_escape(const std::string& text);

}  // namespace dpb::verify
