// The `dpbounds` executable: builds the command line from the registered verbs (cli/verb.hpp), runs
// the chosen one, and turns every error into one line on stderr and exit code 2.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fmt/core.h>
#include <fmt/ranges.h>
#include <optional>
#include <string>

#include "cli/verb.hpp"
#include "core/errors.hpp"
#include "core/memory.hpp"
#include "verify/distributed/ranks.hpp"
#include "verify/experiment/suggest.hpp"

namespace {

// "Verbs:" and "Examples:" sections of `dpbounds --help`, from what each verb registered.
std::string footer(const std::vector<dpb::cli::Verb>& verbs) {
  std::string text = "Verbs:\n", examples = "\nExamples:\n";
  for (const auto& verb : verbs) {
    std::string help = verb.help.empty() ? verb.summary : verb.help;
    std::string indent = fmt::format("  {:<15}", verb.name);
    for (std::size_t start = 0; start <= help.size();) {
      const auto end = std::min(help.find('\n', start), help.size());
      text += indent + help.substr(start, end - start) + "\n";
      indent = std::string(17, ' ');
      start = end + 1;
    }
    for (const auto& example : verb.examples) examples += "  dpbounds " + example + "\n";
  }
  return text + examples + "\nRun 'dpbounds VERB --help' for the options of a verb.";
}

// A verb's own help footer: what its setup wrote (notes, score lists), then its examples.
std::string verb_footer(const std::string& own, const dpb::cli::Verb& verb) {
  std::string text = own;
  if (!verb.examples.empty()) text += std::string(text.empty() ? "" : "\n\n") + "Examples:";
  for (const auto& example : verb.examples) text += "\n  dpbounds " + example;
  return text;
}

// The first argument names a verb, or is an option (--help, --version): else one clear line.
void require_known_verb(int argc, char** argv, const std::vector<dpb::cli::Verb>& verbs) {
  if (argc < 2 || argv[1][0] == '-') return;
  std::vector<std::string> names;
  for (const auto& verb : verbs) names.push_back(verb.name);
  if (std::find(names.begin(), names.end(), argv[1]) != names.end()) return;
  throw dpb::InvalidArgument(fmt::format("unknown verb '{}'{}; the verbs are {} (run 'dpbounds --help')", argv[1],
                                         dpb::verify::did_you_mean(argv[1], names), fmt::join(names, ", ")));
}

}  // namespace

int main(int argc, char** argv) {
  dpb::core::retain_freed_memory();  // before any thread: a trial's blocks are reused, not faulted in again
  CLI::App app{"dpbounds: differentially private PCA and covariance estimation, checked against the theorems."};
  app.name("dpbounds");
  app.set_version_flag("--version", std::string("dpbounds ") + DPB_VERSION);
  app.require_subcommand(1);
  const auto verbs = dpb::cli::verbs();
  std::vector<std::pair<CLI::App*, std::function<int()>>> runners;
  for (const auto& verb : verbs) {
    auto* sub = app.add_subcommand(verb.name, verb.summary);
    runners.emplace_back(sub, verb.setup(*sub));
    sub->footer(verb_footer(sub->get_footer(), verb));
  }
  app.footer(footer(verbs));  // after the verbs: a subcommand inherits the footer its parent has when added

  // Under mpirun every rank runs main(); rank 0 prints, and every rank exits with rank 0's code.
  std::optional<dpb::verify::ranks::Session> ranks;
  try {
    ranks.emplace(argc, argv);
    require_known_verb(argc, argv, verbs);
    app.parse(argc, argv);
    for (std::size_t i = 0; i < runners.size(); ++i) {
      if (!*runners[i].first) continue;
      if (dpb::verify::ranks::size() > 1 && !verbs[i].spreads_over_ranks)
        throw dpb::InvalidArgument(fmt::format("'dpbounds {}' runs as one process: start it without mpirun (run, "
                                               "verify, reproduce and audit spread over MPI ranks)",
                                               verbs[i].name));
      return dpb::verify::ranks::agree(runners[i].second());
    }
    return dpb::verify::ranks::agree(0);
  } catch (const CLI::Success& e) {
    return dpb::verify::ranks::agree(app.exit(e));  // --help, --version
  } catch (const CLI::ParseError& e) {
    return dpb::verify::ranks::fail(dpb::cli::kUsageError, fmt::format("dpbounds: error: {} (run 'dpbounds --help')", e.what()));
  } catch (const dpb::InvalidArgument& e) {
    return dpb::verify::ranks::fail(dpb::cli::kUsageError, fmt::format("dpbounds: error: {}", e.what()));
  } catch (const dpb::ConfigError& e) {
    return dpb::verify::ranks::fail(dpb::cli::kUsageError, fmt::format("dpbounds: error: {}", e.what()));
  } catch (const std::exception& e) {
    return dpb::verify::ranks::fail(1, fmt::format("dpbounds: internal error: {}", e.what()));
  }
}
