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
// Default of the schema (and of the factory's fallback when called without resolve()).
constexpr double kDefaultTimeoutSeconds = 60;

enum class Mode { one_shot, persistent };

struct Settings {
  std::string command;
  std::vector<std::string> argv;
  Mode mode = Mode::one_shot;
  double timeout_seconds = 0;
  ReplyTolerances tolerances{};
  PrivacyClaim declared;
};

ClaimScope parse_scope(const std::string& name) {
  if (name == "worst_case") return ClaimScope::worst_case;
  if (name == "under_model_assumptions") return ClaimScope::under_model_assumptions;
  return ClaimScope::not_private;
}

Settings settings_from(const core::ParamMap& p) {
  Settings s;
  s.command = p.get_string("command", "", kId);
  if (s.command.empty())
    throw InvalidArgument(
        "external.command: parameter 'command' is required: the program and its arguments, "
        "e.g. command='./my_pca --iterations 10'");
  s.argv = split_command(s.command);
  s.mode = p.get_string("protocol", "one_shot", kId) == "persistent" ? Mode::persistent : Mode::one_shot;
  s.timeout_seconds = p.get_real("timeout_seconds", kDefaultTimeoutSeconds, kId);
  s.tolerances = tolerances_from(p, kId);
  s.declared.epsilon = p.get_real("claim_epsilon", 0, kId);
  s.declared.delta = p.get_real("claim_delta", 0, kId);
  s.declared.scope = parse_scope(p.get_string("claim_scope", "not_private", kId));
  s.declared.neighbours = p.get_string("claim_neighbours", "replace", kId) == "add_remove"
                              ? Neighbours::add_remove
                              : Neighbours::replace;
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
  e.params = {
      text_param("command", "", "the program and its arguments, split by shell-like quoting, run without a shell",
                 kSpecRef),
      choice_param(
          "protocol", "one_shot", {"one_shot", "persistent"},
          "one_shot: one program run per trial; persistent: one program per worker thread, many trials "
          "streamed through it (start-up paid once)",
          kSpecRef),
      real_param("timeout_seconds", kDefaultTimeoutSeconds, 1e-3, 86400,
                 "a trial whose reply is not complete within this many seconds fails; the program is killed",
                 kSpecRef),
      real_param("claim_epsilon", 0, 0, std::nullopt, "declared epsilon of the program (user-declared)",
                 kSpecRef),
      real_param("claim_delta", 0, 0, 1, "declared delta of the program, < 1 (user-declared)", kSpecRef),
      choice_param("claim_scope", "not_private", {"worst_case", "under_model_assumptions", "not_private"},
                   "declared scope of the program's guarantee (user-declared; default: no guarantee)",
                   kSpecRef),
      choice_param("claim_neighbours", "replace", {"replace", "add_remove"},
                   "neighbouring relation of the declared guarantee", kSpecRef),
      text_param("inputs", "",
                 "files the program reads besides those on its command line (split like command); their "
                 "content, and the program's, enters the experiment's key",
                 kSpecRef),
  };
  const auto tolerances = tolerance_params(kSpecRef);
  e.params.insert(e.params.begin() + 3, tolerances.begin(), tolerances.end());  // after timeout_seconds
  e.privacy =
      "whatever the user declares (claim_* parameters; default NOT private): user-declared, not verified by "
      "dpbounds";
  e.provenance = [](const core::ParamMap& params) {
    const std::string inputs = params.get_string("inputs", "", kId);
    return files_digest(program_files(split_command(params.get_string("command", "", kId)),
                                      inputs.empty() ? std::vector<std::string>{} : split_command(inputs)));
  };
  e.factory = [](const core::ParamMap& params) {
    return std::make_unique<ExternalCommand>(settings_from(params));
  };
  return e;
}

}  // namespace dpb::alg::external
