#pragma once
// Norm clipping and coordinatewise truncation, in place and without allocation.
#include <Eigen/Dense>

namespace dpb::alg {

// clip_R(Y) = Y if ||Y||_2 <= R, else R Y / ||Y||_2 (spec: dugler2026 §1 notation; liu2022's
// clipping of Private Oja). Returns whether y was scaled. R > 0 (R = inf never clips); throws
// dpb::InvalidArgument on NaN or infinite entries, leaving y unchanged.
bool l2_clip(Eigen::Ref<Eigen::VectorXd> y, double radius);
// The same for a caller that has measured norm = y.norm() already (Private Oja reports it): it is not
// measured again. Same result, same refusals.
bool l2_clip(Eigen::Ref<Eigen::VectorXd> y, double radius, double norm);

// The same with the Frobenius norm of a matrix (spec: dugler2026 §1, clip_R on R^{d x k}).
bool frobenius_clip(Eigen::Ref<Eigen::MatrixXd> y, double radius);
// The same for a caller that has measured norm = y.norm() already (a batch's norms side by side).
bool frobenius_clip(Eigen::Ref<Eigen::MatrixXd> y, double radius, double norm);

// The same with the l1 norm sum_i |y_i| (the sensitivity norm of the Laplace mechanism).
bool l1_clip(Eigen::Ref<Eigen::VectorXd> y, double radius);

// Trunc_R(x)_j = sign(x_j) min(|x_j|, R) on every entry (spec: kumar2025 §1.2). Returns the number
// of entries with |x_j| > R. R > 0; throws dpb::InvalidArgument on NaN entries, leaving x unchanged.
Eigen::Index truncate_coordinates(Eigen::Ref<Eigen::MatrixXd> x, double radius);

}  // namespace dpb::alg
