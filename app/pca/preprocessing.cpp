#include "app/pca/preprocessing.hpp"

#include <cmath>
#include <stdexcept>
#include <fmt/core.h>

#include "algorithms/mechanisms/clipping.hpp"
#include "algorithms/preprocessing/private_statistics.hpp"
#include "core/errors.hpp"

namespace dpb::app {
namespace {

constexpr std::string_view kStreams = "dpbounds.pca";  // stream ids: one per step, keyed by the seed

// The name of the i-th (0-based) step of a kind: the first keeps the plain name, so a run without the
// later steps draws the same numbers as before they existed.
std::string step_name(std::string_view kind, int i) {
  return i == 0 ? std::string(kind) : fmt::format("{}_{}", kind, i + 1);
}

alg::Budget share_of(const alg::Privacy& total, double share, int steps = 1) {
  return {total.epsilon * share / steps, total.delta * share / steps};
}

std::string number_of_records(double count) {
  return count < 1e15 ? fmt::format("{:.0f}", count) : fmt::format("about {:.3g} (more than any data set holds)", count);
}

// Runs the private steps in order on `out.data`, keeping count of the streams each kind has used.
class Steps {
 public:
  Steps(const PreprocessingRequest& request, const alg::Privacy& total, std::uint64_t seed, alg::Ledger& ledger,
        Preprocessed& out)
      : counts_(preprocessing_steps(request)), total_(total), shares_(request.shares), seed_(seed), ledger_(ledger),
        out_(out) {}

  // A radius that holds most record norms, from a private norm scale.
  double private_radius() {
    require_planned(norm_scales_, counts_.norm_scales, "norm scale");
    const alg::Budget budget = share_of(total_, shares_.norm_scale, counts_.norm_scales);
    auto rng = pca_step_rng(seed_, step_name("norm_scale", norm_scales_++));
    const auto scale = alg::private_norm_scale(out_.data, budget, ledger_, rng);
    if (!scale.radius)
      throw InvalidArgument(fmt::format(
          "too few records for a private norm scale at this budget: n = {}, while the stability histogram needs at "
          "least {} records in one norm octave-quarter (eps = {:.3g}, delta = {:.3g} for this step); give more "
          "records, a larger budget, or a public bound (--norm-bound or --bounds)",
          out_.data.cols(), number_of_records(alg::min_records_for_norm_scale(budget)), budget.epsilon,
          budget.delta));
    return *scale.radius;
  }

  // Subtracts `around` plus the private mean of (records - around) clipped to `radius`.
  void center(const Eigen::VectorXd& around, double radius) {
    require_planned(centering_rounds_, counts_.centering_rounds, "centering round");
    const alg::Budget budget = share_of(total_, shares_.centering, counts_.centering_rounds);
    auto rng = pca_step_rng(seed_, step_name("centering", centering_rounds_++));
    const Eigen::MatrixXd shifted = out_.data.colwise() - around;
    const Eigen::VectorXd shift = around + alg::private_clipped_mean(shifted, radius, budget, ledger_, rng).mean;
    out_.data.colwise() -= shift;
    // The records are (x - center) / scale: a shift of the scaled records is scale times it in x's units.
    out_.center += out_.scale.cwiseProduct(shift);
  }

  alg::ColumnSecondMoments column_spreads(double radius) {
    require_planned(spread_rounds_, counts_.spread_rounds, "column spreads round");
    auto rng = pca_step_rng(seed_, step_name("column_spreads", spread_rounds_++));
    return alg::private_column_second_moments(
        out_.data, radius, share_of(total_, shares_.column_spreads, counts_.spread_rounds), ledger_, rng);
  }

 private:
  // A step beyond preprocessing_steps() would spend budget no share was set aside for.
  static void require_planned(int done, int planned, const char* kind) {
    if (done >= planned)
      throw std::logic_error(fmt::format("pca preprocessing: {} {} exceeds the {} planned", kind, done + 1, planned));
  }

