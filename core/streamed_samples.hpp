#pragma once
// Sample matrices drawn batch by batch while an algorithm reads them (issue 20: n of 1e7-1e8 in memory
// O(d B)). Batch j holds samples jB .. jB + B - 1 (the last may be shorter) and is drawn by the model's
// `sample_matrices` from its own stream, `rng.child("batch j")`: a sample's value depends only on (seed,
// stream, j), never on which thread or rank reads it or when. Only the current batch is held (d x B numbers, or
// d x m B for models whose samples have m factors): a pass in order draws each batch once, and going back draws
// a batch again, the same numbers. A reader that keeps going back (a shuffled pass) would draw a batch per
// sample: past kMaxPasses passes' worth of draws it is refused with a message that says so.
#include <memory>

#include "core/models/model.hpp"
#include "core/rng.hpp"
#include "core/sample_matrices.hpp"

namespace dpb::core {

class StreamedSamples final : public SampleMatrices {
 public:
  // `model` must outlive this object. Throws dpb::InvalidArgument unless n >= 1 and batch >= 1.
  StreamedSamples(const Model& model, Eigen::Index n, Eigen::Index batch, Rng rng);
  Eigen::Index n() const override { return n_; }
  Eigen::Index d() const override { return d_; }
  Eigen::Index batch_size() const { return batch_; }
  static constexpr int kMaxPasses = 4;
  // How many batches have been drawn so far (each once per pass).
  Eigen::Index batches_drawn() const { return drawn_; }
  void apply(Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q,
             Eigen::Ref<Eigen::MatrixXd> out) const override;
  // Split at batch boundaries; each piece is the batch's own apply_range (bit for bit what `apply` gives).
  void apply_range(Eigen::Index first, Eigen::Index count, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                   Eigen::Ref<Eigen::MatrixXd> out) const override;
  void apply_range_tangent(Eigen::Index first, Eigen::Index count, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                           Eigen::Ref<Eigen::MatrixXd> out, Eigen::MatrixXd& scratch) const override;

 private:
  // The batch holding sample i, drawn now unless it is the current one.
  const SampleMatrices& batch_of(Eigen::Index i) const;
  template <class Piece>
  void for_each_piece(Eigen::Index first, Eigen::Index count, Eigen::Index k, Piece piece) const;

  const Model& model_;
  Eigen::Index n_, d_, batch_;
  Rng rng_;
  mutable std::unique_ptr<SampleMatrices> current_;
  mutable Eigen::Index current_index_ = -1;
  mutable Eigen::Index drawn_ = 0;
};

}  // namespace dpb::core
