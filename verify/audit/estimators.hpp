#pragma once
// Empirical lower bounds on the privacy loss from two samples of scores, one per neighbouring
// dataset (DESIGN.md §5 "Privacy audit"): Clopper–Pearson on a held-out split, and a Gaussian-DP fit.
#include <span>
#include <string>

namespace dpb::verify {

// Scores needed per dataset: half select the test, half evaluate it, and fewer than 10 evaluating
// runs cannot bound anything.
inline constexpr long kMinScoresPerDataset = 20;

// Exact one-sided binomial (Clopper–Pearson) bounds on p from `successes` out of `trials`, each
// holding with probability >= 1 - alpha.
double binomial_lower_bound(long successes, long trials, double alpha);
double binomial_upper_bound(long successes, long trials, double alpha);

// (eps, delta)-DP forces TPR <= e^eps FPR + delta for every test; so eps >= log((TPR - delta) / FPR).
// Returns 0 when TPR <= delta (nothing shown), +inf when FPR = 0 < TPR - delta.
double epsilon_from_rates(double tpr, double fpr, double delta);
// mu of the Gaussian-DP trade-off curve through (FPR, FNR): Phi^-1(1 - FPR) - Phi^-1(FNR), floored at 0.
double gdp_mu(double fpr, double fnr);
// The mu-GDP privacy profile delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Dong, Roth,
// Su 2019, Cor. 2.13), and its inverse in eps (0 when delta(0) <= delta; boost toms748).
double gdp_delta(double mu, double epsilon);
double gdp_epsilon(double mu, double delta);

// A threshold test chosen on the first half of the runs and evaluated on the second; "positive" is
// the dataset the event favours.
struct HeldOutTest {
  bool upper_tail = true;  // the event is {score >= threshold}, else {score <= threshold}
  double threshold = 0;
  long positives_in = 0, positives = 0;  // held-out runs on the positive dataset inside the event
  long negatives_in = 0, negatives = 0;  // the same on the negative dataset
  double tpr_lower = 0, fpr_upper = 1;   // Clopper–Pearson bounds at the Bonferroni level
};

// One direction: "D' vs D" (positive D') or "D vs D'" (positive D).
struct DirectionBound {
  std::string direction;
  // Tests are ranked on the first half by the same formula with Wilson-score bounds (cheap), then
  // evaluated on the second half with exact Clopper–Pearson bounds.
  HeldOutTest clopper_pearson;  // the test that maximises the epsilon bound on the first half
  double epsilon = 0;           // log((tpr_lower - delta) / fpr_upper), >= 0
  HeldOutTest gaussian_dp;      // the test that maximises the Gaussian-DP fit on the first half
  double mu_lower = 0;          // gdp_mu(fpr_upper, 1 - tpr_lower)
  double mu_point = 0;          // gdp_mu of the held-out point estimates
  double gdp_epsilon = 0;       // gdp_epsilon(mu_lower, delta)
};

struct PrivacyLossEstimate {
  double confidence = 0;  // of epsilon_lower; separately, of gdp_mu_lower (see estimators.cpp)
  double delta = 0;
  DirectionBound forward;        // D' vs D
  DirectionBound backward;       // D vs D'
  double epsilon_lower = 0;      // Clopper–Pearson: max over both directions
  double gdp_mu_lower = 0;       // Gaussian-DP fit: max over both directions
  double gdp_epsilon_lower = 0;  // gdp_epsilon(gdp_mu_lower, delta)
  // What perfect separation of the held-out runs would give: the largest eps (and mu) these
  // numbers of runs can show at this confidence.
  double max_detectable_epsilon = 0;
  double max_detectable_mu = 0;
};

// Scores of runs on D and on D' (at least kMinScoresPerDataset each, all finite). The first half of
// each selects the test, the second half evaluates it. Throws dpb::InvalidArgument on too few or non-finite
// scores, delta outside [0, 1) or confidence outside (0, 1).
PrivacyLossEstimate estimate_privacy_loss(std::span<const double> scores_d,
                                          std::span<const double> scores_d_prime, double delta,
                                          double confidence);

}  // namespace dpb::verify
