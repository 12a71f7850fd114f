// kumar2025 upper bounds (spec: kumar2025-sparse-dp-cov-pca.md §4): Thm 1 (PrivCov), Thm 3 (the sparse PCA
// pipeline PrivNorm + PrivPCA), Thm 6 (PrivNorm), Lemma 39 (exponential-mechanism support selection).
//
// Convention. The paper states sample complexities (n >= f(accuracy)); the rates here are the error an
// algorithm reaches with n samples (the inverse of f), in the units the verifier measures:
//   thm1   ||M - Sigma||_op (absolute; the paper's alpha sigma^2), the explicit form of the proof (§4.1)
//   thm3   sin angle(v_priv, v_1): the square root of the paper's sin^2 bound Delta
//   thm6   |lambda_hat - lambda_1(Sigma)|
//   lem39  sin angle(v_hat, v_1): the square root of the paper's sin^2 bound
// Polylogarithmic factors are dropped where the paper hides them (Omega~ / >~: thm3, thm6) and kept where it
// writes them (thm1's O(.) and lem39's <~).
//
// Parameters (spec names; aliases are what the verifier's cells carry besides, see core/models/sparse.cpp):
//   n, d (alias p), k (sparsity), epsilon, delta
//   beta      failure probability (alias zeta; absent = the theorem's semantics zeta, 0.01)
//   sigma2    sub-Gaussian proxy sigma^2 (alias subgaussian_sigma2, which the sparse models publish)
//   lambda1   lambda_1(Sigma); gamma the relative gap 1 - lambda_2/lambda_1; nnz_v1 = nnz(v_1) (Lemma 39)
//   m         PrivNorm / PrivPCA block count (absent = the smallest m of spec A7)
//   c_tau     the threshold constant of Eq. 26 (absent = 8 + 4 sqrt(log 800 / log d), spec §4.5 / A8)
//   C_n       Thm 6's unspecified sample-size constant (absent = 1)
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "bounds/papers.hpp"
#include "bounds/params.hpp"
#include "bounds/table_cell.hpp"