  StepCounts counts_;
  alg::Privacy total_;
  BudgetShares shares_;
  std::uint64_t seed_;
  alg::Ledger& ledger_;
  Preprocessed& out_;
  int norm_scales_ = 0, centering_rounds_ = 0, spread_rounds_ = 0;
};

// ||v|| for v_j = max(|lo_j|, |hi_j|): the largest norm of a record in the box [lo, hi].
double box_radius(const Eigen::VectorXd& lo, const Eigen::VectorXd& hi) {
  return lo.cwiseAbs().cwiseMax(hi.cwiseAbs()).norm();
}

}  // namespace

StepCounts preprocessing_steps(const PreprocessingRequest& r) {
  StepCounts counts;
  // Standardising runs twice: a wide column sets the clipping radius, and with it the noise of every
  // narrow column's mean and spread, until it has been scaled down. The second round centers again
  // (unless a public range bounds the records) and needs a radius before and after.
  const bool recenter = r.standardize && r.center && !r.bounds.range;
  counts.spread_rounds = r.standardize ? 2 : 1;
  const int standardizing_radii = r.standardize ? 2 + (recenter ? 1 : 0) : 0;
  if (r.bounds.range) {
    counts.centering_rounds = r.center ? 1 : 0;
  } else if (r.bounds.norm_bound) {
    counts.centering_rounds = (r.center ? 1 : 0) + (recenter ? 1 : 0);
    counts.norm_scales = standardizing_radii;  // a norm bound says nothing about scaled records
  } else {
    // Centering runs twice: the first mean, clipped at a radius as large as the data's offset from 0,
    // is as noisy as that offset; the second, around the first, is clipped at the data's own spread.
    counts.centering_rounds = (r.center ? 2 : 0) + (recenter ? 1 : 0);
    counts.norm_scales = (r.center ? 3 : 1) + standardizing_radii;
  }
  return counts;
}

double side_share(const PreprocessingRequest& r) {
  const StepCounts counts = preprocessing_steps(r);
  const BudgetShares& s = r.shares;
  return (counts.norm_scales > 0 ? s.norm_scale : 0.0) + (counts.centering_rounds > 0 ? s.centering : 0.0) +
         s.column_spreads + s.explained_variance;
}

void validate(const PreprocessingRequest& r) {
  const BudgetShares& s = r.shares;
  if (!(s.norm_scale > 0 && s.centering > 0 && s.column_spreads > 0 && s.explained_variance > 0 && side_share(r) < 1))
    throw InvalidArgument(fmt::format("budget shares must be > 0 and leave a positive share for the algorithm; got "
                                      "norm scale {}, centering {}, column spreads {}, explained variance {}",
                                      s.norm_scale, s.centering, s.column_spreads, s.explained_variance));
  if (r.bounds.range && r.bounds.norm_bound)
    throw InvalidArgument("give one public bound: --bounds LO,HI (every value) or --norm-bound R (every record), not both");
  if (r.bounds.norm_bound && !(std::isfinite(*r.bounds.norm_bound) && *r.bounds.norm_bound > 0))
    throw InvalidArgument(fmt::format("--norm-bound must be a finite number > 0, got {}", *r.bounds.norm_bound));
  if (const auto& range = r.bounds.range;
      range && !(std::isfinite(range->first) && std::isfinite(range->second) && range->first < range->second))
    throw InvalidArgument(
        fmt::format("--bounds LO,HI needs finite LO < HI, got {},{}", range->first, range->second));
}

core::Rng pca_step_rng(std::uint64_t seed, std::string_view step) {
  return core::Rng(seed, core::stream_id(kStreams, 0, step, 0, "noise"));
}

Preprocessed preprocess(const Eigen::MatrixXd& X, const PreprocessingRequest& request, const alg::Privacy& total,
                        std::uint64_t seed, alg::Ledger& ledger) {
  validate(request);
  const Eigen::Index d = X.rows();
  Preprocessed out;
  out.data = X;
  out.center = Eigen::VectorXd::Zero(d);
  out.scale = Eigen::VectorXd::Ones(d);
  Steps steps(request, total, seed, ledger, out);

  // Bounds on the current records' coordinates, while a public range gives them.
  std::optional<std::pair<Eigen::VectorXd, Eigen::VectorXd>> box;
  if (const auto& range = request.bounds.range) {
    out.data = out.data.cwiseMax(range->first).cwiseMin(range->second);  // a public, per-record map
    box.emplace(Eigen::VectorXd::Constant(d, range->first), Eigen::VectorXd::Constant(d, range->second));
    if (request.center) {
      // Around the box's middle every record lies within half the box's diagonal: nothing is clipped.
      const Eigen::VectorXd middle = (box->first + box->second) / 2;
      steps.center(middle, (box->second - box->first).norm() / 2);
      box->first -= out.center;
      box->second -= out.center;
    }
    out.radius = box_radius(box->first, box->second);
    out.radius_is_public = true;
  } else if (const auto& norm_bound = request.bounds.norm_bound) {
    Eigen::VectorXd x(d);
    for (Eigen::Index i = 0; i < out.data.cols(); ++i) {  // a public, per-record map
      x = out.data.col(i);
      alg::l2_clip(x, *norm_bound);
      out.data.col(i) = x;
    }
    out.radius = *norm_bound;
    if (request.center) {
      steps.center(Eigen::VectorXd::Zero(d), *norm_bound);
      out.radius = *norm_bound + out.center.norm();  // ||x - c|| <= ||x|| + ||c||, c released
    }
    out.radius_is_public = true;
  } else {
    out.radius = steps.private_radius();
    if (request.center) {
      steps.center(Eigen::VectorXd::Zero(d), out.radius);
      out.radius = steps.private_radius();
      steps.center(Eigen::VectorXd::Zero(d), out.radius);
      out.radius = steps.private_radius();
    }
  }

  const StepCounts counts = preprocessing_steps(request);
  for (int round = 0; round < counts.spread_rounds; ++round) {
    if (round > 0 && request.center && !box) {  // the radius is the scaled records' (end of the last round)
      steps.center(Eigen::VectorXd::Zero(d), out.radius);
      out.radius = steps.private_radius();
    }
    const auto spreads = steps.column_spreads(out.radius);
    if (round == 0) {
      out.spreads = spreads.values;
      out.spreads_noise_sd = spreads.noise_sd;
    }
    if (!request.standardize) break;
    // A column whose spread stands clear of the noise is divided by its standard deviation. The rest wait
    // for the next round, whose radius the wide columns no longer set; in the last round they are divided
    // by the spread the noise allows instead of by a number that may be ~0.
    const bool last = round + 1 == counts.spread_rounds;
    const double noise_floor = 3 * spreads.noise_sd;
    const Eigen::VectorXd factor =
        (spreads.values.array() > noise_floor)
            .select(spreads.values.array().sqrt(), last ? std::sqrt(noise_floor) : 1.0)
            .matrix();
    out.data = out.data.array().colwise() / factor.array();
    out.scale = out.scale.cwiseProduct(factor);
    if (box) {
      box->first = box->first.cwiseQuotient(factor);
      box->second = box->second.cwiseQuotient(factor);
      out.radius = box_radius(box->first, box->second);
    } else {
      out.radius = steps.private_radius();
      out.radius_is_public = false;
    }
  }
  return out;
}

}  // namespace dpb::app
