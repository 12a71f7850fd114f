#include "verify/audit/neighbours.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/mechanisms/histogram.hpp"
#include "core/errors.hpp"

using namespace dpb::verify;

namespace {

std::unique_ptr<dpb::core::Model> spiked_model(int d) {
  dpb::core::Rng rng(11, 0);
  return dpb::core::make_model("spiked_gaussian",
                               {{"d", double(d)}, {"r", 1.0}, {"lambda", 5.0}, {"sigma2", 1.0}}, rng);
}

// Indices of the columns in which X and Y differ.
std::vector<Eigen::Index> differing_columns(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y) {
  std::vector<Eigen::Index> cols;
  for (Eigen::Index j = 0; j < X.cols(); ++j)
    if (X.col(j) != Y.col(j)) cols.push_back(j);
  return cols;
}

}  // namespace

TEST_CASE("every construction changes exactly the one record at the index", "[audit]") {
  const auto model = spiked_model(6);
  const Eigen::Index n = 30, index = 7;
  for (auto kind : {NeighbourKind::fresh, NeighbourKind::huge_norm, NeighbourKind::sign_flip,
                    NeighbourKind::axis_flip, NeighbourKind::corner, NeighbourKind::orthogonal_axes,
                    NeighbourKind::log_ladder, NeighbourKind::opposed_at_start, NeighbourKind::canary}) {
    dpb::core::Rng rng(3, 1);
    const NeighbourPair pair = make_neighbours(kind, "baseline.dp_gauss_1", *model, n, index, 10.0, rng);
    INFO(to_string(kind));
    CHECK(pair.X.rows() == 6);
    CHECK(pair.X.cols() == n);
    CHECK(pair.X_prime.cols() == n);
    CHECK(differing_columns(pair.X, pair.X_prime) == std::vector<Eigen::Index>{index});
    CHECK(pair.kind != NeighbourKind::canary);
    CHECK(pair.direction.norm() == Approx(1.0));
  }
}

TEST_CASE("canaries have the promised norm and direction", "[audit]") {
  const auto model = spiked_model(4);
  const double scale = 8.0, norm = scale * std::sqrt(model->info().Sigma.trace());
  const Eigen::VectorXd u = canary_direction(model->info());
  // u is the smallest eigenvalue's eigenvector: orthogonal to the spike.
  CHECK(std::abs(u.dot(model->info().target.col(0))) < 1e-10);

  dpb::core::Rng rng(5, 0);
  const auto huge = make_neighbours(NeighbourKind::huge_norm, "x", *model, 10, 2, scale, rng);
  CHECK(huge.canary_norm == Approx(norm));
  CHECK((huge.X_prime.col(2) - norm * u).norm() < 1e-9 * norm);
  CHECK((huge.direction - u).norm() < 1e-12);

  const auto flip = make_neighbours(NeighbourKind::sign_flip, "x", *model, 10, 2, scale, rng);
  CHECK((flip.X.col(2) - norm * u).norm() < 1e-9 * norm);
  CHECK((flip.X_prime.col(2) + norm * u).norm() < 1e-9 * norm);

  // Opposite records on the one axis where u weighs most: all of an l1 change on one coordinate.
  const auto axis = make_neighbours(NeighbourKind::axis_flip, "x", *model, 10, 2, scale, rng);
  const Eigen::VectorXd e_a = Eigen::VectorXd::Unit(4, heaviest_axis(u));
  CHECK((axis.X.col(2) - norm * e_a).norm() < 1e-12 * norm);
  CHECK((axis.X_prime.col(2) + norm * e_a).norm() < 1e-12 * norm);
  CHECK(axis.direction == e_a);

  const auto corner = make_neighbours(NeighbourKind::corner, "x", *model, 10, 2, scale, rng);
  for (Eigen::Index i = 0; i < 4; ++i) {
    // every coordinate at +-c/sqrt(d), signed like u, opposite in D
    CHECK(corner.X_prime(i, 2) == Approx((u(i) < 0 ? -1 : 1) * norm / 2));
    CHECK(corner.X(i, 2) == Approx(-corner.X_prime(i, 2)));
  }
  CHECK(corner.X_prime.col(2).norm() == Approx(norm));
  CHECK(corner.direction.dot(corner.X_prime.col(2)) == Approx(norm));

  const auto fresh = make_neighbours(NeighbourKind::fresh, "x", *model, 10, 2, scale, rng);
  CHECK(fresh.canary_norm == 0);

  // Equal norms on the two axes where u weighs most: x' x'^T - x x^T has Frobenius norm sqrt(2) c^2, all of
  // it on the diagonal.
  const auto axes = make_neighbours(NeighbourKind::orthogonal_axes, "x", *model, 10, 2, scale, rng);
  const auto [a, b] = heaviest_axes(u);
  CHECK((axes.X.col(2) - norm * Eigen::VectorXd::Unit(4, a)).norm() < 1e-12 * norm);
  CHECK((axes.X_prime.col(2) - norm * Eigen::VectorXd::Unit(4, b)).norm() < 1e-12 * norm);
  CHECK((axes.direction - Eigen::VectorXd::Unit(4, b)).norm() == 0);
  const Eigen::MatrixXd change =
      axes.X_prime.col(2) * axes.X_prime.col(2).transpose() - axes.X.col(2) * axes.X.col(2).transpose();
  CHECK(change.norm() == Approx(std::sqrt(2.0) * norm * norm));
  CHECK(change.diagonal().norm() == Approx(change.norm()));
}

