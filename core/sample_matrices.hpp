#pragma once
// The data seen by the Oja family (DESIGN.md §3): n random d x d matrices A_1..A_n, accessed only
// through products A_i Q. Implementations never form A_i = x x^T and `apply` allocates nothing.
#include <Eigen/Dense>

namespace dpb::core {

class SampleMatrices {
 public:
  virtual ~SampleMatrices() = default;
  virtual Eigen::Index n() const = 0;
  virtual Eigen::Index d() const = 0;
  // out = A_i Q for 0 <= i < n(); Q and out are d x k (sized by the caller) and must not overlap.
  virtual void apply(Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                     Eigen::Ref<Eigen::MatrixXd> out) const = 0;
  // out.middleCols(l k, k) = A_{first+l} Q for l = 0..count-1 (out is d x count k, Q is d x k), bit for
  // bit what `apply` gives sample by sample. The default calls `apply`; a generator whose A_i share a
  // term computes it once per call, so that each sample costs O(dk).
  virtual void apply_range(Eigen::Index first, Eigen::Index count, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                           Eigen::Ref<Eigen::MatrixXd> out) const;
  // The same projected onto the tangent space at Q: out.middleCols(l k, k) = Pi A_{first+l} Q with
  // Pi = I - Q Q^T (Q orthonormal). `scratch` grows when too small and is reused, so repeated calls do
  // not allocate. The default projects apply_range's products with two GEMMs, O(d k^2) per sample;
  // generators of A_i = C + x_i x_i^T override it with Pi C Q once and (Pi x_i)(x_i^T Q) in O(dk).
  virtual void apply_range_tangent(Eigen::Index first, Eigen::Index count, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                                   Eigen::Ref<Eigen::MatrixXd> out, Eigen::MatrixXd& scratch) const;
  // A hint that sample i will be applied soon. A shuffled pass (liu2022 Alg. 1 line 1) reads the samples
  // in random order, each a miss to memory per cache line; fetching the next one during this step hides
  // it. No effect on any result; the default does nothing.
  virtual void prefetch(Eigen::Index /*i*/) const {}
};

// apply's contract for generator s: 0 <= i < s.n(), Q and out d x k with equal k, not overlapping. Throws
// dpb::InvalidArgument naming what is wrong (a release build compiles Eigen's own checks out).
void check_apply_shapes(const SampleMatrices& s, Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                        const Eigen::Ref<Eigen::MatrixXd>& out);

// A_i = x_i x_i^T for the columns x_i of X (d x n); A_i Q = x_i (x_i^T Q) in O(dk).
class VectorSamples final : public SampleMatrices {
 public:
  explicit VectorSamples(Eigen::MatrixXd X);
  Eigen::Index n() const override { return X_.cols(); }
  Eigen::Index d() const override { return X_.rows(); }
  void apply(Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q,
             Eigen::Ref<Eigen::MatrixXd> out) const override;
  void apply_range(Eigen::Index first, Eigen::Index count, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                   Eigen::Ref<Eigen::MatrixXd> out) const override;
  void apply_range_tangent(Eigen::Index first, Eigen::Index count, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                           Eigen::Ref<Eigen::MatrixXd> out, Eigen::MatrixXd& scratch) const override;
  const Eigen::MatrixXd& vectors() const { return X_; }
  void prefetch(Eigen::Index i) const override;

 private:
  Eigen::MatrixXd X_;
};

// A_i = C + x_i x_i^T with a fixed PSD shift C = W diag(w) W^T given in factored form (W is d x r,
// w >= 0, both enforced):
// the dugler2026 k > 1 generator (spec §7 F.1). A_i Q = W diag(w) (W^T Q) + x_i (x_i^T Q) in O(d k r).
class ShiftedVectorSamples final : public SampleMatrices {
 public:
  ShiftedVectorSamples(Eigen::MatrixXd W, Eigen::VectorXd w, Eigen::MatrixXd X);
  Eigen::Index n() const override { return X_.cols(); }
  Eigen::Index d() const override { return X_.rows(); }
  void apply(Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q,
             Eigen::Ref<Eigen::MatrixXd> out) const override;
  // C Q once per call, then x_i (x_i^T Q) per sample: O(dk) per sample (DESIGN.md §7).
  void apply_range(Eigen::Index first, Eigen::Index count, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                   Eigen::Ref<Eigen::MatrixXd> out) const override;
  void apply_range_tangent(Eigen::Index first, Eigen::Index count, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                           Eigen::Ref<Eigen::MatrixXd> out, Eigen::MatrixXd& scratch) const override;
  const Eigen::MatrixXd& vectors() const { return X_; }
  // The shift C = W diag(w) W^T, formed (for tests and reporting, not for hot paths).
  Eigen::MatrixXd shift() const;

 private:
  Eigen::MatrixXd W_;
  Eigen::VectorXd w_;
  Eigen::MatrixXd X_;
};

// A_i = X_i X_i^T for d x m factors X_i, the i-th block of m columns of X (d x n m): A_i Q = sum over the
// block's columns x of x (x^T Q), O(d k m) and nothing formed or allocated. dugler2026 Corollary 2's data
// (X_i = V_k Lambda^{1/2} + sigma Z_i, m = k).
class FactorSamples final : public SampleMatrices {
 public:
  // Throws dpb::InvalidArgument unless m >= 1 divides X's column count and X is finite.
  FactorSamples(Eigen::MatrixXd X, Eigen::Index m);
  Eigen::Index n() const override { return X_.cols() / m_; }
  Eigen::Index d() const override { return X_.rows(); }
  void apply(Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q,
             Eigen::Ref<Eigen::MatrixXd> out) const override;
  void apply_range(Eigen::Index first, Eigen::Index count, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                   Eigen::Ref<Eigen::MatrixXd> out) const override;
  const Eigen::MatrixXd& factors() const { return X_; }

 private:
  // The d x k block at out (columns `stride` apart) = A_i Q, unchecked.
  void product_into(Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q, double* out,
                    Eigen::Index stride) const;

  Eigen::MatrixXd X_;
  Eigen::Index m_;
};

}  // namespace dpb::core
