#pragma once
// Neighbouring datasets for the privacy audit (DESIGN.md §5 "Privacy audit"): D and D' of equal size
// that differ in the record at one fixed index (replace-one neighbours, the notion of every claim).
#include <Eigen/Dense>
#include <string>
#include <utility>

#include "core/models/model.hpp"
#include "core/rng.hpp"
#include "verify/audit/audit_spec.hpp"
#include "verify/audit/scores.hpp"

namespace dpb::verify {

struct NeighbourPair {
  Eigen::MatrixXd X;        // D, d x n (records are columns)
  Eigen::MatrixXd X_prime;  // D', equal to X except in column `index`
  Eigen::Index index = 0;
  Eigen::VectorXd direction;                  // unit canary direction u the scores project on
  double canary_norm = 0;                     // norm of the planted record(s); 0 for `fresh`
  NeighbourKind kind = NeighbourKind::fresh;  // never `canary`: that resolves to a concrete kind
  std::string score;                          // the worst case's score, when `canary` named one
  std::string description;                    // one line: what differs, and the spec section it follows
  // opposed_at_start: the public start the runs use (Input::start; d x d, e_a first, e_b last), else empty.
  Eigen::MatrixXd start;
};

// What the scores read of a pair: the canary direction, the replaced record in D and in D', and its index.
ScoreContext score_context(const NeighbourPair& pair);

// The construction `canary` stands for, per algorithm, from the specs' auditor sections
// (liu2022 §3.7, cai2024 §3.6, kumar2025 §4.6, dugler2026 §3), with the section as `reason`.
struct WorstCase {
  NeighbourKind kind;
  std::string reason;  // empty: a construction tried by the search, not anyone's worst case
  // Flat data: the model's records scaled by kFlatScale before the canaries are planted, so the records
  // D and D' share weigh almost nothing along them and the pair attains the sensitivity (a Gaussian
  // release of a clipped sum, whose clip radius comes from the model, not the data).
  bool flat = false;
  std::string score;  // the score the construction is made for; empty: chosen from the output
  // The claim does not depend on k and the output is eigenpairs of one noisy matrix: k = d releases all of it,
  // so an audit that leaves k unset asks for every eigenpair.
  bool every_eigenpair = false;
};
inline constexpr double kFlatScale = 1e-3;
// opposed_at_start: the records' component along the start e_a, as a share of their norm c along e_b. The
// first step's terms (x . e_a) x = lean c x then exceed any clip radius below lean c^2 (the Oja family's
// radius at the CLI's canary_scale 30 is ~0.13 c^2), and clipped they differ by 2 beta / sqrt(1 + lean^2),
// 0.97 of the 2 beta the sensitivity allows. A smaller lean comes nearer 2 beta but needs larger canaries.
inline constexpr double kStartLean = 0.25;
WorstCase worst_case_construction(const std::string& algorithm_id);
// opposed_at_start pays only where the step that reads the audited record queries the public start. An
// algorithm that shuffles its records reads it at a random step, whose query no fixed pair can be built for:
// there two records on orthogonal axes are the best (sqrt(2) beta), and this is that worst case.
WorstCase random_query_worst_case(const WorstCase& at_start);

// The fixed canary direction: the eigenvector of the model's smallest eigenvalue (orthogonal to the
// signal, so a canary there moves the output where the data alone would not).
Eigen::VectorXd canary_direction(const core::ModelInfo& info);

// The coordinate with the largest |u_a| (ties to the lower index).
Eigen::Index heaviest_axis(const Eigen::VectorXd& u);
// The coordinates a != b with the largest |u_a| >= |u_b| (ties to the lower index); needs d >= 2.
std::pair<Eigen::Index, Eigen::Index> heaviest_axes(const Eigen::VectorXd& u);

// log_ladder: record i of D is c rho^{-rung(i)} u with rho = kLadderRatio, rung 0 (norm c) at `index`,
// rung 1 at its pair partner index ^ 1, and the other pairs (2j, 2j + 1) below them in index order
// (rungs 2r, 2r + 1 for the r-th). Pair differences, hence the top eigenvalues liu2022 Alg. 4 and
// dugler2026 PRIVRANGE bin, fall by rho^4 (16 log bins) per pair; D' replaces the record at `index` by
// a copy of its partner, so that pair's difference is 0. At most kMaxLadderRecords records keep the
// smallest rung's fourth power (PRIVRANGE's A_i = x_i x_i^T) far from underflow.
inline constexpr double kLadderRatio = 2;
inline constexpr Eigen::Index kMaxLadderRecords = 64;
// Throws dpb::InvalidArgument unless n <= kMaxLadderRecords and the partner index ^ 1 lies in 0..n-1.
void check_ladder(Eigen::Index n, Eigen::Index index);

// Draws D (n records of `model`) from `rng` and builds D' by `kind` (`canary` is resolved with
// `algorithm_id`); `fresh` draws the replacement from `rng` too. The canary norm is
// canary_scale * sqrt(tr Sigma). Throws dpb::InvalidArgument unless 0 <= index < n and canary_scale > 0.
NeighbourPair make_neighbours(NeighbourKind kind, const std::string& algorithm_id, const core::Model& model,
                              Eigen::Index n, Eigen::Index index, double canary_scale, core::Rng& rng);
// The same for a given worst case (what `canary` resolves to through worst_case_construction(algorithm_id)).
NeighbourPair make_neighbours(const WorstCase& worst, const std::string& algorithm_id, const core::Model& model,
                              Eigen::Index n, Eigen::Index index, double canary_scale, core::Rng& rng);

}  // namespace dpb::verify
