#pragma once
// Every `dpbounds` verb lives in its own cli/<verb>.cpp and registers itself here at start-up, so a
// new verb never edits main.cpp. Verbs stay thin: they parse options and call verify/.
#include <CLI/CLI.hpp>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/params.hpp"

namespace dpb::cli {

inline constexpr int kUsageError = 2;  // invalid input of any kind (DESIGN §3 "Errors")

struct Verb {
  std::string name;
  std::string summary;                // one line; also the subcommand's description
  std::string help;                   // further lines shown under the verb in `dpbounds --help`
  std::vector<std::string> examples;  // argument lists, shown as `dpbounds <example>`
  int order = 100;                    // position in `dpbounds --help`
  bool spreads_over_ranks = false;    // runs under `mpirun -np N` (docs/cluster.md); the others refuse
  // Declares the verb's options on `sub`; returns what runs when the verb is chosen (its exit code).
  std::function<std::function<int()>(CLI::App& sub)> setup;
};

// Use at namespace scope in cli/<verb>.cpp: `const bool registered = dpb::cli::register_verb({...});`.
// A verb's file keeps its own names in `namespace dpb::cli::<verb>_verb`, not an anonymous namespace: the
// verbs are compiled as a unity build (DPB_UNITY_BUILD), where two files' anonymous namespaces are one.
bool register_verb(Verb verb);
// Registered verbs, in `order`.
std::vector<Verb> verbs();

// A command-line number, or dpb::InvalidArgument naming the option.
double number(const std::string& text, const std::string& option);
// A command-line whole number, or dpb::InvalidArgument naming the option.
long integer(const std::string& text, const std::string& option);
// Repeated `--param name=value` options as a parameter map (numbers, [a,b] lists or strings).
core::ParamMap assignments(const std::vector<std::string>& texts);
void print_json(const nlohmann::json& j);

}  // namespace dpb::cli
