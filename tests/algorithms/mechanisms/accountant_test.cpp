#include "algorithms/mechanisms/accountant.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/mechanisms/composition.hpp"
#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/mechanisms/histogram.hpp"
#include "algorithms/mechanisms/laplace.hpp"

using namespace dpb::alg;
using Catch::Matchers::Contains;

namespace {

const Privacy kBudget{1.0, 1e-5, Neighbours::replace};

LedgerEntry calibrated_gaussian(const std::string& step, const Privacy& budget) {
  return gaussian_entry(step, 2.0, analytic_gaussian_sigma(2.0, budget.epsilon, budget.delta), budget);
}

PrivacyClaim claim_of(const Privacy& p) {
  PrivacyClaim c;
  c.epsilon = p.epsilon;
  c.delta = p.delta;
  c.neighbours = p.neighbours;
  return c;
}

}  // namespace

TEST_CASE("a Gaussian entry costs the budget its noise achieves", "[mechanisms][privacy]") {
  const LedgerEntry honest = calibrated_gaussian("release", kBudget);
  const EntryCost cost = entry_cost(honest, Neighbours::replace);
  CHECK(cost.epsilon == 1.0);
  CHECK(cost.delta == 1e-5);
  // Half the noise: the exact profile gives the larger eps at the same delta.
  LedgerEntry halved = honest;
  halved.noise_scale /= 2;
  const EntryCost more = entry_cost(halved, Neighbours::replace);
  CHECK(more.epsilon == Approx(gaussian_epsilon(honest.noise_scale / 2 / 2.0, 1e-5)));
  CHECK(more.epsilon > 2);
  // Classical calibration is conservative: the exact profile certifies it.
  const LedgerEntry classical = gaussian_entry("classical", 1.0, classical_gaussian_sigma(1.0, 0.5, 1e-5),
                                               {0.5, 1e-5, Neighbours::replace});
  CHECK(entry_cost(classical, Neighbours::replace).epsilon == 0.5);
}

TEST_CASE("the claim check names the entry whose noise falls short", "[mechanisms][privacy]") {
  Ledger ledger;
  LedgerEntry halved = calibrated_gaussian("the halved release", kBudget);
  halved.noise_scale /= 2;
  ledger.record(halved);
  CHECK_THROWS_AS(check_claim(ledger, claim_of(kBudget), "alg"), PrivacyOverspend);
  CHECK_THROWS_WITH(check_claim(ledger, claim_of(kBudget), "alg"), Contains("the halved release"));
  // A not_private claim is never checked.
  PrivacyClaim none = claim_of(kBudget);
  none.scope = ClaimScope::not_private;
  CHECK_NOTHROW(check_claim(ledger, none, "alg"));
}

TEST_CASE("Gaussian releases compose exactly, a budget not split overspends", "[mechanisms][privacy]") {
  // 40 releases each calibrated for the whole (1, 1e-3): the composition is far above 1, although every
  // entry alone is within its own budget, and the check names the composition.
  const Privacy whole{1.0, 1e-3, Neighbours::replace};
  Ledger not_split;
  for (int i = 0; i < 40; ++i) not_split.record(calibrated_gaussian("power iteration", whole));
  REQUIRE(not_split.entries().size() == 1);
  CHECK(not_split.entries().front().uses == 40);
  const Spend spend = account(not_split, 1e-3, Neighbours::replace);
  CHECK(spend.epsilon > 5);
  CHECK_THROWS_WITH(check_claim(not_split, claim_of(whole), "alg"), Contains("compose to"));
  // Split as GDP does it (mu_i = mu / sqrt(40)): within the budget, and tighter than basic composition
  // of 40 entries at (1/40, 1e-3/40) each would be.
  const double sd = analytic_gaussian_sigma(1.0, 1.0, 1e-3) * std::sqrt(40.0);
  Ledger split;
  for (int i = 0; i < 40; ++i) split.record(gaussian_entry("power iteration", 1.0, sd, whole));
  CHECK(account(split, 1e-3, Neighbours::replace).epsilon == Approx(1.0).epsilon(1e-6));
  CHECK_NOTHROW(check_claim(split, claim_of(whole), "alg"));
}

TEST_CASE("disjoint uses and disjoint parts are charged once", "[mechanisms][privacy]") {
  // One record per step (Private Oja): n uses on disjoint records cost one use.
  Ledger steps;
  LedgerEntry step = calibrated_gaussian("step", kBudget);
  step.disjoint = true;
  for (int t = 0; t < 1000; ++t) steps.record(step);
  CHECK(account(steps, kBudget.delta, Neighbours::replace).epsilon == Approx(1.0).epsilon(1e-12));
  // Two mechanisms on each of 5 disjoint batches: each batch composes its two, the batches in parallel.
  Ledger parts;
  const Privacy half{0.5, 5e-6, Neighbours::replace};
  for (int t = 0; t < 5; ++t) {
    parts.set_part(t);
    parts.record(calibrated_gaussian("scale", half));
    parts.record(calibrated_gaussian("mean", half));
  }
  parts.set_part(-1);
  CHECK(parts.entries().size() == 10);
  const Spend s = account(parts, kBudget.delta, Neighbours::replace);
  CHECK(s.epsilon <= 1.0);
  CHECK(s.epsilon > 0.5);
  CHECK_THAT(s.rule, Contains("parallel"));
  // The same ten releases on the same records compose: five times the Gaussian privacy loss of one part
  // (mu grows by sqrt 5), which at this delta costs more than twice the parallel charge.
  Ledger same;
  for (auto entry : parts.entries()) {
    entry.part = -1;
    same.record(entry);
  }
  CHECK(account(same, kBudget.delta, Neighbours::replace).epsilon > 2 * s.epsilon);
}

