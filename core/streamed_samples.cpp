#include "core/streamed_samples.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

namespace dpb::core {

StreamedSamples::StreamedSamples(const Model& model, Eigen::Index n, Eigen::Index batch, Rng rng)
    : model_(model), n_(n), d_(model.info().d()), batch_(batch), rng_(rng) {
  if (n < 1) throw InvalidArgument(fmt::format("streamed samples: n must be >= 1, got {}", n));
  if (batch < 1) throw InvalidArgument(fmt::format("stream_batch must be >= 1, got {}", batch));
}

const SampleMatrices& StreamedSamples::batch_of(Eigen::Index i) const {
  if (i < 0 || i >= n_) throw InvalidArgument(fmt::format("sample index {} out of range [0, {})", i, n_));
  const Eigen::Index j = i / batch_;
  if (j == current_index_) return *current_;
  const Eigen::Index batches = (n_ + batch_ - 1) / batch_;
  if (drawn_ >= kMaxPasses * batches)
    throw InvalidArgument(fmt::format(
        "streamed samples: {} batches of {} drawn for {} samples (more than {} passes' worth): this algorithm reads "
        "its data out of order (a shuffled pass) or over and over; run it without stream_batch",
        drawn_, batch_, n_, kMaxPasses));
  const Eigen::Index size = std::min(batch_, n_ - j * batch_);
  Rng rng = rng_.child(fmt::format("batch {}", j));
  current_index_ = -1;  // until the new batch is drawn: a draw that throws leaves no stale batch behind
  current_.reset();     // the old batch's memory goes before the new one is drawn: O(d B) at every moment
  current_ = model_.sample_matrices(size, rng);
  current_index_ = j;
  ++drawn_;
  return *current_;
}

void StreamedSamples::apply(Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                            Eigen::Ref<Eigen::MatrixXd> out) const {
  batch_of(i).apply(i % batch_, Q, out);
}

template <class Piece>
void StreamedSamples::for_each_piece(Eigen::Index first, Eigen::Index count, Eigen::Index k, Piece piece) const {
  if (first < 0 || count < 0 || first + count > n_)
    throw InvalidArgument(fmt::format("apply_range: samples [{}, {}) outside [0, {})", first, first + count, n_));
  for (Eigen::Index done = 0; done < count;) {
    const Eigen::Index i = first + done;
    const Eigen::Index length = std::min(count - done, batch_ - i % batch_);
    piece(batch_of(i), i % batch_, length, done * k);
    done += length;
  }
}

void StreamedSamples::apply_range(Eigen::Index first, Eigen::Index count, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                                  Eigen::Ref<Eigen::MatrixXd> out) const {
  const Eigen::Index k = Q.cols();
  if (out.cols() != count * k)
    throw InvalidArgument(fmt::format("apply_range: out must have {} x {} columns, got {}", count, k, out.cols()));
  for_each_piece(first, count, k, [&](const SampleMatrices& b, Eigen::Index at, Eigen::Index length, Eigen::Index col) {
    b.apply_range(at, length, Q, out.middleCols(col, length * k));
  });
}

void StreamedSamples::apply_range_tangent(Eigen::Index first, Eigen::Index count,
                                          const Eigen::Ref<const Eigen::MatrixXd>& Q, Eigen::Ref<Eigen::MatrixXd> out,
                                          Eigen::MatrixXd& scratch) const {
  const Eigen::Index k = Q.cols();
  if (out.cols() != count * k)
    throw InvalidArgument(fmt::format("apply_range_tangent: out must have {} x {} columns, got {}", count, k, out.cols()));
  for_each_piece(first, count, k, [&](const SampleMatrices& b, Eigen::Index at, Eigen::Index length, Eigen::Index col) {
    b.apply_range_tangent(at, length, Q, out.middleCols(col, length * k), scratch);
  });
}

}  // namespace dpb::core
