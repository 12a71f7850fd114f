#pragma once
// Matrix primitives of kumar2025 (spec §1.2, §2.0, §8.1 item 2): hard thresholding T_tau, top_k of a
// vector and top_{k^2} of a matrix, the k-RCS test, the graph projection P_G, the entrywise max norm
// and the relative eigengap. All deterministic; ties are broken by index order (spec: kumar2025 A25).
#include <Eigen/Dense>
#include <utility>
#include <vector>

namespace dpb::alg {

// T_tau (Eq. 1), entrywise and diagonal included: keeps c when |c| >= tau (non-strict), else 0.
// tau >= 0 and finite; throws dpb::InvalidArgument otherwise or on NaN entries.
Eigen::MatrixXd hard_threshold(const Eigen::MatrixXd& M, double tau);

// supp(top_k(v)): the indices of the k entries of largest magnitude, ascending. Among equal magnitudes
// the lower index wins (A25). 1 <= k <= size; `tie_at_cutoff` (optional) is set when the k-th and
// (k+1)-th largest magnitudes are equal, i.e. the tie-breaking rule decided the support.
std::vector<Eigen::Index> top_k_support(const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Index k,
                                        bool* tie_at_cutoff = nullptr);

// top_k(v): v on top_k_support(v, k), zero elsewhere.
Eigen::VectorXd top_k(const Eigen::VectorXd& v, Eigen::Index k);

struct TopEntries {
  Eigen::MatrixXd kept;        // M on the `count` largest-magnitude entries, zero elsewhere
  bool tie_at_cutoff = false;  // the count-th and (count+1)-th magnitudes were equal (A25)
};
// top_{k^2} on a matrix: keeps the `count` entries of largest magnitude among all rows x cols entries
// jointly (spec: kumar2025 §1.2, Lemma 16); ties broken by (row, column) in lexicographic order.
// 1 <= count <= rows * cols.
TopEntries top_entries(const Eigen::MatrixXd& M, Eigen::Index count);

// Definition 1: every row and every column of M has at most k nonzeros. k >= 1.
bool is_k_rcs(const Eigen::MatrixXd& M, Eigen::Index k);

// P_G (Eq. 6) for an undirected graph on [d] given by its edges (i, j), 0-based, either orientation:
// [P_G(M)]_ij = M_ij if i = j or {i, j} is an edge, else 0. Throws dpb::InvalidArgument if M is not
// square or an endpoint lies outside [0, d).
Eigen::MatrixXd graph_projection(const Eigen::MatrixXd& M,
                                 const std::vector<std::pair<Eigen::Index, Eigen::Index>>& edges);

// ||A - B||_{inf,inf} = max_ij |A_ij - B_ij| (same shape).
double max_abs_difference(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B);
// f_i = #{ j : ||M_j - M_i||_{inf,inf} <= radius } over the matrices M_i (j = i included; all of one shape):
// the friend counts of kumar2025 Alg. 2 line 8, exactly as comparing every pair entry by entry (non-strict;
// NaN is nobody's friend) gives them. Throws dpb::InvalidArgument when the shapes differ.
Eigen::VectorXd friend_counts(const std::vector<Eigen::MatrixXd>& matrices, double radius);

// The two largest (algebraic) eigenvalues of a symmetric matrix (d >= 2), and its relative gap
// gamma(M) = 1 - lambda_2/lambda_1 (spec §1.2), which is defined only when lambda_1 > 0 (A24).
struct TopTwoEigenvalues {
  double lambda1 = 0, lambda2 = 0;
  bool gap_defined() const { return lambda1 > 0; }
  double relative_gap() const { return 1.0 - lambda2 / lambda1; }
};
TopTwoEigenvalues top_two_eigenvalues(const Eigen::MatrixXd& S);

}  // namespace dpb::alg