namespace dpb::bounds {

namespace {

constexpr double kZeta = 0.01;
constexpr double kMaxEps = 1;         // footnote 5: every result is stated for eps in (0, 1]
constexpr double kMaxModelGap = 0.5;  // Model 1: gamma in [0, 1/2)
// Spec A7: m >= max{31, (420/eps) log(12/delta), 62 log(8/beta)} (Lemma 10 needs m > 30; Lemma 15's 210 is
// 420).
constexpr double kMinBlocks = 31;
constexpr double kBlockEpsFactor = 420;
constexpr double kBlockTestTail = 12;
constexpr double kBlockHoeffding = 62;
constexpr double kBlockFailure = 8;
// Eq. 28 (PrivPCA's public precondition): 34 k tau <= (gamma/16) lambda_hat, and Eq. 32's lambda_hat >=
// (1 - gamma/16) lambda_1. 34 = 2 (4 r_f + 1) with friend radius r_f = 4 (spec §2.6).
constexpr double kOpNormMultiplier = 34;
constexpr double kGapDivisor = 16;
// c_tau default (spec §4.5): 8 + 4 sqrt(log 800 / log d).
constexpr double kTauBase = 8;
constexpr double kTauTail = 4;
constexpr double kTauFailure = 800;
constexpr double kThm6SampleConstant = 1;
constexpr double kInf = std::numeric_limits<double>::infinity();

double dimension(const Params& x) { return positive(x, aliased(x, "d", "p")); }
double proxy(const Params& x) { return positive(x, aliased(x, "sigma2", "subgaussian_sigma2")); }
double failure(const Params& x) {
  if (!x.count("beta") && !x.count("zeta")) return kZeta;
  return unit_interval(x, aliased(x, "beta", "zeta"));
}

double smallest_blocks(const Params& x) {
  const double eps = positive(x, "epsilon"), delta = unit_interval(x, "delta");
  return std::max({kMinBlocks, std::ceil(kBlockEpsFactor / eps * std::log(kBlockTestTail / delta)),
                   std::ceil(kBlockHoeffding * std::log(kBlockFailure / failure(x)))});
}
double blocks(const Params& x) { return param_or(x, "m", smallest_blocks(x)); }
double tau_constant(const Params& x) {
  return param_or(x, "c_tau",
                  kTauBase + kTauTail * std::sqrt(std::log(kTauFailure) / std::log(dimension(x))));
}

Condition eps_at_most_one() {
  return {"eps <= 1", "0 < eps <= 1 (footnote 5)",
          [](const Params& x) { return positive(x, "epsilon") <= kMaxEps; }};
}
Condition sparsity_in_range() {
  return {"k <= d", "1 <= k <= d", [](const Params& x) {
            const double k = positive(x, "k");
            return k >= 1 && k <= dimension(x);
          }};
}
Condition model_gap() {
  return {"0 < gamma < 1/2", "Model 1/2: lambda_2 <= (1 - gamma) lambda_1 with gamma in (0, 1/2)",
          [](const Params& x) { return positive(x, "gamma") < kMaxModelGap; }};
}
Condition subgaussian_proxy() {
  return {"lambda1 <= sigma2", "sigma-sub-Gaussian data have Sigma <= sigma^2 I (Definition 3)",
          [](const Params& x) { return positive(x, "lambda1") <= proxy(x); }};
}
Condition enough_blocks() {
  return {"m (A7)",
          "m >= max{31, (420/eps) log(12/delta), 62 log(8/beta)} (spec A7; m absent = this minimum)",
          [](const Params& x) { return blocks(x) >= smallest_blocks(x); }};
}

// Thm 3 and Thm 6 both run PrivNorm on Model 1/2 data; each adds its own sample-size requirement.
std::vector<Condition> privnorm_conditions(Condition requirement) {
  return {eps_at_most_one(),   sparsity_in_range(), model_gap(),
          subgaussian_proxy(), enough_blocks(),     std::move(requirement)};
}
// Their shared example point, at the sample size each needs.
Params privnorm_example(double n) {
  return {{"n", n},       {"d", 100},    {"k", 4},       {"epsilon", 1},    {"delta", 1e-5},
          {"beta", 0.05}, {"sigma2", 5}, {"lambda1", 5}, {"gamma", 0.4}};
}

const char* const kPaper = "Kumar, Pandey, Sarkar, Tian 2025";
const char* const kKey = "kumar2025";

// ---- Thm 1 (PrivCov; spec §4.1) ----

Theorem thm1() {
  Theorem t;
  t.id = "kumar2025.thm1";
  t.source = std::string(kPaper) +
             ", Theorem 1 (PrivCov, Algorithm 1; explicit form ||M - Sigma||_op <= 4 k lambda_n "
             "of its proof)";
  t.kind = Kind::upper;
  t.loss = {Loss::Name::cov_op, kInf, false};
  t.semantics = {true, kZeta};
  t.applies = {"kumar2025.priv_cov"};
  t.rate = [](const Params& x) {
    const double n = positive(x, "n"), d = dimension(x), k = positive(x, "k"), eps = positive(x, "epsilon");
    const double delta = unit_interval(x, "delta"), beta = failure(x);
    const double statistical = k * std::sqrt(std::log(d / beta) / n);
    const double privacy = std::pow(k, 1.5) * std::sqrt(d) * std::log(n * d / beta) * std::log(d / beta) *
                           std::log(d / delta) / (n * eps);
    return proxy(x) * (statistical + privacy);
  };
  t.conditions = {eps_at_most_one(), sparsity_in_range()};
  t.latex =
      "\\|M - \\Sigma\\|_{op} \\lesssim \\sigma^2\\Big(k\\sqrt{\\frac{\\log(d/\\beta)}{n}} + "
      "\\frac{k\\sqrt{dk}\\,\\log(nd/\\beta)\\log(d/\\beta)\\log(d/\\delta)}{n\\varepsilon}\\Big)";
  t.hides = "absolute constants only (Fact 4's C); every log factor is kept";
  t.setting = "kumar2025.model1";
  t.example = {{"n", 1e5}, {"d", 100}, {"k", 4}, {"epsilon", 1}, {"delta", 1e-5}, {"beta", 0.05}, {"sigma2", 5}};
  return t;
}

// ---- Thm 3 (sparse PCA pipeline; spec §4.2, §2.4) ----

// tau of Eq. 26 for one half of the data (the pipeline gives each call n/2 samples).
double half_sample_tau(const Params& x) {
  const double n = positive(x, "n");
  return tau_constant(x) * proxy(x) * std::sqrt(blocks(x) * std::log(dimension(x)) / (n / 2));
}

Theorem thm3() {
  Theorem t;
  t.id = "kumar2025.thm3";
  t.source = std::string(kPaper) + ", Theorem 3 (PrivPCA after PrivNorm, Algorithms 2-3; Eq. 31)";
  t.kind = Kind::upper;
  t.loss = {Loss::Name::sin, kInf, false};
  t.semantics = {true, kZeta};
  t.applies = {"kumar2025.sparse_pca_pipeline", "kumar2025.priv_pca"};
  // sin^2 <= Delta at n = k^4 sigma^4 / (gamma^2 Delta eps^3 lambda_1^2): sin = k^2 sigma^2 / (gamma lambda_1
  // sqrt(eps^3 n)).
  t.rate = [](const Params& x) {
    const double n = positive(x, "n"), k = positive(x, "k"), eps = positive(x, "epsilon");
    return k * k * proxy(x) /
           (positive(x, "gamma") * positive(x, "lambda1") * std::sqrt(eps * eps * eps * n));
  };
  t.conditions = privnorm_conditions(
      {"Eq. 28",
       "34 k tau <= (gamma/16) lambda_hat with tau = c_tau sigma^2 sqrt(m log d / (n/2)) and "
       "lambda_hat = (1 - gamma/16) lambda_1 (Eq. 32's worst case)",
       [](const Params& x) {
         const double gamma = positive(x, "gamma");
         const double lambda_hat = (1 - gamma / kGapDivisor) * positive(x, "lambda1");
         return kOpNormMultiplier * positive(x, "k") * half_sample_tau(x) <= gamma / kGapDivisor * lambda_hat;
       }});
  t.latex =
      "\\sin\\angle(v_{priv}, v_1) \\lesssim \\frac{k^2\\sigma^2}{\\gamma\\lambda_1\\sqrt{\\varepsilon^3 n}}";
  t.hides = "polylog factors log(d/beta) log(d) log(1/delta) log(1/(delta beta)) and absolute constants";
  t.setting = "kumar2025.model2";
  // Eq. 28 with the paper's constants needs ~5e14 samples here (spec §2.6's feasibility note).
  t.example = privnorm_example(1e15);
  return t;
}

// ---- Thm 6 (PrivNorm; spec §4.3) ----

Theorem thm6() {
  Theorem t;
  t.id = "kumar2025.thm6";
  t.source = std::string(kPaper) + ", Theorem 6 (PrivNorm, Algorithm 3; App. C)";
  t.kind = Kind::upper;
  t.loss = {Loss::Name::statistic};  // |lambda_hat - lambda_1|
  t.semantics = {true, kZeta};
  t.applies = {"kumar2025.priv_norm"};
  // |lambda_hat - lambda_1| <= gamma lambda_1 / 10 at n = sigma^4 k^2 / (lambda_1^2 gamma^2 eps^3): the error
  // is k sigma^2 / sqrt(eps^3 n).
  t.rate = [](const Params& x) {
    const double n = positive(x, "n"), k = positive(x, "k"), eps = positive(x, "epsilon");
    return k * proxy(x) / std::sqrt(eps * eps * eps * n);
  };
  t.conditions = privnorm_conditions(
      {"sample size",
       "n >= C_n (sigma^4/lambda_1^2)(k^2/(gamma^2 eps^3)) log(1/beta) log d log(1/delta) "
       "log(1/(delta beta))   [C_n default 1]",
       [](const Params& x) {
         const double k = positive(x, "k"), eps = positive(x, "epsilon"), gamma = positive(x, "gamma");
         const double delta = unit_interval(x, "delta"), beta = failure(x);
         const double ratio = proxy(x) / positive(x, "lambda1");
         const double logs =
             std::log(1 / beta) * std::log(dimension(x)) * std::log(1 / delta) * std::log(1 / (delta * beta));
         return positive(x, "n") >= param_or(x, "C_n", kThm6SampleConstant) * ratio * ratio * k * k /
                                        (gamma * gamma * eps * eps * eps) * logs;
       }});
  t.latex = "|\\hat\\lambda - \\lambda_1(\\Sigma)| \\lesssim \\frac{k\\sigma^2}{\\sqrt{\\varepsilon^3 n}}";
  t.hides = "polylog factors log(1/beta) log(d) log(1/delta) log(1/(delta beta)) and absolute constants";
  t.setting = "kumar2025.model1.top_eigenvalue";
  t.example = privnorm_example(1e6);
  return t;
}

// ---- Lemma 39 (Algorithm 4, pure eps-DP; spec §4.4) ----

Theorem lem39() {
  Theorem t;
  t.id = "kumar2025.lem39";
  t.source =
      std::string(kPaper) + ", Lemma 39 (exponential-mechanism support selection, Algorithm 4; App. F)";
  t.kind = Kind::upper;
  t.loss = {Loss::Name::sin, kInf, false};
  t.semantics = {true, kZeta};
  t.applies = {"kumar2025.exp_mech_support"};
  t.rate = [](const Params& x) {
    const double n = positive(x, "n"), d = dimension(x), k = positive(x, "k"), eps = positive(x, "epsilon");
    const double beta = failure(x);
    const double support_log = std::log(d / (k * beta));
    const double sin2 =
        proxy(x) / (positive(x, "gamma") * positive(x, "lambda1")) *
        (std::sqrt(k / n * support_log) + k * k / (eps * n) * support_log * std::log(n * d / beta));
    return std::sqrt(sin2);
  };
  t.conditions = {sparsity_in_range(),
                  subgaussian_proxy(),
                  {"0 < gamma <= 1", "lambda_2 <= (1 - gamma) lambda_1 with gamma in (0, 1]",
                   [](const Params& x) { return positive(x, "gamma") <= 1; }},
                  {"nnz(v1) <= k", "the top eigenvector is k-sparse (no k-RCS needed)",
                   [](const Params& x) { return param(x, "nnz_v1") <= positive(x, "k"); }}};
  t.latex =
      "\\sin^2\\angle(\\hat v, v_1) \\lesssim \\frac{\\sigma^2}{\\gamma\\lambda_1}\\Big(\\sqrt{\\frac{k}{n}"
      "\\log\\frac{d}{k\\beta}} + \\frac{k^2}{\\varepsilon "
      "n}\\log\\frac{d}{k\\beta}\\log\\frac{nd}{\\beta}\\Big)";
  t.hides = "absolute constants only; the log factors are kept (tau = Theta(sigma sqrt(log(nd/beta))))";
  t.setting = "kumar2025.sparse_v1";
  t.example = {{"n", 1e5},    {"d", 20},      {"k", 3},       {"epsilon", 1},   {"beta", 0.05},
               {"sigma2", 5}, {"lambda1", 5}, {"gamma", 0.4}, {"nnz_v1", 3}};
  return t;
}


// ---- Table 1 and 2 upper-bound cells (spec §6) ----
// The tables give sample sizes for constant accuracy at eps = Theta(1); as errors at n samples (what the
// verifier measures) they read as below. [BL09] and [WX21] are cited results dpbounds does not implement:
// their cells apply to no registered algorithm.

Theorem cited_cell(TableCell cell, const std::string& where, std::string cell_latex, Loss loss, std::string setting,
                   std::function<double(const Params&)> rate, std::string hides) {
  Theorem t;
  t.kind = Kind::upper;
  t.loss = loss;
  t.semantics = {true, kZeta};
  t.rate = std::move(rate);
  t.hides = std::move(hides);
  t.setting = std::move(setting);
  t.example = {{"n", 1e5}, {"d", 100}, {"k", 4}, {"epsilon", 1}, {"delta", 1e-5}, {"sigma2", 5}};
  return table_cell(std::move(t), kKey, std::move(cell), kPaper, where, std::move(cell_latex));
}

std::vector<Theorem> table_cells() {
  const Loss cov = {Loss::Name::cov_op, kInf, false}, sin = {Loss::Name::sin, kInf, false};
  const auto n = [](const Params& x) { return positive(x, "n"); };
  return {
      cited_cell({"table1", TableCell::Row::upper, TableCell::Column::nonprivate, "[BL09]"}, "Table 1 (Upper Bound, Non-Private)", "k^2", cov,
                 "kumar2025.model1",
                 [n](const Params& x) { return proxy(x) * positive(x, "k") * std::sqrt(std::log(dimension(x)) / n(x)); },
                 "log d and constants; as an error: ||Sigma_hat - Sigma||_op <~ sigma^2 k sqrt(log d / n) (thresholding)"),
      table_cell(thm1(), kKey, {"table1", TableCell::Row::upper, TableCell::Column::ours, "Thm. 1"}, kPaper, "Table 1 (Upper Bound, Our Results)",
                 R"(k^2 + \sqrt{d}\,k^{1.5})"),
      cited_cell({"table1", TableCell::Row::upper, TableCell::Column::prior, "[WX21]"}, "Table 1 (Upper Bound, Prior Results)", "d \\cdot k^2", cov,
                 "kumar2025.model1",
                 [n](const Params& x) {
                   return proxy(x) * positive(x, "k") *
                          std::sqrt(dimension(x) * std::log(dimension(x) / unit_interval(x, "delta")) / n(x)) /
                          positive(x, "epsilon");
                 },
                 "constants; footnote 2: WX21's sigma^2 = O(1/d) scaling costs a factor d in n to reach Model 1 "
                 "error: n ~ d k^2 log(d/delta)/(alpha^2 eps^2)"),
      cited_cell({"table2", TableCell::Row::upper, TableCell::Column::nonprivate, "[BL09]"}, "Table 2 (Upper Bound (Model 2), Non-Private)", "k^2",
                 sin, "kumar2025.model2",
                 [n](const Params& x) { return positive(x, "k") * std::sqrt(std::log(dimension(x)) / n(x)); },
                 "log d, the eigengap and constants; footnote 3: holds even under Model 1"),
      table_cell(thm3(), kKey, {"table2", TableCell::Row::upper, TableCell::Column::ours, "Thm. 3"}, kPaper,
                 "Table 2 (Upper Bound (Model 2), Our Results)", "k^4"),
      cited_cell({"table2", TableCell::Row::upper, TableCell::Column::prior, "[WX21]"}, "Table 2 (Upper Bound (Model 2), Prior Results)",
                 "d \\cdot k^2", sin, "kumar2025.model2",
                 [n](const Params& x) {
                   return positive(x, "k") *
                          std::sqrt(dimension(x) * std::log(dimension(x) / unit_interval(x, "delta")) / n(x)) /
                          positive(x, "epsilon");
                 },
                 "the eigengap, log factors and constants (as Table 1's [WX21] cell)"),
  };
}

}  // namespace

std::vector<Theorem> kumar2025_upper_bounds() {
  std::vector<Theorem> all = {thm1(), thm3(), thm6(), lem39()};
  for (auto& cell : table_cells()) all.push_back(std::move(cell));
  return all;
}

}  // namespace dpb::bounds
