#pragma once
// What every kumar2025 estimator adapter shares (spec: kumar2025 §2, §3, §8.1): the family's parameter
// tables (algorithms/param_fields.hpp), the public quantities an adapter takes from the model oracle when a
// parameter is 0 (simulation only), and how a run's blocks and a claim's ledger are reported. Each
// algorithm's adapter is its own file beside the algorithm (<algorithm>_entry.cpp).
#include <string>

#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/param_fields.hpp"
#include "algorithms/registry.hpp"
#include "algorithms/sparse/sparse_common.hpp"
#include "algorithms/sparse/stable_block_average.hpp"

namespace dpb::alg::kumar2025 {

inline constexpr const char* kSource = "Kumar, Pandey, Sarkar, Tian 2025, ";

// The sub-Gaussian proxy sigma^2: 0 = the oracle's subgaussian_sigma2.
template <class P>
FieldTable<P>& sigma2_field(FieldTable<P>& table, double P::*member, const std::string& spec_ref) {
  return table.real("sigma2", member, 0.0, std::nullopt,
                    "public sub-Gaussian proxy sigma^2 (= ||Sigma||_op for Gaussian data); 0 = the oracle's "
                    "subgaussian_sigma2 (simulation only)",
                    spec_ref);
}
template <class P>
FieldTable<P>& beta_field(FieldTable<P>& table, double P::*member, const std::string& spec_ref) {
  return table.real("beta", member, 1e-12, 1 - 1e-12, "failure probability beta", spec_ref);
}

// ties (documented: index order), constants and scaled_noise_factor: the parameters every estimator but
// Alg. 4 ends with.
const FieldTable<SparseConstants>& global_fields();
// m, tau, c_tau, the stable-block constants and the Gaussian release's constants (spec §8.1 item 4).
const FieldTable<BlockAlgorithmParams>& block_fields();
// gamma, sigma2 and beta of a block algorithm, beta documented by `beta_ref`.
FieldTable<BlockAlgorithmParams> block_public_fields(const std::string& beta_ref);
// global_fields() where a block algorithm keeps them (its stable-block constants).
const FieldTable<BlockAlgorithmParams>& block_global_fields();

// The block algorithm's public quantities with the oracle as fallback: gamma and sigma2 when 0.
void resolve_block_public(BlockAlgorithmParams& q, const Input& in, const std::string& owner);

// What a block-based run reports (spec §8.1 item 4: |C|, L, Z, xi, f_i, p_i, BOTTOM reason).
void report_blocks(const StableBlockResult& b, const std::string& prefix, Diagnostics& diag);

// Issue 17: a claim is what the noise proves. `plan` is the ledger a run records at most; when the accountant
// finds it within the requested budget the claim stays that budget, otherwise the claim is the eps the
// accountant computes at the requested delta (or not_private when nothing bounds it), saying why.
void back_with_ledger(PrivacyClaim& claim, const Ledger& plan, const std::string& why);

// The data a claim's noise depends on (its size); throws dpb::InvalidArgument naming `owner` without it.
const Eigen::MatrixXd& claim_data(const Input& in, const std::string& owner);

// "constants=<mode>", the diagnostics note every run carries.
std::string mode_note(const SparseConstants& c);

// " constants=scaled_not_private is NOT private (epsilon +inf).", the end of every privacy text but Alg. 4's.
std::string scaled_warning();

// The estimator E built from its parameters as `fields` reads them, and every kumar2025 entry reads
// Input::k as the sparsity of Models 1-2 (spec §1.2).
template <class E, class P>
AlgorithmEntry entry(AlgorithmEntry e, FieldTable<P> fields) {
  e.k_is_sparsity = true;
  return with_parameters(std::move(e), std::move(fields), construct<E>());
}

// One adapter per algorithm (algorithms/sparse/*_entry.cpp).
AlgorithmEntry private_covariance_entry();
AlgorithmEntry private_sparse_pca_entry();
AlgorithmEntry private_norm_entry();
AlgorithmEntry sparse_pca_pipeline_entry();
AlgorithmEntry exponential_support_selection_entry();

}  // namespace dpb::alg::kumar2025
