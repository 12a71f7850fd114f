#include "verify/audit/learned_score.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

namespace dpb::verify {
namespace {

void append_upper(const Eigen::MatrixXd& m, std::vector<double>& out) {
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i <= j; ++i) out.push_back(m(i, j));
}

}  // namespace

Eigen::VectorXd output_features(const alg::Estimate& e) {
  std::vector<double> f;
  if (e.Q) {
    append_upper(*e.Q * e.Q->transpose(), f);
    if (e.eigenvalues && e.eigenvalues->size() >= e.Q->cols())
      append_upper(*e.Q * e.eigenvalues->head(e.Q->cols()).asDiagonal() * e.Q->transpose(), f);
  }
  if (e.eigenvalues) f.insert(f.end(), e.eigenvalues->begin(), e.eigenvalues->end());
  if (e.Sigma) append_upper(*e.Sigma, f);
  if (e.mean) f.insert(f.end(), e.mean->begin(), e.mean->end());
  if (e.scalar) f.push_back(*e.scalar);
  return Eigen::Map<const Eigen::VectorXd>(f.data(), static_cast<Eigen::Index>(f.size()));
}

Eigen::VectorXd fisher_direction(const std::vector<Eigen::VectorXd>& on_d,
                                 const std::vector<Eigen::VectorXd>& on_d_prime) {
  if (on_d.size() < 2 || on_d_prime.size() < 2)
    throw InvalidArgument(fmt::format("{}: needs at least two released outputs on each of D and D', got {} and {}",
                                      kLearnedScore, on_d.size(), on_d_prime.size()));
  const Eigen::Index p = on_d.front().size();
  if (p < 1) throw InvalidArgument(fmt::format("{}: the output releases no number to weigh", kLearnedScore));
  const auto mean_of = [&](const std::vector<Eigen::VectorXd>& xs) {
    Eigen::VectorXd m = Eigen::VectorXd::Zero(p);
    for (const auto& x : xs) {
      if (x.size() != p)
        throw InvalidArgument(fmt::format("{}: the output's shape changes between runs ({} and {} numbers)",
                                          kLearnedScore, p, x.size()));
      m += x;
    }
    return Eigen::VectorXd(m / static_cast<double>(xs.size()));
  };
  const Eigen::VectorXd m = mean_of(on_d), m_prime = mean_of(on_d_prime);
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(p, p);
  for (const auto& x : on_d) S.selfadjointView<Eigen::Lower>().rankUpdate(x - m);
  for (const auto& x : on_d_prime) S.selfadjointView<Eigen::Lower>().rankUpdate(x - m_prime);
  S = S.selfadjointView<Eigen::Lower>();
  S /= static_cast<double>(on_d.size() + on_d_prime.size() - 2);
  S.diagonal().array() += 1e-9 * S.trace() / static_cast<double>(p) + 1e-300;
  return S.ldlt().solve(m_prime - m);
}

}  // namespace dpb::verify
