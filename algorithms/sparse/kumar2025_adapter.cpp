#include "algorithms/sparse/kumar2025_adapter.hpp"

#include <fmt/format.h>
#include <cmath>

#include "algorithms/mechanisms/accountant.hpp"

namespace dpb::alg::kumar2025 {

const FieldTable<SparseConstants>& global_fields() {
  static const FieldTable<SparseConstants> fields = [] {
    FieldTable<SparseConstants> t;
    t.fixed_choice("ties", "index_order",
                   "tie-breaking in top_k / top_{k^2}: the lower index wins; ties are counted in diagnostics",
                   "kumar2025 A25, §8.1 item 1")
        .choice("constants", &SparseConstants::scaled, {{kPrivateConstants, false}, {kScaledConstants, true}},
                "private = the paper's constants (DP). scaled_not_private = every noise scale x "
                "scaled_noise_factor and the privacy preconditions skipped: NOT differentially private, for "
                "utility-trend experiments only (the claim's epsilon is +inf)",
                "kumar2025 §2.6, §8.1 item 4")
        .real("scaled_noise_factor", &SparseConstants::noise_factor, 1e-12, 1e12,
              "noise multiplier used only when constants = scaled_not_private", "kumar2025 §2.6");
    return t;
  }();
  return fields;
}

const FieldTable<BlockAlgorithmParams>& block_fields() {
  static const FieldTable<BlockAlgorithmParams> fields = [] {
    using B = BlockAlgorithmParams;
    using S = StableBlockConstants;
    FieldTable<S> constants;
    constants
        .real("friend_radius", &S::friend_radius, 1e-12, 1e12,
              "friends are blocks within friend_radius * tau (line 8)", "kumar2025 §2.2 line 8, §2.6")
        .real("final_threshold", &S::final_threshold, 1e-12, 1e12,
              "T_{final_threshold tau} of the output (>= 4 friend_radius + 1 in private mode)", "kumar2025 §2.6")
        .real("test_cutoff", &S::test_cutoff, 1e-12, 1.0, "the 0.8 m of both tests (>= 0.8 in private mode)",
              "kumar2025 §2.2 lines 4, 13; Lemma 10")
        .real("ramp_low", &S::ramp_low, 0.0, 1.0, "p_i = 0 for f_i <= ramp_low m (>= 1/2 in private mode)",
              "kumar2025 §2.2 line 9")
        .real("ramp_high", &S::ramp_high, 0.0, 1.0, "p_i = 1 for f_i >= ramp_high m", "kumar2025 §2.2 line 9")
        .real("count_noise_scale", &S::count_noise_scale, 1e-12, 1e12, "BoundedLap(count_noise_scale/eps, .) of line 3",
              "kumar2025 Lemma 8")
        .real("mass_noise_scale", &S::mass_noise_scale, 1e-12, 1e12,
              "BoundedLap(mass_noise_scale/eps, .) of line 12", "kumar2025 Lemma 8, Eq. 27")
        .real("tail_constant", &S::tail_constant, 1.0, 1e12, "the 12 in log(12/delta) of both tests",
              "kumar2025 Lemma 8");
    FieldTable<B> t;
    t.integer("m", &B::m, 0,
              "number of blocks (> 30 in private mode); 0 = max{31, (420/eps) log(12/delta), 62 log(8/beta)} (x "
              "scaled_noise_factor in the first term when scaled)",
              "kumar2025 A7, Lemma 10")
        .real("tau", &B::tau, 0.0, std::nullopt, "threshold tau directly; 0 = Eq. 26 c_tau sigma^2 sqrt(log d / b)",
              "kumar2025 Eq. 26")
        .real("c_tau", &B::c_tau, 0.0, std::nullopt, "Eq. 26 constant; 0 = 8 + 4 sqrt(log 800 / log d)",
              "kumar2025 A8, §4.5")
        .nest(&B::block, constants)
        .real("gauss_multiplier", &B::gauss_multiplier, 1e-12, 1e12,
              "the 6 in sigma_priv = (6 Delta/eps) sqrt(log(6/delta))", "kumar2025 A6")
        .real("gauss_log_constant", &B::gauss_log_constant, 1.0, 1e12, "the 6 inside log(6/delta) of sigma_priv",
              "kumar2025 A6");
    return t;
  }();
  return fields;
}

FieldTable<BlockAlgorithmParams> block_public_fields(const std::string& beta_ref) {
  using B = BlockAlgorithmParams;
  FieldTable<B> t;
  t.real("gamma", &B::gamma, 0.0, 1.0,
         "public relative gap gamma = 1 - lambda2/lambda1; 0 = the oracle's (simulation only)", "kumar2025 Model 2");
  sigma2_field(t, &B::sigma2, "kumar2025 Eq. 26");
  return beta_field(t, &B::beta, beta_ref);
}

const FieldTable<BlockAlgorithmParams>& block_global_fields() {
  static const FieldTable<BlockAlgorithmParams> fields = [] {
    FieldTable<StableBlockConstants> in_block;
    in_block.nest(&StableBlockConstants::constants, global_fields());
    FieldTable<BlockAlgorithmParams> t;
    return t.nest(&BlockAlgorithmParams::block, in_block);
  }();
  return fields;
}

void resolve_block_public(BlockAlgorithmParams& q, const Input& in, const std::string& owner) {
  q.gamma = gap_or_oracle(q.gamma, in.oracle, owner);
  q.sigma2 = public_or_oracle(q.sigma2, in.oracle, "subgaussian_sigma2", "sigma2", owner);
}

void report_blocks(const StableBlockResult& b, const std::string& prefix, Diagnostics& diag) {
  diag.counters[prefix + "m"] = static_cast<double>(b.m);
  diag.counters[prefix + "block_size"] = static_cast<double>(b.block_size);
  diag.counters[prefix + "tau"] = b.tau;
  diag.counters[prefix + "certified_blocks"] = static_cast<double>(b.certified_count);
  diag.counters[prefix + "nonpositive_blocks"] = static_cast<double>(b.nonpositive_blocks);
  diag.counters[prefix + "L"] = b.L;
  if (b.xi) diag.counters[prefix + "xi"] = *b.xi;
  if (b.f.size()) {
    diag.counters[prefix + "Z"] = b.Z;
    diag.counters[prefix + "f_min"] = b.f.minCoeff();
    diag.counters[prefix + "f_max"] = b.f.maxCoeff();
    diag.counters[prefix + "blocks_with_weight"] = static_cast<double>((b.p.array() > 0).count());
  }
  if (!b.bottom.empty()) diag.notes.push_back(prefix + "BOTTOM at " + b.bottom);
}

void back_with_ledger(PrivacyClaim& claim, const Ledger& plan, const std::string& why) {
  const Spend spent = account(plan, claim.delta, claim.neighbours);
  if (within_claim(spent, claim)) return;
  if (!std::isfinite(spent.epsilon)) {
    claim.scope = ClaimScope::not_private;
    claim.conditions.push_back(fmt::format("{}: no composition bounds the ledger at delta = {:g}", why, claim.delta));
    return;
  }
  claim.conditions.push_back(fmt::format("{}: the noise proves eps = {:.4g} at delta = {:g} ({}), not the requested {:g}",
                                         why, spent.epsilon, claim.delta, spent.rule, claim.epsilon));
  claim.epsilon = spent.epsilon;
}

const Eigen::MatrixXd& claim_data(const Input& in, const std::string& owner) {
  if (!in.X)
    throw InvalidArgument(fmt::format(
        "{}: the claim is computed from the noise, which depends on the data's size (Input.X, d x n)", owner));
  return *in.X;
}

std::string mode_note(const SparseConstants& c) { return "constants=" + c.name(); }

std::string scaled_warning() { return fmt::format(" constants={} is NOT private (epsilon +inf).", kScaledConstants); }

}  // namespace dpb::alg::kumar2025
