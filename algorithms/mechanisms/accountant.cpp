#include "algorithms/mechanisms/accountant.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/mechanisms/histogram.hpp"
#include "algorithms/mechanisms/shuffling.hpp"

namespace dpb::alg {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kRelativeSlack = 1e-6;  // calibrations solved by root finding land within it

bool at_most(double value, double bound) { return value <= bound * (1 + kRelativeSlack) + 1e-15; }

std::int64_t charged_uses(const LedgerEntry& e) { return e.disjoint ? 1 : e.uses; }

EntryCost infinite(std::string theorem) { return {kInf, 1, std::move(theorem)}; }

EntryCost gaussian_cost(const LedgerEntry& e) {
  const auto& c = e.calibrated_for;
  if (e.sensitivity == 0) return {0, 0, "Gaussian mechanism on a constant"};
  if (e.norm != SensitivityNorm::l2) return infinite("Gaussian mechanism needs an l2 sensitivity");
  if (!std::isfinite(e.sensitivity))
    return infinite("Gaussian release of a statistic with unbounded sensitivity");
  if (e.noise_scale == 0) return infinite("Gaussian release without noise");
  if (!(c.delta > 0 && c.delta < 1)) return infinite("Gaussian mechanism needs delta in (0, 1)");
  const double z = e.noise_scale / e.sensitivity;
  const std::string theorem = "Gaussian mechanism, exact profile (Balle & Wang 2018, Thm 8)";
  if (c.epsilon > 0 && at_most(gaussian_delta(z, c.epsilon), c.delta)) return {c.epsilon, c.delta, theorem};
  return {gaussian_epsilon(z, c.delta), c.delta, theorem};
}

EntryCost laplace_cost(const LedgerEntry& e) {
  if (e.sensitivity == 0) return {0, 0, "Laplace mechanism on a constant"};
  if (e.norm != SensitivityNorm::l1) return infinite("Laplace mechanism needs an l1 sensitivity");
  if (e.noise_scale == 0) return infinite("Laplace release without noise");
  return {e.sensitivity / e.noise_scale, 0, "Laplace mechanism (Dwork & Roth Thm 3.6)"};
}

EntryCost propose_test_release_cost(const LedgerEntry& e) {
  if (e.sensitivity == 0) return {0, 0, "test on a constant"};
  if (e.norm != SensitivityNorm::l1) return infinite("a Laplace test needs an l1 sensitivity");
  if (e.noise_scale == 0) return infinite("test without noise");
  // Dwork & Roth §3.3 / Dwork & Lei 2009: the noisy bound is Laplace (eps = Delta / b); it exceeds the true
  // value, letting the release after it run where its sensitivity bound fails, with P(Lap(b) > margin).
  return {e.sensitivity / e.noise_scale, std::min(1.0, 0.5 * std::exp(-e.truncation / e.noise_scale)),
          "propose-test-release (Laplace lower bound with a margin)"};
}

EntryCost bounded_laplace_cost(const LedgerEntry& e) {
  if (e.sensitivity == 0) return {0, 0, "bounded Laplace on a constant"};
  if (e.noise_scale == 0) return infinite("bounded Laplace without noise");
  // spec: kumar2025 Fact 2: Lap(Delta/eps) truncated at tau = (Delta/eps) log(4/delta) is (eps, delta)-DP;
  // for a scale lambda, eps = Delta/lambda and delta = 4 exp(-tau/lambda).
  const double eps = e.sensitivity / e.noise_scale;
  return {eps, std::min(1.0, 4 * std::exp(-e.truncation / e.noise_scale)),
          "bounded Laplace (kumar2025 Fact 2)"};
}

EntryCost histogram_cost(const LedgerEntry& e) {
  const std::string theorem = "stability histogram (Karwa & Vadhan 2017 Lemma 2.3; liu2022 Lemma B.1)";
  if (e.records == 0 || e.noise_scale == 0) return infinite(theorem + " without noise");
  const auto& c = e.calibrated_for;
  const double n = static_cast<double>(e.records);
  if (c.epsilon > 0 && c.delta > 0 && c.delta < 1) {
    const Privacy p{c.epsilon, c.delta, e.neighbours};
    if (at_most(histogram_noise_scale(e.records, p), e.noise_scale) &&
        at_most(histogram_threshold(e.records, p), e.truncation))
      return {c.epsilon, c.delta, theorem};
  }
  // What the noise and threshold give (the calibration of histogram.hpp, solved for eps and delta).
  const bool replace = e.neighbours == Neighbours::replace;
  const double eps = sum_sensitivity_factor(e.neighbours) / (e.noise_scale * n);
  const double excess = std::max(0.0, e.truncation - 1 / n) * eps * n;
  const double delta = replace ? 2 * std::exp(-excess / 2) : std::exp(-excess);
  return {eps, std::min(1.0, delta), theorem};
}

EntryCost exponential_cost(const LedgerEntry& e) {
  if (e.sensitivity == 0) return {0, 0, "exponential mechanism on constant scores"};
  if (e.noise_scale == 0) return infinite("selection without noise (argmax)");
  return {2 * e.sensitivity / e.noise_scale, 0, "exponential mechanism (McSherry & Talwar 2007)"};
}

EntryCost shuffled_cost(const LedgerEntry& e) {
  if (e.sensitivity == 0) return {0, 0, "shuffled steps on constants"};
  if (e.noise_scale == 0) return infinite("shuffled steps without noise");
  const auto& c = e.calibrated_for;
  if (!(c.delta > 0 && c.delta < 1)) return infinite("amplification by shuffling needs delta in (0, 1)");
  const double z = e.noise_scale / e.sensitivity;
  const auto n = static_cast<std::int64_t>(e.records);
  // Without amplification each record enters one Gaussian step (parallel composition).
  const double plain = gaussian_epsilon(z, c.delta);
  if (n > 0 && c.epsilon > 0) {
    const ShuffledGuarantee g = shuffled_gaussian_guarantee(z, n, c.epsilon, c.delta);
    if (at_most(g.epsilon, c.epsilon) && at_most(g.delta, c.delta))
      return {c.epsilon, c.delta, "amplification by shuffling (FMT 2021, explicit bound)", true};
  }
  if (n > 0) {
    // The deltas split for the plain eps: the shuffled eps, when smaller, keeps delta within c.delta.
    const ShuffledGuarantee g = shuffled_gaussian_guarantee(z, n, plain, c.delta);
    if (g.epsilon < plain && at_most(g.delta, c.delta))
      return {g.epsilon, c.delta, "amplification by shuffling (FMT 2021, explicit bound)", true};
  }
  return {plain, c.delta, "Gaussian mechanism per record, parallel composition (no amplification applies)"};
}

EntryCost own_cost(const LedgerEntry& e) {
  switch (e.mechanism) {
    case Mechanism::gaussian:
      return gaussian_cost(e);
    case Mechanism::laplace:
      return laplace_cost(e);
    case Mechanism::propose_test_release:
      return propose_test_release_cost(e);
    case Mechanism::bounded_laplace:
      return bounded_laplace_cost(e);
    case Mechanism::stability_histogram:
      return histogram_cost(e);
    case Mechanism::exponential:
      return exponential_cost(e);
    case Mechanism::shuffled_gaussian:
      return shuffled_cost(e);
    case Mechanism::exact:
      if (e.sensitivity == 0) return {0, 0, "exact release of a data-independent value"};
      return infinite("exact release of a data-dependent value, no noise");
  }
  return infinite("unknown mechanism");
}

std::string budget_text(double eps, double delta) {
  if (!std::isfinite(eps)) return "(inf)";
  return delta > 0 ? fmt::format("({:.4g}, {:.3g})", eps, delta) : fmt::format("({:.4g}, 0)", eps);
}

}  // namespace

