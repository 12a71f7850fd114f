#pragma once
// The privacy ledger of one run (docs/privacy.md "The ledger"): every mechanism in algorithms/mechanisms/
// records what it released, with its sensitivity, noise and the sub-budget it was calibrated for; the
// accountant (accountant.hpp) composes the entries into the (eps, delta) the run actually spent.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/mechanisms/composition.hpp"
#include "algorithms/privacy.hpp"

namespace dpb::alg {

enum class Mechanism {
  gaussian,              // value + N(0, noise_scale^2 I); `sensitivity` in l2
  laplace,               // value + Lap(noise_scale) per coordinate; `sensitivity` in l1
  bounded_laplace,       // value + Lap(noise_scale) conditioned on |X| <= truncation (kumar2025 §1.3)
  stability_histogram,   // Lap(noise_scale) on bin frequencies of `records` records, released above
                         // `truncation`
  exponential,           // select with probability ~ exp(score / noise_scale); `sensitivity` of every score
  propose_test_release,  // a Laplace lower confidence bound: value + Lap(noise_scale) - truncation (the
                         // margin); its delta is the chance the bound passes a test it should fail
  shuffled_gaussian,  // Gaussian local steps on `records` shuffled records, one record each (amplification)
  exact,              // a data-dependent value released without noise (private only if sensitivity is 0)
};

// The norm a sensitivity is measured in.
enum class SensitivityNorm {
  l2,         // Euclidean norm of the change (Frobenius for a matrix)
  l1,         // sum of absolute changes
  max_score,  // largest change of any one candidate's score (the exponential mechanism)
  spectral,   // operator norm of the change of a score matrix (quadratic-form scores v^T A v on the sphere)
};

struct LedgerEntry {
  std::string step;  // what was released, e.g. "noisy power iteration"
  Mechanism mechanism = Mechanism::gaussian;
  double sensitivity = 0;  // largest change of the pre-noise statistic between neighbours, in `norm`
  SensitivityNorm norm = SensitivityNorm::l2;
  double noise_scale = 0;   // Gaussian sd; Laplace scale; exponential: 2 Delta_q / eps (the temperature)
  double truncation = 0;    // bounded Laplace: the bound tau; histogram: the release threshold
  std::size_t records = 0;  // histogram: records counted; shuffled_gaussian: records shuffled
  Neighbours neighbours = Neighbours::replace;
  Budget calibrated_for;  // the sub-budget the code calibrated this release for
  std::int64_t uses = 1;  // identical releases merged into this entry
  bool disjoint = false;  // every use reads its own records (parallel composition: one use is charged)
  // The disjoint batch of records this release reads (-1: any record). Entries of one part compose with
  // each other; different parts compose in parallel (a record lies in at most one part).
  std::int64_t part = -1;
};

std::string to_string(Mechanism m);
std::string to_string(SensitivityNorm n);

// Entries of the common kinds; `budget` is the sub-budget the release is calibrated for, with the
// neighbour relation its sensitivity is for.
LedgerEntry gaussian_entry(std::string step, double l2_sensitivity, double sd, const Privacy& budget);
LedgerEntry laplace_entry(std::string step, double l1_sensitivity, double scale, const Privacy& budget);
// A value computed from the data and released as it is: charged +infinity unless `sensitivity` is 0.
LedgerEntry exact_entry(std::string step, double sensitivity, Neighbours neighbours);

// What a probe is shown as the release: the mechanism's own noisy values of the statistic (release - statistic
// is the noise the entry declares); a selection (the chosen keys or point, not noisy values: exponential
// mechanism, Bingham draws, top-k supports without their values); or a post-processed view of a draw already
// shown (dugler2026's tangent noise after its projection: the value the step goes on with, whose change the
// sensitivity must still bound).
enum class ProbedRelease { drawn, selected, projected };

// Test-only seam for the sensitivity and noise probes (verify/audit/sensitivity_probe.hpp, noise_probe.hpp):
// while a probe is active on this thread, every mechanism hands it the statistic it is about to noise, in the
// entry's norm, and the value it released, which the probe may overwrite (to feed two runs the same history).
// `keys` name the statistic's coordinates where their set depends on the data (histogram bins), else it is
// empty.
class LedgerProbe {
 public:
  virtual ~LedgerProbe() = default;
  virtual void observe(const LedgerEntry& entry, const std::vector<double>& statistic,
                       const std::vector<std::int64_t>& keys, std::vector<double>& release, ProbedRelease kind) = 0;
};
LedgerProbe* active_probe();
// Activates `probe` on this thread for the guard's lifetime.
class ScopedProbe {
 public:
  explicit ScopedProbe(LedgerProbe& probe);
  ~ScopedProbe();
  ScopedProbe(const ScopedProbe&) = delete;
  ScopedProbe& operator=(const ScopedProbe&) = delete;

 private:
  LedgerProbe* previous_;
};

class Ledger {
 public:
  // Adds one release. An entry equal to the last one in all but its noise (the same step, mechanism,
  // budget and ratio of noise to sensitivity) is merged into it by counting one more use, so a loop of n
  // steps keeps one entry. Throws dpb::InvalidArgument on a negative or NaN sensitivity or noise scale.
  void record(const LedgerEntry& entry);
  // Every entry recorded from now on (with part -1) reads only batch `part` of the records (-1: any
  // record). An algorithm that runs its steps on disjoint batches sets it per step.
  void set_part(std::int64_t part) { part_ = part; }
  const std::vector<LedgerEntry>& entries() const { return entries_; }
  bool empty() const { return entries_.empty(); }
  // Appends another ledger's entries (a sub-algorithm's run), never merged with ours. `part_offset` shifts
  // the other ledger's parts, for a sub-run on its own slice of the records whose parts are numbered
  // within that slice.
  void append(const Ledger& other, std::int64_t part_offset = 0);

 private:
  std::vector<LedgerEntry> entries_;
  std::int64_t part_ = -1;
};

}  // namespace dpb::alg
