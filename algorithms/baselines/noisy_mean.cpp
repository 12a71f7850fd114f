#include "algorithms/baselines/noisy_mean.hpp"

#include <fmt/format.h>

#include "algorithms/baselines/analyze_gauss.hpp"
#include "algorithms/mechanisms/clipping.hpp"
#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/mechanisms/laplace.hpp"
#include "core/errors.hpp"

namespace dpb::alg::baselines {
namespace {

constexpr const char* kGaussianId = "baseline.gaussian_mean";
constexpr const char* kLaplaceId = "baseline.laplace_mean";
constexpr double kDefaultClipRadius = 1;

enum class ClipNorm { l2, l1 };

const Eigen::MatrixXd& records(const Input& in, const char* owner) {
  if (!in.X || in.X->cols() < 1)
    throw InvalidArgument(fmt::format("{}: needs the records as vectors (at least one)", owner));
  return *in.X;
}

// (1/n) sum_i clip_C(x_i) over the columns of Input::X, each clipped in `norm`. With n public, a replaced
// record moves it by at most 2C/n in that norm, an added or removed one by C/n (sum_sensitivity_factor).
Eigen::VectorXd clipped_mean(const Input& in, double radius, ClipNorm norm, const char* owner) {
  const Eigen::MatrixXd& X = records(in, owner);
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(X.rows()), record(X.rows());
  for (Eigen::Index i = 0; i < X.cols(); ++i) {
    record = X.col(i);
    norm == ClipNorm::l2 ? l2_clip(record, radius) : l1_clip(record, radius);
    sum += record;
  }
  return sum / static_cast<double>(X.cols());
}

double mean_sensitivity(const Input& in, double radius, const char* owner) {
  return sum_sensitivity_factor(in.privacy.neighbours) * radius / static_cast<double>(records(in, owner).cols());
}

struct GaussianMeanParams {
  double clip_radius = kDefaultClipRadius;
  GaussianCalibration calibration = kAnalyzeGaussCalibration;
};
struct LaplaceMeanParams {
  double clip_radius = kDefaultClipRadius;
};

template <class P>
FieldTable<P> clip_radius_field(double P::*member, const char* norm) {
  FieldTable<P> t;
  t.real("clip_radius", member, 1e-12, std::nullopt,
         fmt::format("C: every record is scaled to {} norm <= C, a radius fixed before seeing the data", norm),
         "Dwork & Roth 2014 §3.3");
  return t;
}

FieldTable<GaussianMeanParams> gaussian_mean_fields() {
  FieldTable<GaussianMeanParams> t = clip_radius_field(&GaussianMeanParams::clip_radius, "l2");
  return analyze_gauss_calibration_field(t, &GaussianMeanParams::calibration,
                                         "Dwork & Roth 2014 Thm A.1; Balle & Wang 2018");
}

class GaussianMean final : public Estimator {
 public:
  GaussianMean(double radius, GaussianCalibration calibration) : radius_(radius), calibration_(calibration) {}

  Estimate run(const Input& in, core::Rng& rng) const override {
    Estimate out;
    Eigen::VectorXd mean = clipped_mean(in, radius_, ClipNorm::l2, kGaussianId);
    const double sensitivity = mean_sensitivity(in, radius_, kGaussianId);
    gaussian_mechanism(mean, gaussian_entry("mean of l2-clipped records + Gaussian noise", sensitivity,
                                            noise_sd(in), in.privacy),
                       out.ledger, rng);
    out.mean = std::move(mean);
    out.claim = claim(in);
    return out;
  }

  PrivacyClaim claim(const Input& in) const override {
    std::vector<std::string> conditions = {
        fmt::format("every record clipped to l2 norm <= C = {:g}, n public", radius_)};
    if (calibration_ == GaussianCalibration::classical)
      conditions.push_back("eps < 1 (classical Gaussian calibration)");
    return gaussian_release_claim(in.privacy, noise_sd(in), mean_sensitivity(in, radius_, kGaussianId),
                                  std::move(conditions));
  }

 private:
  double noise_sd(const Input& in) const {
    require_gaussian_privacy(in.privacy, kGaussianId);
    return gaussian_sigma(calibration_, mean_sensitivity(in, radius_, kGaussianId), in.privacy.epsilon,
                          in.privacy.delta);
  }

  double radius_;
  GaussianCalibration calibration_;
};

class LaplaceMean final : public Estimator {
 public:
  explicit LaplaceMean(double radius) : radius_(radius) {}

  Estimate run(const Input& in, core::Rng& rng) const override {
    Estimate out;
    Eigen::VectorXd mean = clipped_mean(in, radius_, ClipNorm::l1, kLaplaceId);
    const double sensitivity = mean_sensitivity(in, radius_, kLaplaceId);
    laplace_mechanism(mean, laplace_entry("mean of l1-clipped records + Laplace noise", sensitivity,
                                          laplace_scale(sensitivity, in.privacy.epsilon), in.privacy),
                      out.ledger, rng);
    out.mean = std::move(mean);
    out.claim = claim(in);
    return out;
  }

  // Pure DP whatever delta was asked: Lap(Delta / eps) on an l1 sensitivity Delta is eps-DP (the ratio of
  // the two densities is at most exp(||shift||_1 / b)).
  PrivacyClaim claim(const Input& in) const override {
    validate(in.privacy);
    const double sensitivity = mean_sensitivity(in, radius_, kLaplaceId);
    return {sensitivity / laplace_scale(sensitivity, in.privacy.epsilon), 0.0, in.privacy.neighbours,
            ClaimScope::worst_case, {fmt::format("every record clipped to l1 norm <= C = {:g}, n public", radius_)}};
  }

 private:
  double radius_;
};

}  // namespace

AlgorithmEntry gaussian_mean_entry() {
  AlgorithmEntry e;
  e.id = kGaussianId;
  e.summary = "Gaussian mean: mean of l2-clipped records plus N(0, sd^2 I), sd for sensitivity 2C/n";
  e.source = "Dwork & Roth 2014, App. A; Balle & Wang 2018, Thm 8 (analytic calibration)";
  e.needs = DataNeed::vectors;
  e.privacy = "(eps, delta)-DP worst case for the chosen neighbours (clip radius fixed in advance, n public)";
  e.calibration_target = true;
  return with_parameters(std::move(e), gaussian_mean_fields(), [](const GaussianMeanParams& q) {
    return std::make_unique<GaussianMean>(q.clip_radius, q.calibration);
  });
}

AlgorithmEntry laplace_mean_entry() {
  AlgorithmEntry e;
  e.id = kLaplaceId;
  e.summary = "Laplace mean: mean of l1-clipped records plus iid Lap(b), b = (2C/n) / eps";
  e.source = "Dwork & Roth 2014, Thm 3.6";
  e.needs = DataNeed::vectors;
  e.privacy = "eps-DP (pure) worst case for the chosen neighbours (clip radius fixed in advance, n public)";
  e.calibration_target = true;
  return with_parameters(std::move(e), clip_radius_field(&LaplaceMeanParams::clip_radius, "l1"),
                         [](const LaplaceMeanParams& q) { return std::make_unique<LaplaceMean>(q.clip_radius); });
}

}  // namespace dpb::alg::baselines