TEST_CASE("heaviest_axes picks the two largest |u_i|, heaviest_axis the largest", "[audit]") {
  CHECK(heaviest_axis(Eigen::Vector4d(0.1, -0.7, 0.2, 0.6)) == 1);
  CHECK(heaviest_axis(Eigen::Vector2d(0.5, -0.5)) == 0);  // ties to the lower index
  CHECK(heaviest_axes(Eigen::Vector4d(0.1, -0.7, 0.2, 0.6)) == std::pair<Eigen::Index, Eigen::Index>{1, 3});
  CHECK(heaviest_axes(Eigen::Vector3d(0.9, 0.1, -0.3)) == std::pair<Eigen::Index, Eigen::Index>{0, 2});
  CHECK(heaviest_axes(Eigen::Vector2d(0.0, 1.0)) == std::pair<Eigen::Index, Eigen::Index>{1, 0});
  CHECK_THROWS_AS(heaviest_axes(Eigen::VectorXd::Ones(1)), dpb::InvalidArgument);
}

TEST_CASE("canary resolves to each spec's worst case", "[audit]") {
  CHECK(worst_case_construction("liu2022.private_mean").kind == NeighbourKind::corner);
  CHECK(worst_case_construction("baseline.gaussian_mean").kind == NeighbourKind::sign_flip);
  CHECK(worst_case_construction("baseline.laplace_mean").kind == NeighbourKind::axis_flip);
  CHECK(worst_case_construction("dugler2026.truncated_mean").kind == NeighbourKind::corner);
  CHECK(worst_case_construction("kumar2025.priv_cov").kind == NeighbourKind::huge_norm);
  CHECK(worst_case_construction("liu2022.dp_pca").kind == NeighbourKind::huge_norm);
  // The Oja family and the noisy power method: white-box, on flat data; the Oja family from a public start.
  for (const char* id : {"liu2022.private_oja", "liu2022.minibatch_private_oja", "baseline.k_dp_ojas",
                         "dugler2026.private_oja", "baseline.noisy_power_method"}) {
    INFO(id);
    const WorstCase worst = worst_case_construction(id);
    CHECK(worst.kind == (std::string(id) == "baseline.noisy_power_method" ? NeighbourKind::orthogonal_axes
                                                                          : NeighbourKind::opposed_at_start));
    CHECK(worst.flat);
    CHECK(worst.score == "transcript_lr");
    // The power method's query X_l spans both canary axes only with every eigenvector.
    CHECK(worst.every_eigenpair == (std::string(id) == "baseline.noisy_power_method"));
  }
  CHECK(worst_case_construction("baseline.dp_gauss_1").every_eigenpair);
  CHECK(worst_case_construction("baseline.dp_gauss").kind == NeighbourKind::orthogonal_axes);
  CHECK(worst_case_construction("baseline.dp_gauss").score == "second_moment_lr");
  CHECK(worst_case_construction("baseline.dp_gauss").every_eigenpair);
  CHECK(worst_case_construction("cai2024.gaussian_mechanism").kind == NeighbourKind::huge_norm);
  CHECK(worst_case_construction("cai2024.gaussian_mechanism").reason.find("cai2024 §3.6") !=
        std::string::npos);
  const auto model = spiked_model(4);
  dpb::core::Rng rng(5, 0);
  const auto pair = make_neighbours(NeighbourKind::canary, "liu2022.private_mean", *model, 10, 0, 2.0, rng);
  CHECK(pair.kind == NeighbourKind::corner);
  CHECK(pair.description.find("liu2022 §3.7") != std::string::npos);
  CHECK(pair.score.empty());  // scored by what the output holds
}

