#include "algorithms/mechanisms/ledger.hpp"

#include <fmt/format.h>
#include <cmath>

#include "core/errors.hpp"

namespace dpb::alg {
namespace {

thread_local LedgerProbe* current_probe = nullptr;

// Whether `b`, recorded in `part`, is one more use of `a`.
bool same_release(const LedgerEntry& a, const LedgerEntry& b, std::int64_t part) {
  if (a.part != part || a.step != b.step || a.mechanism != b.mechanism || a.norm != b.norm ||
      a.neighbours != b.neighbours || a.disjoint != b.disjoint || a.records != b.records ||
      a.truncation != b.truncation || a.calibrated_for.epsilon != b.calibrated_for.epsilon ||
      a.calibrated_for.delta != b.calibrated_for.delta)
    return false;
  // Privacy depends on noise / sensitivity only (a step size scaling both leaves it unchanged).
  if (a.sensitivity == b.sensitivity && a.noise_scale == b.noise_scale) return true;
  if (!(a.sensitivity > 0 && b.sensitivity > 0)) return false;
  const double ra = a.noise_scale / a.sensitivity, rb = b.noise_scale / b.sensitivity;
  return std::abs(ra - rb) <= 1e-9 * std::max(ra, rb);
}

}  // namespace

std::string to_string(Mechanism m) {
  switch (m) {
    case Mechanism::gaussian:
      return "gaussian";
    case Mechanism::laplace:
      return "laplace";
    case Mechanism::bounded_laplace:
      return "bounded_laplace";
    case Mechanism::stability_histogram:
      return "stability_histogram";
    case Mechanism::exponential:
      return "exponential";
    case Mechanism::propose_test_release:
      return "propose_test_release";
    case Mechanism::shuffled_gaussian:
      return "shuffled_gaussian";
    case Mechanism::exact:
      return "exact";
  }
  return "unknown";
}

std::string to_string(SensitivityNorm n) {
  switch (n) {
    case SensitivityNorm::l2:
      return "l2";
    case SensitivityNorm::l1:
      return "l1";
    case SensitivityNorm::max_score:
      return "max_score";
    case SensitivityNorm::spectral:
      return "spectral";
  }
  return "unknown";
}

LedgerEntry gaussian_entry(std::string step, double l2_sensitivity, double sd, const Privacy& budget) {
  return {.step = std::move(step),
          .mechanism = Mechanism::gaussian,
          .sensitivity = l2_sensitivity,
          .norm = SensitivityNorm::l2,
          .noise_scale = sd,
          .neighbours = budget.neighbours,
          .calibrated_for = {budget.epsilon, budget.delta}};
}

LedgerEntry laplace_entry(std::string step, double l1_sensitivity, double scale, const Privacy& budget) {
  return {.step = std::move(step),
          .mechanism = Mechanism::laplace,
          .sensitivity = l1_sensitivity,
          .norm = SensitivityNorm::l1,
          .noise_scale = scale,
          .neighbours = budget.neighbours,
          .calibrated_for = {budget.epsilon, budget.delta}};
}

LedgerEntry exact_entry(std::string step, double sensitivity, Neighbours neighbours) {
  return {.step = std::move(step),
          .mechanism = Mechanism::exact,
          .sensitivity = sensitivity,
          .neighbours = neighbours,
          .calibrated_for = {}};
}

LedgerProbe* active_probe() { return current_probe; }

ScopedProbe::ScopedProbe(LedgerProbe& probe) : previous_(current_probe) { current_probe = &probe; }
ScopedProbe::~ScopedProbe() { current_probe = previous_; }

void Ledger::record(const LedgerEntry& entry) {
  if (!(entry.sensitivity >= 0) || !(entry.noise_scale >= 0))
    throw InvalidArgument(
        fmt::format("ledger entry '{}': sensitivity and noise scale must be >= 0, got {} and {}", entry.step,
                    entry.sensitivity, entry.noise_scale));
  const std::int64_t part = entry.part >= 0 ? entry.part : part_;
  if (!entries_.empty() && entries_.back().part == part && same_release(entries_.back(), entry, part)) {
    entries_.back().uses += entry.uses;
    return;
  }
  entries_.push_back(entry);
  entries_.back().part = part;
}

void Ledger::append(const Ledger& other, std::int64_t part_offset) {
  // Never merged with this ledger's entries: another run's disjoint steps are not disjoint from ours.
  for (const LedgerEntry& e : other.entries()) {
    entries_.push_back(e);
    entries_.back().part = e.part < 0 ? part_ : e.part + part_offset;
  }
}

}  // namespace dpb::alg
