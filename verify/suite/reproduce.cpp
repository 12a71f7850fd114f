#include "verify/suite/reproduce.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <set>

#include "core/errors.hpp"
#include "verify/datasets/dataset_model.hpp"
#include "verify/experiment/tuned_by.hpp"
#include "verify/experiment/suggest.hpp"

namespace dpb::verify {
namespace {

constexpr const char* kFigureExtension = ".yaml";
constexpr const char* kQuickExtension = ".quick";

std::vector<std::string> sorted_entries(const std::filesystem::path& dir, bool directories) {
  std::vector<std::string> names;
  if (!std::filesystem::is_directory(dir)) return names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (directories && entry.is_directory()) names.push_back(entry.path().filename().string());
    if (!directories && entry.is_regular_file() && entry.path().extension() == kFigureExtension)
      names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string trimmed(const std::string& line) {
  const std::string text = line.substr(0, line.find('#'));
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

bool listed(const std::vector<ExperimentSpec>& experiments, const std::string& name) {
  return std::any_of(experiments.begin(), experiments.end(), [&](const ExperimentSpec& e) { return e.name == name; });
}

// A figure tuned by another (dugler2026 App. F.2: the figures use the configuration the tuning selects) brings
// that figure along, and every tuning experiment runs before the figures it tunes.
void add_tuning_experiments(std::vector<ExperimentSpec>& experiments, const std::vector<std::string>& figures,
                            const std::function<ExperimentSpec(const std::string&)>& load_figure) {
  std::vector<ExperimentSpec> tunings;
  for (const auto& spec : experiments)
    if (!spec.tuned_by.empty() && !listed(experiments, spec.tuned_by) && !listed(tunings, spec.tuned_by))
      for (const auto& figure : figures)
        if (ExperimentSpec other = load_figure(figure); other.name == spec.tuned_by) {
          tunings.push_back(std::move(other));
          break;
        }
  std::set<std::string> tuning_names;  // read before the partition moves the experiments
  for (const auto& spec : experiments) tuning_names.insert(spec.tuned_by);
  std::stable_partition(experiments.begin(), experiments.end(),
                        [&](const ExperimentSpec& e) { return tuning_names.count(e.name) > 0; });
  experiments.insert(experiments.begin(), std::make_move_iterator(tunings.begin()), std::make_move_iterator(tunings.end()));
}

}  // namespace

Scale parse_scale(const std::string& text) {
  if (text == "quick") return Scale::quick;
  if (text == "paper") return Scale::paper;
  throw InvalidArgument(fmt::format("unknown scale '{}' (allowed: quick, paper)", text));
}

std::string to_string(Scale scale) { return scale == Scale::quick ? "quick" : "paper"; }

std::vector<std::string> known_papers(const std::filesystem::path& papers_root) {
  return sorted_entries(papers_root, true);
}

std::vector<std::string> paper_figures(const std::filesystem::path& papers_root, const std::string& key) {
  const auto papers = known_papers(papers_root);
  if (std::find(papers.begin(), papers.end(), key) == papers.end())
    throw InvalidArgument(fmt::format("no reproduction of paper '{}'{} (known: {}, in {})",
                                      key, did_you_mean(key, papers), fmt::join(papers, ", "), papers_root.string()));
  return sorted_entries(papers_root / key, false);
}

std::vector<std::string> quick_overrides(const std::filesystem::path& figure_file) {
  auto file = figure_file;
  file.replace_extension(kQuickExtension);
  std::ifstream in(file);
  if (!in)
    throw ConfigError(fmt::format("{}: no quick scale: {} is missing (one --set edit path=value per line)",
                                  figure_file.string(), file.string()));
  std::vector<std::string> sets;
  for (std::string line; std::getline(in, line);)
    if (const auto text = trimmed(line); !text.empty()) sets.push_back(text);
  return sets;
}

Reproduction load_reproduction(const std::filesystem::path& papers_root, const std::string& target, Scale scale,
                               const std::string& data_path) {
  const auto slash = target.find('/');
  const std::string key = target.substr(0, slash);
  const auto figures = paper_figures(papers_root, key);
  std::vector<std::string> chosen = figures;
  if (slash != std::string::npos) {
    const std::string figure = target.substr(slash + 1);
    if (std::find(figures.begin(), figures.end(), figure) == figures.end())
      throw InvalidArgument(fmt::format("paper {} has no figure '{}'{} (known: {})", key, figure,
                                        did_you_mean(figure, figures), fmt::join(figures, ", ")));
    chosen = {figure};
  }
  Reproduction reproduction;
  SuiteSpec& suite = reproduction.suite;
  suite.name = fmt::format("reproduce-{}-{}", key, to_string(scale));
  suite.description = fmt::format("reproduction of {} at the {} scale ({})", key, to_string(scale),
                                  fmt::join(chosen, ", "));
  const bool skip_missing_data = chosen.size() > 1 && data_path.empty();
  const auto load_figure = [&](const std::string& figure) {
    const auto file = papers_root / key / (figure + kFigureExtension);
    ExperimentOverrides overrides;
    if (scale == Scale::quick) overrides.set = quick_overrides(file);
    return load_experiment(file, overrides);
  };
  for (const auto& figure : chosen) {
    ExperimentSpec spec = load_figure(figure);
    if (spec.data) {
      if (!data_path.empty()) spec.data->path = data_path;
      if (const auto why = missing_data(*spec.data); !why.empty()) {
        if (!skip_missing_data) throw InvalidArgument(why);
        reproduction.skipped.push_back(fmt::format("{}/{}: skipped: no data (no {} files in {}; pass --data DIR, or run "
                                                   "`dpbounds reproduce {}/{}` to see where to get them)",
                                                   key, figure, spec.data->name, spec.data->path, key, figure));
        continue;
      }
    }
    suite.experiments.push_back(std::move(spec));
  }
  add_tuning_experiments(suite.experiments, figures, load_figure);
  check_tuning_order(suite.experiments);
  return reproduction;
}

}  // namespace dpb::verify
