#include "verify/store/store.hpp"

#include <fmt/format.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/errors.hpp"

namespace dpb::verify {
namespace {

constexpr int kBusyTimeoutMs = 10'000;  // another process (a concurrent `check`) may hold the lock briefly
constexpr const char* kStoreFile = "results.sqlite";

// One prepared statement, finalized on scope exit.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK)
      throw InvalidArgument(fmt::format("results store: {} ({})", sqlite3_errmsg(db), sql));
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, const std::string& v) {
    sqlite3_bind_text(stmt_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Statement& bind(int i, double v) {
    sqlite3_bind_double(stmt_, i, v);
    return *this;
  }
  Statement& bind(int i, std::size_t v) {
    sqlite3_bind_int64(stmt_, i, static_cast<sqlite3_int64>(v));
    return *this;
  }
  // True while a row is available.
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) throw InvalidArgument(fmt::format("results store: {}", sqlite3_errmsg(db_)));
    return false;
  }
  void reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  std::string text(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    return p ? reinterpret_cast<const char*>(p) : "";
  }
  std::size_t index(int col) const { return static_cast<std::size_t>(sqlite3_column_int64(stmt_, col)); }
  double real(int col) const { return sqlite3_column_double(stmt_, col); }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace

ResultStore::ResultStore(const std::filesystem::path& file) : file_(file.string()) {
  if (std::error_code error; file.has_parent_path() && !std::filesystem::create_directories(file.parent_path(), error) && error)
    throw InvalidArgument(fmt::format("cannot create the results folder {}: {} (--out must name a folder you can write)",
                                      file.parent_path().string(), error.message()));
  if (sqlite3_open(file_.c_str(), &db_) != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw InvalidArgument(fmt::format("{}: cannot open the results store: {}", file_, why));
  }
  sqlite3_busy_timeout(db_, kBusyTimeoutMs);
  try {
    use_wal();
    // NORMAL is safe in WAL mode against a killed process (only a power loss may drop recent commits).
    exec("PRAGMA synchronous=NORMAL");
    // The write lock first, so that concurrent openers wait (busy timeout) instead of deadlocking.
    exec("BEGIN IMMEDIATE");
    exec("CREATE TABLE IF NOT EXISTS runs(hash TEXT PRIMARY KEY, experiment TEXT NOT NULL, canonical TEXT NOT NULL, "
         "settings TEXT NOT NULL, started INTEGER NOT NULL)");
    exec("CREATE TABLE IF NOT EXISTS trials(hash TEXT NOT NULL, cell INTEGER NOT NULL, algorithm TEXT NOT NULL, "
         "trial INTEGER NOT NULL, cell_params TEXT NOT NULL, metrics TEXT NOT NULL, error TEXT NOT NULL, "
         "seconds REAL NOT NULL, diagnostics TEXT NOT NULL DEFAULT '{}', PRIMARY KEY(hash, cell, algorithm, trial))");
    // A store written before rows kept diagnostics gains the column; its old rows read as none.
    if (!has_column("trials", "diagnostics")) exec("ALTER TABLE trials ADD COLUMN diagnostics TEXT NOT NULL DEFAULT '{}'");
    exec("COMMIT");
  } catch (...) {
    sqlite3_close(db_);
    throw;
  }
}

ResultStore::~ResultStore() { sqlite3_close(db_); }

// WAL persists in the file: switch only when needed, so that a second process opening a store in use
// (`dpbounds check` during a run) takes no exclusive lock. The switch takes one, and SQLite refuses it at
// once, without the busy wait (which could deadlock), while another process opening the new file switches
// too: retry until the other has switched or the busy timeout has passed.
void ResultStore::use_wal() {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
  for (;;) {
    const std::string mode = [&] {
      Statement q(db_, "PRAGMA journal_mode");
      return q.step() ? q.text(0) : std::string();
    }();
    if (mode == "wal") return;
    const int rc = sqlite3_exec(db_, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
    if (rc == SQLITE_OK) return;
    if ((rc & 0xff) != SQLITE_BUSY || std::chrono::steady_clock::now() >= deadline)
      throw InvalidArgument(fmt::format("{}: results store: {}", file_, sqlite3_errmsg(db_)));
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

bool ResultStore::has_column(const char* table, const char* column) const {
  const std::string sql = fmt::format("PRAGMA table_info({})", table);
  Statement q(db_, sql.c_str());
  while (q.step())
    if (q.text(1) == column) return true;
  return false;
}

void ResultStore::exec(const char* sql) const {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string why = message ? message : "unknown error";
    sqlite3_free(message);
    throw InvalidArgument(fmt::format("{}: results store: {}", file_, why));
  }
}

void ResultStore::begin_run(const std::string& hash, const std::string& experiment, const std::string& canonical,
                            const std::string& settings, bool fresh) {
  exec("BEGIN IMMEDIATE");
  try {
    if (fresh) Statement(db_, "DELETE FROM trials WHERE hash = ?").bind(1, hash).step();
    // `started` orders runs: the largest is the latest, whichever hash it has.
    Statement(db_,
              "INSERT INTO runs(hash, experiment, canonical, settings, started) VALUES(?, ?, ?, ?, "
              "(SELECT COALESCE(MAX(started), 0) + 1 FROM runs)) "
              "ON CONFLICT(hash) DO UPDATE SET settings = excluded.settings, "
              "started = (SELECT MAX(started) + 1 FROM runs)")
        .bind(1, hash)
        .bind(2, experiment)
        .bind(3, canonical)
        .bind(4, settings)
        .step();
    exec("COMMIT");
  } catch (...) {
    exec("ROLLBACK");
    throw;
  }
}

std::set<TaskKey> ResultStore::finished(const std::string& hash) const {
  Statement q(db_, "SELECT cell, algorithm, trial FROM trials WHERE hash = ?");
  q.bind(1, hash);
  std::set<TaskKey> keys;
  while (q.step()) keys.emplace(q.index(0), q.text(1), q.index(2));
  return keys;
}

void ResultStore::insert(const std::string& hash, const std::vector<TrialRow>& rows) {
  if (rows.empty()) return;
  exec("BEGIN IMMEDIATE");
  try {
    Statement q(db_,
                "INSERT OR REPLACE INTO trials(hash, cell, algorithm, trial, cell_params, metrics, error, seconds, "
                "diagnostics) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (const auto& row : rows) {
      q.bind(1, hash).bind(2, row.cell).bind(3, row.algorithm).bind(4, row.trial);
      // nlohmann writes doubles in round-trip form: a stored value reads back bit for bit.
      q.bind(5, nlohmann::json(row.cell_params).dump()).bind(6, nlohmann::json(row.metrics).dump());
      q.bind(7, row.error).bind(8, row.seconds).bind(9, nlohmann::json(row.diagnostics).dump());
      q.step();
      q.reset();
    }
    exec("COMMIT");
  } catch (...) {
    exec("ROLLBACK");
    throw;
  }
}

ResultSet ResultStore::load(const std::string& hash) const {
  ResultSet set;
  set.hash = hash;
  Statement run(db_, "SELECT experiment FROM runs WHERE hash = ?");
  run.bind(1, hash);
  if (!run.step()) throw InvalidArgument(fmt::format("{}: no run with hash {}", file_, hash));
  set.experiment = run.text(0);
  Statement q(db_,
              "SELECT cell, algorithm, trial, cell_params, metrics, error, seconds, diagnostics FROM trials WHERE hash = ? "
              "ORDER BY cell, algorithm, trial");
  q.bind(1, hash);
  while (q.step()) {
    TrialRow row;
    row.cell = q.index(0);
    row.algorithm = q.text(1);
    row.trial = q.index(2);
    row.cell_params = nlohmann::json::parse(q.text(3)).get<std::map<std::string, double>>();
    // Rows stored while the theorems read "eps" carry epsilon twice; read as one, they match new rows cell by
    // cell (dpbounds compare, --resume).
    if (row.cell_params.count("epsilon")) row.cell_params.erase("eps");
    row.metrics = nlohmann::json::parse(q.text(4)).get<std::map<std::string, double>>();
    row.error = q.text(5);
    row.seconds = q.real(6);
    row.diagnostics = nlohmann::json::parse(q.text(7)).get<std::map<std::string, double>>();
    set.rows.push_back(std::move(row));
  }
  return set;
}

std::string ResultStore::settings(const std::string& hash) const {
  Statement q(db_, "SELECT settings FROM runs WHERE hash = ?");
  q.bind(1, hash);
  if (!q.step()) throw InvalidArgument(fmt::format("{}: no run with hash {}", file_, hash));
  return q.text(0);
}

std::string ResultStore::latest_hash() const {
  Statement q(db_, "SELECT hash FROM runs ORDER BY started DESC LIMIT 1");
  if (!q.step()) throw InvalidArgument(fmt::format("{}: the results store holds no run", file_));
  return q.text(0);
}

std::filesystem::path store_path(const std::filesystem::path& file_or_dir) {
  return std::filesystem::is_regular_file(file_or_dir) ? file_or_dir : file_or_dir / kStoreFile;
}

StoredRun load_latest_run(const std::filesystem::path& file_or_dir) {
  const auto file = store_path(file_or_dir);
  if (!std::filesystem::is_regular_file(file))
    throw InvalidArgument(fmt::format("{}: no results store here (run `dpbounds run CONFIG` first)", file.string()));
  ResultStore store(file);
  const std::string hash = store.latest_hash();
  return {store.load(hash), store.settings(hash)};
}

}  // namespace dpb::verify