EntryCost entry_cost(const LedgerEntry& entry, Neighbours neighbours) {
  EntryCost cost = own_cost(entry);
  if (entry.neighbours == neighbours || cost.epsilon == 0) return cost;
  if (neighbours == Neighbours::add_remove)
    return infinite("a replace-one guarantee does not bound add/remove neighbours");
  return {2 * cost.epsilon, std::min(1.0, (1 + std::exp(cost.epsilon)) * cost.delta),
          cost.theorem + ", group privacy over a removal and an addition", cost.needs_secret_order};
}

double entry_gdp_mu(const LedgerEntry& e, Neighbours neighbours) {
  if (e.mechanism != Mechanism::gaussian || e.norm != SensitivityNorm::l2 || e.noise_scale <= 0 ||
      !std::isfinite(e.sensitivity))
    return std::numeric_limits<double>::quiet_NaN();
  if (e.neighbours == neighbours) return e.sensitivity / e.noise_scale;
  if (neighbours == Neighbours::replace) return 2 * e.sensitivity / e.noise_scale;
  return std::numeric_limits<double>::quiet_NaN();
}

bool gaussian_tradeoff(const LedgerEntry& entry, Neighbours neighbours) {
  return entry.mechanism == Mechanism::gaussian ||
         (entry.mechanism == Mechanism::shuffled_gaussian && !entry_cost(entry, neighbours).needs_secret_order);
}

