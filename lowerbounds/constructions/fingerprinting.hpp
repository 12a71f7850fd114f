#pragma once
// Fingerprinting scores of kumar2025's approximate-DP lower bounds, for any mechanism given as a callback
// (spec: kumar2025 §5.1 Eq. 10–12 and Lemmas 5–7 over Model 3; §5.4 App. E Eqs. 51–54 and Lemmas 35–36
// over Model 4; §3.5 Eq. 53). A verifier estimates by Monte Carlo over (Sigma, X, I, x'_I, coins):
//
//   Model 3:  Z_I  = < M(X)     - Sigma, P_G(x_I x_I^T) - Sigma >
//             Z'_I = < M(X_~I)  - Sigma, P_G(x_I x_I^T) - Sigma >       (X_~I: x_I replaced by a fresh x'_I)
//   Model 4:  Z_I  = < v~ v~^T - P, x_I x_I^T - Sigma >,  v~ = M(X) / |M(X)|, P = v_1(Sigma) v_1(Sigma)^T
//             Z'_I = the same with v~ = M(X_~I)
//
// and checks the inequalities the proofs chain: Eq. 53 for an (eps, delta)-DP M, Lemma 6 (Model 3, any M),
// Lemma 36 (deterministic), and reports the ratios of Lemmas 5 / 35 (E Z_I / (rho eps), bounded for DP M)
// whose constants the paper leaves unspecified (A28).
#include <Eigen/Dense>
#include <functional>

#include "core/rng.hpp"
#include "lowerbounds/constructions/kumar2025_model3.hpp"
#include "lowerbounds/constructions/kumar2025_model4.hpp"

namespace dpb::lower {

// A mechanism: data (d x n, samples as columns) and its coins -> a covariance estimate / a direction.
using CovarianceMechanism = std::function<Eigen::MatrixXd(const Eigen::MatrixXd& X, core::Rng& rng)>;
using DirectionMechanism = std::function<Eigen::VectorXd(const Eigen::MatrixXd& X, core::Rng& rng)>;

// Eq. 10 for one sample x: < estimate - Sigma, P_G(x x^T) - Sigma > (P_G(Sigma) = Sigma under Model 3).
double model3_score(const Model3& model, const Eigen::MatrixXd& estimate, const Eigen::MatrixXd& sigma,
                    const Eigen::VectorXd& x);
// App. E for one sample x: < v v^T - P, x x^T - Sigma > with v = direction / |direction|.
double model4_score(const Eigen::VectorXd& direction, const Eigen::MatrixXd& top_projector,
                    const Eigen::MatrixXd& sigma, const Eigen::VectorXd& x);

// Monte Carlo means over trials of the quantities Eq. 53 and Lemmas 5 / 35 read.
struct ScoreMoments {
  int trials = 0;
  double z = 0;              // E Z_I
  double z_prime = 0;        // E Z'_I (0 in expectation: M(X_~I) is independent of x_I given Sigma)
  double abs_z_prime = 0;    // E |Z'_I|
  double z2 = 0;             // E Z_I^2
  double z_prime2 = 0;       // E Z'_I^2
  double difference_se = 0;  // standard error of the mean of Z_I - Z'_I
  double rho = 0;            // (E ||estimate - target||_F^4)^{1/4} (target: Sigma, or P for Model 4)
};

struct Model3Fingerprinting {
  ScoreMoments scores;
  // Lemma 6's terms: E<M - Sigma, P_G(SigmaHat) - Sigma> (= E Z_I by Eq. 12), E||P_G(SigmaHat) - Sigma||_F^2,
  // A = E||M - P_G(SigmaHat)||_F^2, B = E||E[Sigma|X] - P_G(SigmaHat)||_F^2.
  double correlation = 0;
  double projection_risk = 0;
  double mechanism_gap = 0;
  double posterior_gap = 0;
};

struct Model4Fingerprinting {
  ScoreMoments scores;
  double correlation = 0;  // E<P~ - P, SigmaHat - Sigma> (Eq. 52: = E Z_I)
};

// `trials` independent trials with n samples each; the mechanism runs twice per trial (on X and X_~I).
// Throws dpb::InvalidArgument if n < 1 or trials < 2.
Model3Fingerprinting model3_fingerprinting(const Model3& model, Eigen::Index n,
                                           const CovarianceMechanism& mechanism, int trials, core::Rng& rng);
Model4Fingerprinting model4_fingerprinting(const Model4& model, Eigen::Index n,
                                           const DirectionMechanism& mechanism, int trials, core::Rng& rng);

// One inequality of a proof, evaluated: it claims lhs <= rhs.
struct Inequality {
  double lhs = 0;
  double rhs = 0;
  bool holds() const { return lhs <= rhs; }
};

// Eq. 53 (Nar24 Prop. 5) for an (eps, delta)-DP mechanism:
//   |E[Z_I - Z'_I]| <= 2 eps E|Z'_I| + 2 sqrt(delta) sqrt(E Z_I^2 + E Z'_I^2).
Inequality eq53(const ScoreMoments& scores, double eps, double delta);
// Lemma 6, written as lhs <= rhs: E||P_G(SigmaHat) - Sigma||_F^2 - sqrt(A B) <= E<M - Sigma, P_G(SigmaHat) -
// Sigma>.
Inequality lemma6(const Model3Fingerprinting& report);
// Lemma 36 (deterministic): (lambda_1 - lambda_2) sin^2(v_1(SigmaHat), v_1(Sigma)) <= <P_hat - P, SigmaHat -
// Sigma>.
Inequality lemma36(const Eigen::MatrixXd& sigma, const Eigen::MatrixXd& sigma_hat);
// Lemmas 5 / 35: E Z_I / (rho eps), which stays bounded for (eps, delta)-DP mechanisms with delta <
// eps^2/d^2.
double score_ratio(const ScoreMoments& scores, double eps);

}  // namespace dpb::lower
