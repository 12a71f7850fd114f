#pragma once
// The steps `dpbounds pca` runs on a user's records before the PCA algorithm: public clamping, private
// centering, the private spread of every column (standardising, and the hint when scales differ), and
// the radius every later step clips to. Each private step spends its share of the budget and records
// its release in the ledger; what the user knows in public (a norm bound, a value range) makes the steps
// it covers free.
#include <Eigen/Dense>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/privacy.hpp"
#include "core/rng.hpp"

namespace dpb::app {

// Shares of the total (eps, delta) for the side statistics; the PCA algorithm gets the rest. A kind of
// step that runs several times (norm scales, centering rounds) divides its share evenly.
struct BudgetShares {
  double norm_scale = 0.15;         // private radii, unless a public bound gives them
  double centering = 0.1;           // only when centering is asked for
  double column_spreads = 0.05;     // per-column second moments
  double explained_variance = 0.1;
};

// What the user knows about the records without looking at them.
struct PublicBounds {
  std::optional<double> norm_bound;                // every ||x_i|| <= R (records beyond are clipped to R)
  std::optional<std::pair<double, double>> range;  // every value in [lo, hi] (values outside are clamped)
};

struct PreprocessingRequest {
  bool center = false;
  bool standardize = false;
  PublicBounds bounds;
  BudgetShares shares;
};

// How many private steps of each kind run (each kind's share is split evenly among its steps).
struct StepCounts {
  int norm_scales = 0;
  int centering_rounds = 0;
  int spread_rounds = 1;
};
StepCounts preprocessing_steps(const PreprocessingRequest& request);

// The fraction of the total budget the side statistics spend (preprocessing and explained variance).
double side_share(const PreprocessingRequest& request);

// Throws dpb::InvalidArgument for shares that leave nothing to the algorithm and for bounds that are
// not finite, positive (norm) or ordered (range).
void validate(const PreprocessingRequest& request);

struct Preprocessed {
  Eigen::MatrixXd data;          // d x n: clamped, centered and scaled records
  Eigen::VectorXd center;        // subtracted from every record (zero when not centering)
  Eigen::VectorXd scale;         // every column divided by it (ones when not standardising)
  Eigen::VectorXd spreads;       // private second moment of each centered column, before scaling
  double spreads_noise_sd = 0;   // of `spreads`
  double radius = 0;             // later steps clip records of `data` to this radius
  bool radius_is_public = false; // from the public bounds alone (no norm scale was spent on it)
};

// The stream of one step's noise: a function of the seed and the step's name only.
core::Rng pca_step_rng(std::uint64_t seed, std::string_view step);

// X is d x n (records are columns). Throws dpb::InvalidArgument when a private norm scale finds no
// radius (too few records for its budget; the message gives the minimum).
Preprocessed preprocess(const Eigen::MatrixXd& X, const PreprocessingRequest& request, const alg::Privacy& total,
                        std::uint64_t seed, alg::Ledger& ledger);

}  // namespace dpb::app