TEST_CASE("advanced composition certifies liu2022 Lemma B.4's per-step budget", "[mechanisms][privacy]") {
  // d = 200 histograms at Lemma B.4's per-step budget for (0.5, 1e-5): basic composition gives more than
  // 0.5; advanced composition with delta0 = the spare delta proves <= 0.5.
  const Budget per = advanced_composition_step_budget({0.5, 1e-5}, 200);
  Ledger ledger;
  const std::vector<std::int64_t> bins(1000, 3);
  const Privacy p{per.epsilon, per.delta, Neighbours::replace};
  for (int j = 0; j < 200; ++j) {
    LedgerEntry e{.step = "coordinate histogram",
                  .mechanism = Mechanism::stability_histogram,
                  .sensitivity = 2.0 / 1000,
                  .norm = SensitivityNorm::l1,
                  .noise_scale = histogram_noise_scale(1000, p),
                  .truncation = histogram_threshold(1000, p),
                  .records = 1000,
                  .neighbours = Neighbours::replace,
                  .calibrated_for = per};
    ledger.record(e);
  }
  CHECK(200 * per.epsilon > 0.5);
  const Spend s = account(ledger, 1e-5, Neighbours::replace);
  CHECK(s.epsilon <= 0.5);
  CHECK_THAT(s.rule, Contains("advanced"));
}

TEST_CASE("a histogram without its threshold and an exact release cost everything", "[mechanisms][privacy]") {
  Ledger ledger;
  dpb::core::Rng rng(1, 2);
  const std::vector<std::int64_t> bins{1, 2, 3, 3};
  stability_histogram(bins, kBudget, "every occupied bin", ledger, rng, BinRelease::every_occupied_bin);
  CHECK(entry_cost(ledger.entries().front(), Neighbours::replace).delta == 1);
  CHECK_THROWS_AS(check_claim(ledger, claim_of(kBudget), "alg"), PrivacyOverspend);
  Ledger thresholded;
  stability_histogram(bins, kBudget, "thresholded", thresholded, rng);
  CHECK(entry_cost(thresholded.entries().front(), Neighbours::replace).epsilon == 1.0);
  Ledger exact;
  exact.record(exact_entry("a count", 1, Neighbours::replace));
  CHECK(std::isinf(account(exact, 1e-5, Neighbours::replace).epsilon));
  Ledger constant;
  constant.record(exact_entry("n, public under replace-one", 0, Neighbours::replace));
  CHECK(account(constant, 1e-5, Neighbours::replace).epsilon == 0);
}

TEST_CASE("add/remove entries are charged under replace-one by group privacy, not the converse",
          "[mechanisms][privacy]") {
  Ledger ledger;
  ledger.record(laplace_entry("sum", 1.0, 2.0, {0.5, 0, Neighbours::add_remove}));
  CHECK(account(ledger, 0, Neighbours::add_remove).epsilon == 0.5);
  CHECK(account(ledger, 0, Neighbours::replace).epsilon == 1.0);
  Ledger replace_only;
  replace_only.record(laplace_entry("sum", 1.0, 2.0, {0.5, 0, Neighbours::replace}));
  CHECK(std::isinf(account(replace_only, 0, Neighbours::add_remove).epsilon));
}

TEST_CASE("amplification by shuffling: the issue's Private Oja numbers", "[mechanisms][privacy]") {
  // liu2022 Lemma 3.1 at n = 1e6, eps = 0.005, delta = 1e-6 with C' = 1: alpha = 5.53, per-step eps0 = 1.24,
  // and the explicit shuffling bound proves eps ~ 0.032, 6.4x the eps asked for.
  const double n = 1e6, eps = 0.005, delta = 1e-6, alpha = std::log(n / delta) / (eps * std::sqrt(n));
  LedgerEntry e = gaussian_entry("steps", 2.0, 2.0 * alpha, {eps, delta, Neighbours::replace});
  e.mechanism = Mechanism::shuffled_gaussian;
  e.records = 1000000;
  e.disjoint = true;
  const EntryCost cost = entry_cost(e, Neighbours::replace);
  CHECK(cost.epsilon > 0.025);
  CHECK(cost.epsilon < 0.04);
  CHECK(cost.delta <= delta);
  CHECK_THAT(cost.theorem, Contains("shuffling"));
  // Its order must stay secret, so its trade-off is not a Gaussian one; at n = 10 no amplification applies and
  // each record meets one Gaussian step: it is.
  CHECK(cost.needs_secret_order);
  CHECK_FALSE(gaussian_tradeoff(e, Neighbours::replace));
  e.records = 10;
  CHECK_FALSE(entry_cost(e, Neighbours::replace).needs_secret_order);
  CHECK(gaussian_tradeoff(e, Neighbours::replace));
  CHECK(gaussian_tradeoff(gaussian_entry("g", 1, 1, {1, 1e-5, Neighbours::replace}), Neighbours::replace));
  CHECK_FALSE(gaussian_tradeoff(laplace_entry("l", 1, 1, {1, 0, Neighbours::replace}), Neighbours::replace));
}