namespace {

// One entry with its cost per use and the number of uses charged.
struct Charged {
  const LedgerEntry* entry;
  EntryCost cost;
  double uses;
};

// Sequential composition of `items` within `delta`: the best of basic composition; advanced composition of
// each repeated non-Gaussian entry (sharing the spare delta); and the Gaussian entries composed exactly as
// mu-GDP (Dong, Roth, Su 2022, Cor. 2), at a few splits of the spare delta between the two.
Spend sequential(const std::vector<Charged>& items, double delta, Neighbours neighbours) {
  Spend best{kInf, 1, "no composition rule applies"};
  const auto consider = [&](double eps, double d, const std::string& rule) {
    if (at_most(d, delta) && eps < best.epsilon) best = {eps, d, rule};
  };
  double eps_sum = 0, delta_sum = 0, gauss_eps = 0, gauss_delta = 0, mu2 = 0;
  int repeated = 0;
  for (const Charged& c : items) {
    eps_sum += c.uses * c.cost.epsilon;
    delta_sum += c.uses * c.cost.delta;
    const double mu = entry_gdp_mu(*c.entry, neighbours);
    if (!std::isnan(mu)) {
      mu2 += c.uses * mu * mu;
      gauss_eps += c.uses * c.cost.epsilon;
      gauss_delta += c.uses * c.cost.delta;
    } else if (c.uses > 1 && std::isfinite(c.cost.epsilon) && c.cost.epsilon > 0) {
      ++repeated;
    }
  }
  if (items.empty()) return {0, 0, "nothing released"};
  consider(eps_sum, delta_sum, "basic composition");
  // The non-Gaussian entries, each repeated one by the better of basic and advanced composition (Dwork &
  // Roth Thm 3.20) with delta0 = `spare` / (number of repeated entries).
  const auto others = [&](double spare) {
    double eps = 0, d = 0;
    for (const Charged& c : items) {
      if (!std::isnan(entry_gdp_mu(*c.entry, neighbours))) continue;
      double e = c.uses * c.cost.epsilon, extra = 0;
      if (c.uses > 1 && spare > 0 && std::isfinite(c.cost.epsilon) && c.cost.epsilon > 0) {
        const double d0 = spare / repeated, k = c.uses, e0 = c.cost.epsilon;
        const double advanced = std::sqrt(2 * k * std::log(1 / d0)) * e0 + k * e0 * std::expm1(e0);
        if (advanced < e) {
          e = advanced;
          extra = d0;
        }
      }
      eps += e;
      d += c.uses * c.cost.delta + extra;
    }
    return Spend{eps, d, ""};
  };
  const double rest_delta = delta_sum - gauss_delta;
  if (repeated > 0 && delta_sum < delta) {
    const Spend r = others(delta - delta_sum);
    consider(r.epsilon + gauss_eps, r.delta + gauss_delta,
             "advanced composition of repeated releases, basic across");
  }
  if (mu2 > 0 && rest_delta < delta && delta < 1) {
    for (const double share : {0.0, 0.25, 0.5, 0.75}) {
      if (share > 0 && repeated == 0) break;
      const Spend r = others(share * (delta - rest_delta));
      if (!(r.delta < delta)) continue;
      consider(gaussian_epsilon(1 / std::sqrt(mu2), delta - r.delta) + r.epsilon, delta,
               repeated > 0 && share > 0
                   ? "Gaussian releases composed exactly (GDP), repeated others by advanced composition"
                   : "Gaussian releases composed exactly (GDP), the rest by basic composition");
    }
  }
  return best;
}

}  // namespace

