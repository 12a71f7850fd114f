#pragma once
// What `dpbounds audit` and an experiment's `audit:` section ask the privacy auditor to do
// (DESIGN.md §5 "Privacy audit", docs/auditing.md).
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <string>

#include "algorithms/privacy.hpp"
#include "algorithms/registry.hpp"
#include "core/params.hpp"
#include "core/rng.hpp"

namespace dpb::verify {

// How the neighbouring pair (D, D') is built; every kind replaces one record at a fixed index.
enum class NeighbourKind {
  canary,           // the algorithm's worst-case construction from its spec (one of the kinds below)
  fresh,            // D' replaces the record by a fresh draw from the model (cai2024's neighbour notion)
  huge_norm,        // D' replaces the record by a huge-norm canary c u along the fixed direction u
  sign_flip,        // D holds +c u, D' holds -c u at the index
  axis_flip,        // D holds +c e_a, D' holds -c e_a: the axis where u weighs most (per-coordinate noise)
  corner,           // D holds the truncation corner -c s / sqrt(d), D' the opposite one, s = sign(u)
  orthogonal_axes,  // D holds c e_a, D' holds c e_b: the two axes where u weighs most
  log_ladder,       // every record on a geometric ladder along u; D' copies the index's pair partner
  opposed_at_start,  // D holds lean c e_a + c e_b, D' lean c e_a - c e_b, and the run starts at e_a (white-box)
  search,  // the best of every construction above at four canary scales, on model and flat data, by pilot runs
};

// What an audit is expected to find. A suite counts an audit whose verdict meets its expectation as a
// success: a real algorithm that passes, or a mutant that is flagged (the auditor works).
// `ledger`: a defect below what the audit's runs can show (noise x0.8), flagged instead by the ledger of
// the audit's first run spending more than the claim; the audit's own verdict is then reported only.
enum class AuditExpectation { pass, violation, ledger };

struct AuditSpec {
  std::string algorithm;  // registry id
  core::ParamMap params;  // the algorithm's parameters (checked against its schema)
  std::string model = "spiked_gaussian";
  core::ParamMap model_params;  // d is set from `d`, and r from `k` unless given here
  alg::Privacy privacy{1.0, 1e-5};
  long n = 200;        // records per dataset
  int d = 10;          // dimension
  // Subspace dimension asked of the algorithm. Unset: 1, or d where the algorithm's worst case releases every
  // eigenpair (canary neighbours; its claim does not depend on k, and k = d releases the most).
  std::optional<int> k;
  long trials = 1000;  // mechanism runs on each of D and D' (with `seconds`: the first batch)
  // > 0: adaptive. After `trials` runs per side the runs grow by half, batch by batch, while the next batch
  // fits in this time budget, no violation is shown yet, and the runs stay <= max_trials. The runs done
  // are reported; `trials` = that number and seconds = 0 reproduce the audit exactly.
  double seconds = 0;
  long max_trials = 20'000'000;
  NeighbourKind neighbours = NeighbourKind::canary;
  std::string score;         // score registry name; empty: chosen from what the output holds
  double confidence = 0.95;  // of the epsilon lower bound, over all bounds and both directions
  std::uint64_t seed = 1;
  // Canary norm c = canary_scale * sqrt(tr Sigma), the typical record norm times 30: far beyond any clip
  // radius, and for an unclipped mechanism (cai2024 Alg. 1) c^2 / n = 900 tr Sigma / n outweighs the
  // spike lambda up to n in the thousands, so the canary moves the output.
  double canary_scale = 30;
  long index = 0;                          // the replaced record, 0 <= index < n
  // neighbours: search: pilot runs per side on each candidate pair (streams of their own, never the audit's).
  long search_trials = 500;
  // White-box: audit every additive ledger entry on its own against its cost (entry_audit.hpp), `trials` paired
  // runs after the audit's.
  bool per_entry = false;
  std::optional<AuditExpectation> expect;  // empty: see expected_verdict
};

// `spec.expect` when given; otherwise VIOLATION for a registered mutant (it exists to be flagged,
// docs/mutants.md) and PASS for every other algorithm (and for an id `registry` does not know).
AuditExpectation expected_verdict(const AuditSpec& spec,
                                  const alg::Registry& registry = alg::algorithm_registry());
// True when the expectation comes from the algorithm being a mutant rather than from `expect`.
bool expected_as_mutant(const AuditSpec& spec, const alg::Registry& registry = alg::algorithm_registry());

// Throws dpb::InvalidArgument saying what is wrong and what is allowed (empty algorithm id, unknown
// model, eps <= 0, delta outside [0, 1), n < 2, d < 1, a k outside 1..d, trials or search_trials < 20,
// seconds < 0 or not finite, max_trials < trials, confidence outside
// (0, 1), canary_scale <= 0, index outside 0..n-1, unknown score).
void validate(const AuditSpec& spec);

// Reads an `audit:` mapping. Keys (all optional; absent ones keep `defaults`): algorithm, params,
// model, model_params, epsilon, delta, n, d, k, trials, seconds, max_trials, neighbours, search_trials, per_entry,
// score, confidence, seed, canary_scale, index, expect (pass | violation | ledger). Throws dpb::ConfigError "file:line:column: message"
// on an unknown key, a value of the wrong type, or a spec that fails `validate`.
AuditSpec parse_audit_spec(const YAML::Node& node, const std::string& file, AuditSpec defaults = {});

// The audit's random streams: one per (run, role), so the audit's numbers depend only on the seed. The algorithm is
// not part of the stream id: every algorithm meets the same D, D' and noise streams, so a mutant and the algorithm
// it breaks are audited on the same data.
core::Rng audit_stream(const AuditSpec& spec, std::uint64_t run, const char* role);
// The role of the stream D's records are drawn from (run 0): every construction starts from the same D.
inline constexpr const char* kAuditDataRole = "data";

// A construction's name (neighbour_kind_names lists them); otherwise dpb::InvalidArgument listing them.
NeighbourKind parse_neighbour_kind(const std::string& text);
// Every construction's name, in that order, joined by `separator`.
std::string neighbour_kind_names(const std::string& separator);
std::string to_string(NeighbourKind kind);

// "pass" | "violation"; otherwise dpb::InvalidArgument listing them.
AuditExpectation parse_audit_expectation(const std::string& text);
std::string to_string(AuditExpectation expectation);  // "PASS" | "VIOLATION" (as verdicts print) | "LEDGER"

}  // namespace dpb::verify
