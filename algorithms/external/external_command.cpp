#include "algorithms/external/external_command.hpp"

#include <fmt/format.h>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>

#include "algorithms/external/child_process.hpp"
#include "algorithms/external/command_line.hpp"
#include "algorithms/external/program_files.hpp"
#include "algorithms/external/protocol.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"

namespace dpb::alg::external {
namespace {

constexpr const char* kId = "external.command";
constexpr const char* kSpecRef = "docs/external.md";
constexpr const char* kUserDeclared = "user-declared, not verified by dpbounds";

enum class Mode { one_shot, persistent };

struct Settings {
  std::string command;
  std::vector<std::string> argv;  // the command split (not a parameter)
  std::string inputs;  // files the program reads besides those on its command line
  Mode mode = Mode::one_shot;
  double timeout_seconds = 60;
  ReplyTolerances tolerances;
  PrivacyClaim declared{0, 0, Neighbours::replace, ClaimScope::not_private, {}};  // no guarantee unless declared
};

FieldTable<Settings> settings_fields() {
  FieldTable<PrivacyClaim> claim;
  claim.real("claim_epsilon", &PrivacyClaim::epsilon, 0.0, std::nullopt, "declared epsilon of the program (user-declared)",
             kSpecRef)
      .real("claim_delta", &PrivacyClaim::delta, 0.0, 1.0, "declared delta of the program, < 1 (user-declared)", kSpecRef)
      .choice("claim_scope", &PrivacyClaim::scope,
              {{"worst_case", ClaimScope::worst_case},
               {"under_model_assumptions", ClaimScope::under_model_assumptions},
               {"not_private", ClaimScope::not_private}},
              "declared scope of the program's guarantee (user-declared; default: no guarantee)", kSpecRef)
      .choice("claim_neighbours", &PrivacyClaim::neighbours,
              {{"replace", Neighbours::replace}, {"add_remove", Neighbours::add_remove}},
              "neighbouring relation of the declared guarantee", kSpecRef);
  FieldTable<Settings> t;
  t.text("command", &Settings::command, "the program and its arguments, split by shell-like quoting, run without a shell",
         kSpecRef)
      .choice("protocol", &Settings::mode, {{"one_shot", Mode::one_shot}, {"persistent", Mode::persistent}},
              "one_shot: one program run per trial; persistent: one program per worker thread, many trials streamed "
              "through it (start-up paid once)",
              kSpecRef)
      .real("timeout_seconds", &Settings::timeout_seconds, 1e-3, 86400,
            "a trial whose reply is not complete within this many seconds fails; the program is killed", kSpecRef)
      .nest(&Settings::tolerances, tolerance_fields(kSpecRef))
      .nest(&Settings::declared, claim)
      .text("inputs", &Settings::inputs,
            "files the program reads besides those on its command line (split like command); their content, and the "
            "program's, enters the experiment's key",
            kSpecRef);
  return t;
}

// The settings, checked: a command, and a declared guarantee that says something.
Settings checked(Settings s) {
  if (s.command.empty())
    throw InvalidArgument(
        "external.command: parameter 'command' is required: the program and its arguments, "
        "e.g. command='./my_pca --iterations 10'");
  s.argv = split_command(s.command);
  if (s.declared.scope != ClaimScope::not_private && !(s.declared.epsilon > 0 && s.declared.delta < 1))
    throw InvalidArgument(
        fmt::format("external.command: a claim_scope of {} needs claim_epsilon > 0 and claim_delta in [0, 1) "
                    "(got {}, {}); "
                    "declare the program's guarantee, or claim_scope=not_private",
                    to_string(s.declared.scope), s.declared.epsilon, s.declared.delta));
  s.declared.conditions = {kUserDeclared, fmt::format("external program: {}", s.command)};
  return s;
}

class ExternalCommand final : public Estimator {
 public:
  explicit ExternalCommand(Settings settings) : settings_(std::move(settings)) {}

  Estimate run(const Input& in, core::Rng& rng) const override {
    if (in.X == nullptr || in.X->cols() < 1)
      throw InvalidArgument("external.command needs the data vectors (Input::X, d x n with n >= 1)");
    if (in.k < 1 || in.k > in.X->rows())
      throw InvalidArgument(
          fmt::format("external.command: k must lie in [1, d = {}], got {}", in.X->rows(), in.k));
    core::require_finite(*in.X, "external.command: the data X");
    validate(in.privacy);
    const std::uint64_t seed = rng() >> 11;  // 53 bits: exact in any JSON parser that reads doubles
    const std::uint64_t id = next_request_id_++;
    const std::string request = encode_request(id, *in.X, in.k, in.privacy, seed);
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                               std::chrono::duration<double>(settings_.timeout_seconds));
    const auto decode = [&](const std::string& reply) {
      return decode_reply(reply, id, in.X->rows(), in.k, settings_.tolerances);
    };
    Estimate out = settings_.mode == Mode::persistent
                       ? exchange_persistent(request, deadline, decode)
                       : decode(ChildProcess(settings_.argv).exchange_to_exit(request, deadline));
    out.claim = claim(in);
    return out;
  }

  PrivacyClaim claim(const Input&) const override { return settings_.declared; }

 private:
  // One program per worker thread; its mutex serialises the trials sent to it.
  struct Worker {
    std::mutex busy;
    std::unique_ptr<ChildProcess> process;
  };

  template <class Decode>
  Estimate exchange_persistent(const std::string& request, ChildProcess::Deadline deadline,
                               const Decode& decode) const {
    Worker& worker = worker_of_this_thread();
    const std::lock_guard<std::mutex> hold(worker.busy);
    if (!worker.process || !worker.process->running())
      worker.process = std::make_unique<ChildProcess>(settings_.argv);
    try {
      return decode(worker.process->exchange_line(request, deadline));
    } catch (...) {
      // Dead, or its stdout may hold lines that belong to no request (a stray line, a late reply): a
      // fresh program for the next trial, so no reply is ever read as another trial's.
      worker.process.reset();
      throw;
    }
  }

  Worker& worker_of_this_thread() const {
    const std::lock_guard<std::mutex> hold(workers_lock_);
    auto& slot = workers_[std::this_thread::get_id()];
    if (!slot) slot = std::make_unique<Worker>();
    return *slot;
  }

  Settings settings_;
  mutable std::atomic<std::uint64_t> next_request_id_{1};
  mutable std::mutex workers_lock_;
  // Destroyed with the estimator, which kills every program still running.
  mutable std::map<std::thread::id, std::unique_ptr<Worker>> workers_;
};

}  // namespace

AlgorithmEntry external_command_entry() {
  AlgorithmEntry e;
  e.id = kId;
  e.summary = "External program: an algorithm in any language, run as an external program speaking the dpbounds protocol";
  e.source = "user-supplied program (docs/external.md)";
  e.needs = DataNeed::vectors;
  e.privacy =
      "whatever the user declares (claim_* parameters; default NOT private): user-declared, not verified by "
      "dpbounds";
  e.provenance = [](const core::ParamMap& params) {
    const Settings s = settings_fields().read(params, kId);
    return files_digest(program_files(split_command(s.command),
                                      s.inputs.empty() ? std::vector<std::string>{} : split_command(s.inputs)));
  };
  return with_parameters(std::move(e), settings_fields(), [](Settings s) -> std::unique_ptr<Estimator> {
    return std::make_unique<ExternalCommand>(checked(std::move(s)));
  });
}

}  // namespace dpb::alg::external
