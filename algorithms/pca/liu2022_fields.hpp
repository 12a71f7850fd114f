#pragma once
// The parameter tables of liu2022's algorithms (algorithms/param_fields.hpp): each parameter declared once,
// the registry's schema and the reader generated from it, defaults from the parameter structs. The pieces
// other tables reuse (Alg. 4's and Alg. 5's options inside DP-PCA, Private Oja's calibration names inside
// baseline.k_dp_ojas, the whole Alg. 4 and Alg. 5 tables for their mutants) are declared here.
#include <string>
#include <utility>
#include <vector>

#include "algorithms/param_fields.hpp"
#include "algorithms/pca/dp_pca.hpp"
#include "algorithms/pca/minibatch_gradients.hpp"
#include "algorithms/pca/minibatch_private_oja.hpp"
#include "algorithms/pca/oja.hpp"
#include "algorithms/pca/private_mean.hpp"
#include "algorithms/pca/private_oja.hpp"
#include "algorithms/pca/private_top_eigenvalue.hpp"

namespace dpb::alg::liu2022 {

FieldTable<OjaParams> oja_fields();
FieldTable<PrivateOjaParams> private_oja_fields();
FieldTable<MinibatchPrivateOjaParams> minibatch_private_oja_fields();
FieldTable<MinibatchGradientsParams> minibatch_gradients_fields();
FieldTable<PrivateTopEigenvalueParams> private_top_eigenvalue_fields();
FieldTable<PrivateMeanParams> private_mean_fields();
FieldTable<DpPcaParams> dp_pca_fields();

// Private Oja's noise_calibration names, in its schema's order.
std::vector<std::pair<std::string, PrivateOjaParams::NoiseCalibration>> noise_calibration_names();
// DP-PCA's bottom_policy names.
std::vector<std::pair<std::string, DpPcaParams::BottomPolicy>> bottom_policy_names();

// Private Oja's `step`, one name setting both its schedule and its practical step; `names` are the steps
// the owner offers (of inverse_time, theory, constant, constant_half_over_n).
enum class OjaStep { inverse_time, theory, constant, constant_half_over_n };
FieldTable<PrivateOjaParams>& oja_step_field(FieldTable<PrivateOjaParams>& table,
                                             std::vector<std::pair<std::string, OjaStep>> names, std::string doc,
                                             std::string spec_ref);

}  // namespace dpb::alg::liu2022