TEST_CASE("DP-Gauss-1's worst case: flat data, orthogonal axes, the likelihood-ratio score", "[audit]") {
  // Issue 18: the huge-norm canary on model data left every run above one threshold (eps_lb 0). On flat
  // data the shared records weigh ~1e-6 of the canaries' second moment, so the pair moves the clipped
  // sum by its whole sensitivity.
  const auto model = spiked_model(4);
  dpb::core::Rng rng(5, 0), plain_rng(5, 0);
  const auto pair = make_neighbours(NeighbourKind::canary, "baseline.dp_gauss_1", *model, 20, 0, 30.0, rng);
  const auto plain =
      make_neighbours(NeighbourKind::orthogonal_axes, "baseline.dp_gauss_1", *model, 20, 0, 30.0, plain_rng);
  CHECK(pair.kind == NeighbourKind::orthogonal_axes);
  CHECK(pair.score == "second_moment_lr");
  CHECK(plain.score.empty());
  CHECK(pair.X.col(0) == plain.X.col(0));  // the canaries are the same
  CHECK(pair.X_prime.col(0) == plain.X_prime.col(0));
  for (Eigen::Index i = 1; i < 20; ++i) CHECK(pair.X.col(i) == kFlatScale * plain.X.col(i));
  CHECK(pair.description.find("flat data") != std::string::npos);
}

TEST_CASE("opposed_at_start: records whose clipped Oja terms at the public start are opposite", "[audit]") {
  // Issue 18: a step's term clip((x . w) x) lies on w's side, so a fixed pair of records read at a random w
  // moves it by sqrt(2) beta at most. At the public start e_a, lean c e_a +- c e_b give (x . e_a) x = lean c x,
  // which clipped to any beta below lean c^2 is beta (lean e_a +- e_b) / sqrt(1 + lean^2): 0.97 of 2 beta apart.
  const auto model = spiked_model(4);
  dpb::core::Rng rng(5, 0);
  const auto pair = make_neighbours(NeighbourKind::opposed_at_start, "x", *model, 10, 3, 30.0, rng);
  const auto [a, b] = heaviest_axes(canary_direction(model->info()));
  REQUIRE(pair.start.rows() == 4);
  REQUIRE(pair.start.cols() == 4);
  CHECK((pair.start.transpose() * pair.start).isIdentity(1e-15));
  CHECK(pair.start.col(0) == Eigen::VectorXd::Unit(4, a));
  CHECK(pair.start.col(3) == Eigen::VectorXd::Unit(4, b));  // outside the first k < d columns
  const Eigen::VectorXd w = pair.start.col(0), x = pair.X.col(3), x_prime = pair.X_prime.col(3);
  const double beta = 1.0;
  const auto clipped = [&](const Eigen::VectorXd& r) {
    const Eigen::VectorXd g = r.dot(w) * r;
    return Eigen::VectorXd(g * std::min(1.0, beta / g.norm()));
  };
  CHECK((clipped(x) - clipped(x_prime)).norm() == Approx(2 * beta / std::sqrt(1 + kStartLean * kStartLean)));
  CHECK((clipped(x) - clipped(x_prime)).norm() > 1.94 * beta);
  // Other constructions leave the runs their own random start.
  CHECK(make_neighbours(NeighbourKind::orthogonal_axes, "x", *model, 10, 3, 30.0, rng).start.size() == 0);
}

TEST_CASE("make_neighbours rejects a bad index or scale", "[audit]") {
  const auto model = spiked_model(4);
  dpb::core::Rng rng(5, 0);
  CHECK_THROWS_AS(make_neighbours(NeighbourKind::fresh, "x", *model, 10, 10, 2.0, rng), dpb::InvalidArgument);
  CHECK_THROWS_AS(make_neighbours(NeighbourKind::fresh, "x", *model, 10, -1, 2.0, rng), dpb::InvalidArgument);
  CHECK_THROWS_AS(make_neighbours(NeighbourKind::fresh, "x", *model, 10, 0, 0.0, rng), dpb::InvalidArgument);
}

