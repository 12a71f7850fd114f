#include "verify/runner/stored_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/errors.hpp"
#include "verify/report/write_report.hpp"
#include "verify/store/store.hpp"

namespace dpb::verify {
namespace {

const std::vector<std::string> kTableFormats = {"md", "tex", "csv"};

// A report rendered without verdicts into a private temporary directory, removed on scope exit: the
// run's own summary.md (with its verdicts) is never overwritten by `table` or `plot`.
class ScratchReport {
 public:
  ScratchReport(const LoadedRun& run, ReportSpec report) {
    static std::atomic<int> counter{0};
    dir_ = std::filesystem::temp_directory_path() / fmt::format("dpbounds-report-{}-{}", ::getpid(), counter++);
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    write_report(run.results, report, {}, dir_);
  }
  ~ScratchReport() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  ScratchReport(const ScratchReport&) = delete;
  ScratchReport& operator=(const ScratchReport&) = delete;
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

// Files directly in `dir` ending in `extension`, sorted by name.
std::vector<std::filesystem::path> files_with(const std::filesystem::path& dir, const std::string& extension) {
  std::vector<std::filesystem::path> files;
  if (!std::filesystem::is_directory(dir)) return files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == extension) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

LoadedRun load_run(const std::filesystem::path& results) {
  const StoredRun stored = load_latest_run(results);
  return {stored.results, settings_from_json(nlohmann::json::parse(stored.settings)), store_path(results).parent_path()};
}

std::string stored_tables(const LoadedRun& run, const std::string& format) {
  if (std::find(kTableFormats.begin(), kTableFormats.end(), format) == kTableFormats.end())
    throw InvalidArgument(fmt::format("unknown table format '{}': choose md, tex or csv", format));
  ReportSpec report;
  report.tables = run.settings.report.tables;
  if (report.tables.empty()) report.tables.emplace_back();
  const ScratchReport scratch(run, report);
  std::string text;
  for (const auto& file : files_with(scratch.dir() / "tables", "." + format)) {
    std::ifstream in(file);
    std::stringstream content;
    content << in.rdbuf();
    text += content.str();
  }
  return text;
}

std::vector<std::filesystem::path> stored_figures(const LoadedRun& run) {
  ReportSpec report;
  report.figures = run.settings.report.figures;
  const ScratchReport scratch(run, report);
  std::vector<std::filesystem::path> written;
  std::filesystem::create_directories(run.dir / "figures");
  for (const auto& extension : {".png", ".svg", ".tex"})
    for (const auto& file : files_with(scratch.dir() / "figures", extension)) {
      const auto target = run.dir / "figures" / file.filename();
      std::filesystem::copy_file(file, target, std::filesystem::copy_options::overwrite_existing);
      written.push_back(target);
    }
  return written;
}

}  // namespace dpb::verify
