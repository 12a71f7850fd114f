#include "algorithms/baselines/psd_samples.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "core/sample_matrices.hpp"
#include "tests/algorithms/baselines/baseline_test_support.hpp"

namespace tb = dpb::test::baselines;
using dpb::alg::baselines::PsdSamples;

TEST_CASE("PsdSamples reads Input::X first, else vector or shifted sample matrices", "[baselines]") {
  const Eigen::MatrixXd X = tb::hand_vectors();
  dpb::alg::Input in;
  in.X = &X;
  const PsdSamples direct = PsdSamples::from(in, "own");
  CHECK(&direct.vectors() == &X);  // no copy
  CHECK(direct.n() == 5);
  CHECK(direct.d() == 4);
  CHECK_FALSE(direct.shifted());

  const dpb::core::VectorSamples vectors(2 * X);
  const PsdSamples from_vectors = PsdSamples::from(tb::samples_input(vectors), "own");
  CHECK(&from_vectors.vectors() == &vectors.vectors());
  CHECK_FALSE(from_vectors.shifted());
  in.samples = &vectors;  // Input::X wins over samples
  CHECK(&PsdSamples::from(in, "own").vectors() == &X);

  const auto shifted = tb::hand_shifted();
  const PsdSamples from_shifted = PsdSamples::from(tb::samples_input(shifted), "own");
  CHECK(from_shifted.shifted());
  CHECK(from_shifted.vectors() == X);
}

TEST_CASE("PsdSamples rejects missing, too small or non-finite data, naming the owner", "[baselines]") {
  CHECK_THROWS_WITH(PsdSamples::from(dpb::alg::Input{}, "own"),
                    Catch::StartsWith("own: needs vector data (Input::X") && Catch::Contains("ShiftedVectorSamples"));
  const auto rejects = [](const Eigen::MatrixXd& X, const std::string& says) {
    CHECK_THROWS_MATCHES(PsdSamples::from(tb::input(X, 1, 1, 0.1), "own"), dpb::InvalidArgument, Catch::Message(says));
  };
  rejects(Eigen::MatrixXd::Ones(1, 3), "own: needs n >= 1 samples of dimension d >= 2, got n = 3, d = 1");
  rejects(Eigen::MatrixXd(2, 0), "own: needs n >= 1 samples of dimension d >= 2, got n = 0, d = 2");
  Eigen::MatrixXd bad = tb::hand_vectors();
  bad(2, 3) = std::numeric_limits<double>::infinity();
  rejects(bad, "own: the data contain NaN or infinite values; all entries must be finite");
  bad(2, 3) = std::nan("");
  rejects(bad, "own: the data contain NaN or infinite values; all entries must be finite");
  // The smallest accepted shape: one sample in d = 2.
  const Eigen::MatrixXd smallest = Eigen::MatrixXd::Ones(2, 1);
  CHECK(PsdSamples::from(tb::input(smallest, 1, 1, 0.1), "own").n() == 1);
}

TEST_CASE("PsdSamples traces and sum of sqrt-diagonals by hand", "[baselines]") {
  const Eigen::MatrixXd X = tb::hand_vectors();
  const PsdSamples plain = PsdSamples::from(tb::input(X, 1, 1, 0.1), "own");
  const auto shifted_samples = tb::hand_shifted();
  const PsdSamples shifted = PsdSamples::from(tb::samples_input(shifted_samples), "own");
  const double traces[] = {2, 9, 4, 0, 3}, l1[] = {2, 3, 4, 0, 3};
  const double shifted_traces[] = {5, 12, 7, 3, 6}, shifted_l1[] = {3, std::sqrt(12.0), 5, std::sqrt(3.0), 4};
  for (Eigen::Index i = 0; i < 5; ++i) {
    INFO("sample " << i);
    CHECK(plain.trace(i) == traces[i]);
    CHECK(plain.sum_sqrt_diagonal(i) == l1[i]);
    CHECK(shifted.trace(i) == shifted_traces[i]);
    CHECK(shifted.sum_sqrt_diagonal(i) == Approx(shifted_l1[i]).epsilon(1e-15));
  }
}

TEST_CASE("PsdSamples weighted sum equals the explicitly formed sum of c_i A_i", "[baselines]") {
  const Eigen::MatrixXd X = tb::hand_vectors();
  const auto shifted_samples = tb::hand_shifted();
  const Eigen::MatrixXd C = shifted_samples.shift();
  Eigen::VectorXd c(5);
  c << 0.5, 2, 0, 1, 0.25;  // a zero weight and weights above 1
  Eigen::MatrixXd plain_sum = Eigen::MatrixXd::Zero(4, 4), shifted_sum = Eigen::MatrixXd::Zero(4, 4);
  for (Eigen::Index i = 0; i < 5; ++i) {
    plain_sum += c[i] * X.col(i) * X.col(i).transpose();
    shifted_sum += c[i] * (C + X.col(i) * X.col(i).transpose());
  }
  const Eigen::MatrixXd S = PsdSamples::from(tb::input(X, 1, 1, 0.1), "own").weighted_sum(c);
  CHECK((S - plain_sum).cwiseAbs().maxCoeff() < 1e-13);
  CHECK(S == S.transpose());
  const Eigen::MatrixXd T = PsdSamples::from(tb::samples_input(shifted_samples), "own").weighted_sum(c);
  CHECK((T - shifted_sum).cwiseAbs().maxCoeff() < 1e-13);
  CHECK(T == T.transpose());
  // (sum c_i) C is the only difference: 3.75 * 3 at (0, 0).
  CHECK(T(0, 0) - S(0, 0) == Approx(11.25).epsilon(1e-14));
}
