#pragma once
// Theorems as objects (DESIGN.md §4). Upper bounds live in bounds/<key>.cpp, lower bounds in
// lowerbounds/<key>.cpp; both use this type. Algorithms are named by registry id, never by header.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dpb::bounds {

using Params = std::map<std::string, double>;  // n, d, k, r, epsilon, delta, lambda1, kappa, V, gamma, ...

enum class Kind { upper, lower };

struct Loss {
  enum class Name {
    sin, projector_op, projector_fro, projector_schatten, cov_op, cov_fro, cov_schatten,
    statistic,  // the error of a released statistic (an eigenvalue, a mean, a gradient norm) in its own units
  };
  Name name = Name::sin;
  double q = 2;  // Schatten index, for the *_schatten losses
  bool normalized_by_rank = false;  // ||.||_q / r^{1/q} as cai2024 reports
};

struct Semantics {
  bool high_probability = true;  // false: bound on the expectation
  double zeta = 0.01;            // failure probability, when high_probability
};

struct Condition {
  std::string name;  // "C-n", "eps < 1"
  std::string text;  // the condition in words / formula
  std::function<bool(const Params&)> holds;
};

// A cell of a paper's own results table (kumar2025 Tables 1 and 2): `dpbounds theorems --format tex`
// rebuilds the table from the theorems that carry one (bounds/table_cell.hpp places them).
struct TableCell {
  enum class Row { upper, lower };
  enum class Column { nonprivate, ours, prior };
  std::string table;  // "table1"
  Row row = Row::upper;
  Column column = Column::ours;
  std::string citation;  // "[BL09]" (a cited result) or "Thm. 1" (the paper's own)
};

struct Theorem {
  std::string id;      // "liu2022.thm5.1"
  std::string source;  // "Liu, Kong, Jain, Oh 2022, Theorem 5.1 (Eq. 10)"
  Kind kind = Kind::upper;
  Loss loss;
  Semantics semantics;
  std::vector<std::string> applies;  // upper: algorithm ids; lower: a class, e.g. "(eps,delta)-DP"
  std::function<double(const Params&)> rate;  // constants and hidden polylogs dropped
  std::vector<Condition> conditions;
  std::optional<std::function<double(const Params&)>> explicit_value;
  // The lower end of a two-sided containment (dugler2026 Theorem 5: Lhat / Lambda(Q) in [1, C_Lambda]):
  // with it the statistic must lie in [explicit_floor, explicit_value].
  std::optional<std::function<double(const Params&)>> explicit_floor;
  std::string latex;
  std::string hides;  // what O~ hides, in words
  // The data model both sides of a gap speak about ("liu2022.spiked_subgaussian", ...): `gaps` pairs an
  // upper and a lower bound when their loss and setting agree.
  std::string setting;
  // A parameter point inside the theorem's domain (every condition holds): used by tests, by
  // `dpbounds bound ID --example` and as the base point that `gaps` varies.
  Params example;
  std::optional<TableCell> in_table;  // set on a cell of the paper's own results table
};

// The names every theorem output (`theorems`, `bound`, `gaps`, `list theorems --json`, reports) gives to a
// theorem's kind, loss and semantics, one definition each.
std::string to_string(Kind kind);                   // "upper" | "lower"
Kind parse_kind(const std::string& text);           // "upper" | "lower"; else dpb::InvalidArgument naming both
std::string loss_name(Loss::Name name);             // "sin", "projector_schatten", ...
bool is_schatten(const Loss& loss);                 // projector_schatten or cov_schatten
std::string to_string(const Loss& loss);            // "sin", "projector_schatten(q=1)/r^(1/q)", ...
std::string to_string(const Semantics& semantics);  // "w.p. 0.99" | "expectation"
// "d = 50, eps = 1, n = 1e+05": a parameter point as every theorem output prints it.
std::string params_text(const Params& params);
// The paper key of a theorem: its id up to the first '.' ("liu2022" for "liu2022.cor5.2").
std::string paper_key(const Theorem& t);

// Upper-bound theorems of every paper, in a fixed order.
const std::vector<Theorem>& upper_bound_theorems();

}  // namespace dpb::bounds