TEST_CASE("log_ladder puts every pair difference in its own log bin and zeroes the index's pair in D'",
          "[audit]") {
  const auto model = spiked_model(3);
  const double scale = 2.0, norm = scale * std::sqrt(model->info().Sigma.trace());
  const Eigen::VectorXd u = canary_direction(model->info());
  for (const Eigen::Index index : {0, 5, 8}) {
    const Eigen::Index n = 10, partner = index ^ 1;
    dpb::core::Rng rng(5, 0);
    const auto ladder = make_neighbours(NeighbourKind::log_ladder, "x", *model, n, index, scale, rng);
    INFO("index " << index);
    CHECK(ladder.canary_norm == Approx(norm));
    CHECK((ladder.direction - u).norm() < 1e-12);
    CHECK(differing_columns(ladder.X, ladder.X_prime) == std::vector<Eigen::Index>{index});
    CHECK(ladder.X_prime.col(index) == ladder.X.col(partner));  // D' copies the pair partner
    // Every record lies along u; the audited one is the largest (norm c), its partner next.
    std::vector<double> norms;
    for (Eigen::Index i = 0; i < n; ++i) {
      CHECK(std::abs(u.dot(ladder.X.col(i))) == Approx(ladder.X.col(i).norm()));
      norms.push_back(ladder.X.col(i).norm());
    }
    CHECK(norms[index] == Approx(norm));
    CHECK(*std::max_element(norms.begin(), norms.end()) == norms[index]);
    CHECK(norms[partner] == Approx(norm / kLadderRatio));
    // The top eigenvalues liu2022 Alg. 4 bins (b = 1: ||x_{2j+1} - x_{2j}||^2) and PRIVRANGE bins (A = x x^T,
    // frame q = u: ||x_{2j+1}||^2 - ||x_{2j}||^2 squared) fall in distinct log bins, at least 8 apart, the
    // index's pair on top; in D' that pair's is 0 (the [0, 0] bin).
    std::vector<std::int64_t> alg4_bins, range_bins;
    for (Eigen::Index j = 0; j < n / 2; ++j) {
      const double diff = (ladder.X.col(2 * j + 1) - ladder.X.col(2 * j)).squaredNorm();
      const double range = std::pow(ladder.X.col(2 * j + 1).squaredNorm() - ladder.X.col(2 * j).squaredNorm(), 2);
      alg4_bins.push_back(dpb::alg::log_bin(diff));
      range_bins.push_back(dpb::alg::log_bin(range));
      const double diff_prime = (ladder.X_prime.col(2 * j + 1) - ladder.X_prime.col(2 * j)).squaredNorm();
      CHECK((diff_prime == 0) == (j == index / 2));
    }
    for (const auto* bins : {&alg4_bins, &range_bins}) {
      for (std::size_t a = 0; a < bins->size(); ++a)
        for (std::size_t b = 0; b < a; ++b) CHECK(std::abs((*bins)[a] - (*bins)[b]) >= 8);
      CHECK(*std::max_element(bins->begin(), bins->end()) == (*bins)[std::size_t(index / 2)]);
    }
  }
}

TEST_CASE("log_ladder refuses sizes whose smallest rung would underflow, and a missing partner", "[audit]") {
  const auto model = spiked_model(3);
  dpb::core::Rng rng(5, 0);
  CHECK_NOTHROW(make_neighbours(NeighbourKind::log_ladder, "x", *model, kMaxLadderRecords, 0, 1.0, rng));
  CHECK_THROWS_WITH(make_neighbours(NeighbourKind::log_ladder, "x", *model, kMaxLadderRecords + 1, 0, 1.0, rng),
                    Catch::Contains("n <= 64"));
  CHECK_THROWS_WITH(make_neighbours(NeighbourKind::log_ladder, "x", *model, 7, 6, 1.0, rng),
                    Catch::Contains("pair partner"));
  CHECK_NOTHROW(make_neighbours(NeighbourKind::log_ladder, "x", *model, 7, 5, 1.0, rng));
}
