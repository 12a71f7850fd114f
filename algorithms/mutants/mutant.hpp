#pragma once
// A mutant: a real registered algorithm with ONE thing deliberately broken, that still makes the real
// algorithm's privacy claim (DESIGN.md §5 "Privacy audit": every mutant must be flagged by the auditor).
// The break is applied from outside wherever possible: the parameters or the privacy budget handed to
// the real code; a seam in the real code (a factory taking a hook) only where no such knob exists.
#include <functional>
#include <memory>
#include <string>

#include "algorithms/registry.hpp"

namespace dpb::alg::mutants {

using EstimatorFactory = std::function<std::unique_ptr<Estimator>(const core::ParamMap&)>;

struct MutantSpec {
  std::string id;      // "mutant.<what>"
  std::string breaks;  // id of the real algorithm
  std::string broken;  // what is broken, completing "MUTANT: <breaks> with ..."
  // Real parameters the mutant pins to their honest values (and drops from its schema): the claim is
  // made for these, the break then changes the run.
  core::ParamMap pinned = {};
  // Rewrites one run's (resolved, honest) parameters into the broken ones; may read the data, and then
  // records what it read in `ledger` (breaks.hpp), which leads the run's ledger.
  std::function<void(core::ParamMap& params, const Input& in, Ledger& ledger)> break_params = {};
  // Rewrites the privacy budget handed to the real code (the claim keeps the budget asked for).
  std::function<Privacy(const Privacy& asked, const Input& in)> break_privacy = {};
  // Builds the broken estimator from the broken parameters when the break lives in a seam of the real
  // code; empty: the real algorithm's own factory.
  EstimatorFactory broken_factory = {};
  // What the mutant claims, from the real algorithm's claim; empty: exactly the real claim.
  std::function<PrivacyClaim(PrivacyClaim real, const Input& in)> restate_claim = {};
  // The break is in what the code computes, not in what its ledger declares (AlgorithmEntry::ledger_hides_break).
  bool ledger_hides_break = false;
};

// The registry entry of `spec`, built from the real algorithm's entry `real` (spec.breaks == real.id):
// its schema minus the pinned parameters, its data needs and oracle quantities, summary
// "MUTANT: <real id> with <broken>", mutant = true, breaks = real.id. Each run hands the broken
// parameters and budget to the real code and returns its output under the (restated) real claim, with
// a diagnostics note naming the break. Throws dpb::InvalidArgument when the ids do not match or a
// pinned parameter is not in the real schema.
AlgorithmEntry mutant_entry(const AlgorithmEntry& real, MutantSpec spec);

}  // namespace dpb::alg::mutants
