#pragma once
// The results store (DESIGN.md §5): one SQLite file per experiment directory, in WAL mode, holding
// the rows of every run keyed by the experiment's content hash (verify/experiment/canonical.hpp).
// Each insert is one transaction, so a killed process loses only rows it had not handed over yet.
//
// Schema (docs/experiments.md):
//   runs(hash PRIMARY KEY, experiment, canonical JSON, settings JSON, started)
//       one row per distinct content; `settings` holds what does not change rows (checks, report, seed
//       of the checks' bootstrap), updated by every run, so that `dpbounds check` can redo them
//   trials(hash, cell, algorithm, trial, cell_params JSON, metrics JSON, error, seconds, diagnostics JSON,
//          PRIMARY KEY (hash, cell, algorithm, trial))
#include <sqlite3.h>

#include <filesystem>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "verify/store/results.hpp"

namespace dpb::verify {

using TaskKey = std::tuple<std::size_t, std::string, std::size_t>;  // (cell, algorithm, trial)

class ResultStore {
 public:
  // Opens (creating the file, its directory and the schema when needed). Throws dpb::InvalidArgument
  // when the file cannot be opened or is not a dpbounds store.
  explicit ResultStore(const std::filesystem::path& file);
  ~ResultStore();
  ResultStore(const ResultStore&) = delete;
  ResultStore& operator=(const ResultStore&) = delete;

  // Records the run (idempotent); `fresh` also deletes the rows stored under `hash` before.
  void begin_run(const std::string& hash, const std::string& experiment, const std::string& canonical,
                 const std::string& settings, bool fresh);
  // The settings stored with the run `hash` (JSON text).
  std::string settings(const std::string& hash) const;
  // The keys of the rows stored under `hash`.
  std::set<TaskKey> finished(const std::string& hash) const;
  // Stores `rows` under `hash` in one transaction (a row with the same key is replaced).
  void insert(const std::string& hash, const std::vector<TrialRow>& rows);
  // The rows under `hash`, ordered by (cell, algorithm, trial).
  ResultSet load(const std::string& hash) const;
  // The hash of the run begun last; dpb::InvalidArgument when the store holds no run.
  std::string latest_hash() const;
  // The SQLite file, for messages.
  const std::string& file() const { return file_; }

 private:
  void exec(const char* sql) const;
  void use_wal();
  bool has_column(const char* table, const char* column) const;
  sqlite3* db_ = nullptr;
  std::string file_;
};

struct StoredRun {
  ResultSet results;
  std::string settings;  // JSON text
};
// The latest run of a store given as the .sqlite file or the experiment's results directory.
StoredRun load_latest_run(const std::filesystem::path& file_or_dir);
// `file_or_dir` when it is an existing file, else results.sqlite inside it (an experiment's directory).
std::filesystem::path store_path(const std::filesystem::path& file_or_dir);

}  // namespace dpb::verify
