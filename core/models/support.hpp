#pragma once
// Helpers shared by the model families: validated parameter reading and the population summary of
// covariances of the form Sigma = U diag(spikes) U^T + floor I.
#include <Eigen/Dense>
#include <string>

#include "core/models/model.hpp"
#include "core/params.hpp"

namespace dpb::core::model_support {

// The ambient dimension: `d`, or `p` (cai2024's name for it); both given must agree. Needs d >= 2
// (a top eigenvalue and a second one, so the gap and kappa are defined).
Eigen::Index read_dimension(const ParamMap& params, long long fallback, const std::string& owner);
// An integer parameter in [lo, hi].
long long read_int_in(const ParamMap& params, const std::string& name, long long fallback, long long lo,
                      long long hi, const std::string& owner);
// A finite real parameter > 0.
double read_positive(const ParamMap& params, const std::string& name, double fallback,
                     const std::string& owner);
// A non-empty list of finite reals > 0, non-increasing, of length `expected_length` (when >= 0).
Eigen::VectorXd read_descending_positive_list(const ParamMap& params, const std::string& name,
                                              Eigen::Index expected_length, const std::string& owner);
// A list of spike eigenvalues `name` (read_descending_positive_list) with at most d entries; when the
// count parameter `count_name` (e.g. r or k) is given too, the list must have that many entries.
Eigen::VectorXd read_spike_list(const ParamMap& params, const std::string& name, const std::string& count_name,
                                Eigen::Index d, const std::string& owner);

// ModelInfo for Sigma = U diag(spikes) U^T + floor I, with U (d x r) orthonormal, spikes > 0
// non-increasing and floor >= 0: eigenvalues spikes + floor then floor (d - r times), target U,
// params d, p, r, lambda1, lambda2, and kappa = lambda1 / (lambda1 - lambda2) (liu2022 §1.2 A.1; only when
// lambda1 > lambda2) in ModelInfo::kappa, which publish_closed_forms copies into params.
ModelInfo low_rank_plus_identity_info(const std::string& id, const Eigen::MatrixXd& U,
                                      const Eigen::VectorXd& spikes, double floor);

// Copies the optional closed forms (V, gamma2, kappa, effective_rank) that are set into `params`, with the
// Assumption B constants they imply (dugler2026): v0 = lambda1 sqrt(V), v1 = 0, g0 = lambda1 gamma, g1 = 0.
void publish_closed_forms(ModelInfo& info);

// Throws dpb::InvalidArgument unless n >= 0.
void require_sample_count(Eigen::Index n, const std::string& owner);

}  // namespace dpb::core::model_support