Spend account(const Ledger& ledger, double delta, Neighbours neighbours) {
  if (ledger.empty()) return {0, 0, "nothing released"};
  // Entries on any record compose sequentially; the parts (disjoint batches) compose in parallel, so the
  // worst part is charged once, composed with the rest at a split of delta.
  std::vector<Charged> global;
  std::map<std::int64_t, std::vector<Charged>> parts;
  for (const LedgerEntry& e : ledger.entries()) {
    const Charged c{&e, entry_cost(e, neighbours), static_cast<double>(charged_uses(e))};
    (e.part < 0 ? global : parts[e.part]).push_back(c);
  }
  if (parts.empty()) return sequential(global, delta, neighbours);
  const auto worst_part = [&](double d) {
    Spend worst{0, 0, ""};
    for (const auto& [index, items] : parts) {
      const Spend s = sequential(items, d, neighbours);
      if (s.epsilon > worst.epsilon || !std::isfinite(s.epsilon)) worst = s;
      worst.delta = std::max(worst.delta, s.delta);
    }
    return worst;
  };
  if (global.empty()) {
    Spend s = worst_part(delta);
    s.rule =
        fmt::format("parallel composition over {} disjoint batches; within each: {}", parts.size(), s.rule);
    return s;
  }
  Spend best{kInf, 1, "no composition rule applies"};
  for (const double share : {0.25, 0.5, 0.75}) {
    const Spend p = worst_part(share * delta), g = sequential(global, delta - p.delta, neighbours);
    if (p.epsilon + g.epsilon < best.epsilon && at_most(p.delta + g.delta, delta))
      best = {p.epsilon + g.epsilon, p.delta + g.delta,
              fmt::format("parallel composition over {} disjoint batches ({}), then with the rest ({})",
                          parts.size(), p.rule, g.rule)};
  }
  return best;
}

bool within_claim(const Spend& spend, const PrivacyClaim& claim) {
  return at_most(spend.epsilon, claim.epsilon) && at_most(spend.delta, claim.delta);
}

void check_claim(const Ledger& ledger, const PrivacyClaim& claim, const std::string& algorithm) {
  if (claim.scope == ClaimScope::not_private) return;
  const Spend spend = account(ledger, claim.delta, claim.neighbours);
  if (within_claim(spend, claim)) return;
  // Name the entry whose noise falls short of its own sub-budget, or else the composition.
  for (const LedgerEntry& e : ledger.entries()) {
    const EntryCost c = entry_cost(e, claim.neighbours);
    if (!at_most(c.epsilon, e.calibrated_for.epsilon) || !at_most(c.delta, e.calibrated_for.delta) ||
        !std::isfinite(c.epsilon))
      throw PrivacyOverspend(
          fmt::format("{}: privacy ledger overspends its claim {}: step '{}' ({}, sensitivity {:.4g} in {}, "
                      "noise {:.4g}) "
                      "gives {} per use by {}, calibrated for {}",
                      algorithm, budget_text(claim.epsilon, claim.delta), e.step, to_string(e.mechanism),
                      e.sensitivity, to_string(e.norm), e.noise_scale, budget_text(c.epsilon, c.delta),
                      c.theorem, budget_text(e.calibrated_for.epsilon, e.calibrated_for.delta)));
  }
  std::string steps;
  for (const LedgerEntry& e : ledger.entries())
    steps += fmt::format("{}'{}' x{}{}", steps.empty() ? "" : ", ", e.step, e.uses,
                         e.disjoint ? " (disjoint)" : "");
  throw PrivacyOverspend(fmt::format(
      "{}: privacy ledger overspends its claim {}: its steps {} compose to {} by {}", algorithm,
      budget_text(claim.epsilon, claim.delta), steps, budget_text(spend.epsilon, spend.delta), spend.rule));
}

std::vector<std::string> describe_ledger(const Ledger& ledger, const PrivacyClaim& claim) {
  std::vector<std::string> lines;
  for (const LedgerEntry& e : ledger.entries()) {
    const EntryCost c = entry_cost(e, claim.neighbours);
    std::string uses;
    if (e.uses > 1)
      uses = fmt::format(" x{}{}", e.uses, e.disjoint ? " on disjoint records (charged once)" : "");
    lines.push_back(fmt::format(
        "{}: {} mechanism, sensitivity {:.4g} ({}), noise {:.4g}{}; calibrated for {}, gives {}", e.step,
        to_string(e.mechanism), e.sensitivity, to_string(e.norm), e.noise_scale, uses,
        budget_text(e.calibrated_for.epsilon, e.calibrated_for.delta), budget_text(c.epsilon, c.delta)));
  }
  const Spend s = account(ledger, claim.delta, claim.neighbours);
  lines.push_back(fmt::format("total spent: {} by {}", budget_text(s.epsilon, s.delta), s.rule));
  return lines;
}

}  // namespace dpb::alg
