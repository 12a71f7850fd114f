#pragma once
// The accountant (docs/privacy.md "The accountant"): the (eps, delta) a ledger actually spent, from the
// privacy theorem of each mechanism it records and the composition rules that apply, and the check every
// run makes of its claim against it.
#include <string>
#include <vector>

#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/privacy.hpp"
#include "core/errors.hpp"

namespace dpb::alg {

// What one use of an entry gives under a neighbour relation: the budget it was calibrated for when its
// noise achieves that budget, else what its noise achieves at the calibrated delta (+infinity when
// nothing does, e.g. an exact release of a data-dependent value).
struct EntryCost {
  double epsilon = 0;
  double delta = 0;
  std::string theorem;  // the result that gives it, e.g. "Gaussian mechanism, exact profile"
  // The cost rests on amplification by shuffling: it holds only while the permutation stays secret.
  bool needs_secret_order = false;
};
// The entry's privacy trade-off is a Gaussian one (mu-GDP): a Gaussian mechanism, or shuffled Gaussian steps
// charged without amplification (each record in one Gaussian step, whatever the order). The auditor's
// Gaussian-DP fit may join its verdict only where every entry of a run is.
bool gaussian_tradeoff(const LedgerEntry& entry, Neighbours neighbours);
// mu of one use of a Gaussian entry under `neighbours` (its l2 sensitivity over its sd; add/remove -> replace
// doubles the sensitivity), what the GDP composition rule charges it; NaN for an entry that rule does not compose.
double entry_gdp_mu(const LedgerEntry& entry, Neighbours neighbours);
// Entries recorded for add/remove neighbours are charged under replace-one by group privacy (a replacement
// is one removal and one addition: (2 eps, (1 + e^eps) delta)); the converse does not hold (+infinity).
EntryCost entry_cost(const LedgerEntry& entry, Neighbours neighbours);

// The whole ledger: the smallest eps, with delta at most `delta`, that any of the composition rules proves
// (basic composition; exact composition of the Gaussian entries as mu-GDP with the rest composed basically;
// advanced composition), each entry charged once per use or once in all when its uses read disjoint
// records (parallel composition).
struct Spend {
  double epsilon = 0;
  double delta = 0;
  std::string rule;
};
Spend account(const Ledger& ledger, double delta, Neighbours neighbours);

// A run that spent more than it claimed.
class PrivacyOverspend : public InvalidArgument {
 public:
  using InvalidArgument::InvalidArgument;
};

// Whether `spend` is within `claim` (up to rounding).
bool within_claim(const Spend& spend, const PrivacyClaim& claim);
// Throws PrivacyOverspend, naming the entry that overspends (or the composition that does), unless the
// ledger's spend at the claim's delta is within the claim. A not_private claim is never checked.
void check_claim(const Ledger& ledger, const PrivacyClaim& claim, const std::string& algorithm);

// One line per entry and a total, for reports and the terminal.
std::vector<std::string> describe_ledger(const Ledger& ledger, const PrivacyClaim& claim);

}  // namespace dpb::alg
