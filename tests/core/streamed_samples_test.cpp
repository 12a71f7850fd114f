#include "core/streamed_samples.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/models/model.hpp"

using namespace dpb::core;

namespace {

std::unique_ptr<Model> model(const std::string& id, const ParamMap& params) {
  Rng rng(7, 0);
  return make_model(id, params, rng);
}

// Sample i as batch j's own draw gives it: the definition StreamedSamples must follow.
Eigen::MatrixXd reference_product(const Model& m, const Rng& parent, Eigen::Index n, Eigen::Index batch, Eigen::Index i,
                                  const Eigen::MatrixXd& Q) {
  const Eigen::Index j = i / batch;
  Rng rng = parent.child(fmt::format("batch {}", j));
  const auto drawn = m.sample_matrices(std::min(batch, n - j * batch), rng);
  Eigen::MatrixXd out(Q.rows(), Q.cols());
  drawn->apply(i - j * batch, Q, out);
  return out;
}

}  // namespace

TEST_CASE("streamed samples are each batch's own draw, read in pieces across batch boundaries",
          "[sample_matrices][streamed]") {
  for (const char* id : {"spiked_gaussian", "dugler_shifted"}) {
    const auto m = std::string(id) == "spiked_gaussian"
                       ? model(id, ParamMap{{"d", 4.0}, {"r", 1.0}, {"lambda", 2.0}})
                       : model(id, ParamMap{{"d", 4.0}, {"k", 2.0}});
    const Rng parent(3, 11);
    const Eigen::Index n = 10, batch = 4, d = 4, k = 2;  // batches of 4, 4 and 2 samples
    Eigen::MatrixXd Q = Eigen::MatrixXd::Random(d, k).householderQr().householderQ() * Eigen::MatrixXd::Identity(d, k);
    StreamedSamples one_by_one(*m, n, batch, parent);
    for (Eigen::Index i = 0; i < n; ++i) {
      Eigen::MatrixXd out(d, k);
      one_by_one.apply(i, Q, out);
      CHECK(out == reference_product(*m, parent, n, batch, i, Q));
    }
    CHECK(one_by_one.batches_drawn() == 3);  // each batch drawn once by an in-order reader

    // Ranges 0..2, 3..8 (across two boundaries), 9: bit for bit the per-sample products.
    StreamedSamples ranged(*m, n, batch, parent), tangent(*m, n, batch, parent);
    Eigen::MatrixXd all(d, n * k), projected(d, n * k), scratch;
    for (const auto& [first, count] : {std::pair<Eigen::Index, Eigen::Index>{0, 3}, {3, 6}, {9, 1}}) {
      ranged.apply_range(first, count, Q, all.middleCols(first * k, count * k));
      tangent.apply_range_tangent(first, count, Q, projected.middleCols(first * k, count * k), scratch);
    }
    const Eigen::MatrixXd Pi = Eigen::MatrixXd::Identity(d, d) - Q * Q.transpose();
    for (Eigen::Index i = 0; i < n; ++i) {
      const Eigen::MatrixXd expected = reference_product(*m, parent, n, batch, i, Q);
      CHECK(all.middleCols(i * k, k) == expected);
      CHECK((projected.middleCols(i * k, k) - Pi * expected).norm() < 1e-12);
    }
    CHECK(ranged.batches_drawn() == 3);
  }
}

TEST_CASE("streamed samples draw a batch again when a reader goes back, up to a few passes",
          "[sample_matrices][streamed]") {
  const auto m = model("spiked_gaussian", ParamMap{{"d", 3.0}, {"r", 1.0}, {"lambda", 2.0}});
  StreamedSamples s(*m, 10, 4, Rng(1, 2));  // 3 batches
  const Eigen::MatrixXd Q = Eigen::MatrixXd::Identity(3, 1);
  Eigen::MatrixXd first(3, 1), again(3, 1);
  s.apply(5, Q, first);
  s.apply(4, Q, again);  // within the current batch: nothing drawn
  CHECK(s.batches_drawn() == 1);
  s.apply(0, Q, again);
  s.apply(5, Q, again);  // batch 1 drawn again: the same numbers
  CHECK(again == first);
  CHECK(s.batches_drawn() == 3);
  // A shuffled reader: alternating batches draws one per sample, refused after 4 passes' worth (12 draws).
  const auto shuffled = [&] {
    for (int t = 0; t < 20; ++t) s.apply(t % 2 == 0 ? 0 : 9, Q, again);
  };
  CHECK_THROWS_WITH(shuffled(), Catch::Contains("out of order") && Catch::Contains("without stream_batch"));
  CHECK(s.batches_drawn() == 12);
  CHECK_THROWS_AS(s.apply(10, Q, again), dpb::InvalidArgument);
  CHECK_THROWS_WITH(StreamedSamples(*m, 10, 0, Rng(1, 2)), Catch::Contains("stream_batch must be >= 1"));
}
