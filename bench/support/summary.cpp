#include "bench/support/summary.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <vector>

#include "bench/support/machine_peak.hpp"
#include "bench/support/numpy_adaptive_loops.hpp"
#include "bench/support/numpy_dp_pca_loops.hpp"
#include "bench/support/numpy_mechanisms.hpp"
#include "bench/support/numpy_oja_loops.hpp"
#include "bench/support/numpy_runner.hpp"
#include "bench/support/timing.hpp"

namespace dpb::bench {
namespace {

struct Record {
  AlgorithmCase c;
  Size size;
  long iterations = 0;
  double seconds = 0, floor_seconds = 0, arithmetic_seconds = 0;
};

std::vector<Record>& records() {
  static std::vector<Record> all;
  return all;
}

struct Point {
  Size size;
  double seconds = 0, floor_seconds = 0, arithmetic_seconds = 0;
};


// Per algorithm, its sizes in order with the median time of the runs Google Benchmark reported: those
// at the final (largest) iteration count, not its shorter probes.
std::vector<std::pair<AlgorithmCase, std::vector<Point>>> points_by_algorithm() {
  std::vector<std::pair<AlgorithmCase, std::vector<Point>>> result;
  for (const auto& r : records()) {
    auto it = std::find_if(result.begin(), result.end(), [&](const auto& p) { return p.first.id == r.c.id; });
    if (it == result.end()) it = result.insert(result.end(), {r.c, {}});
    auto& points = it->second;
    const bool known = std::any_of(points.begin(), points.end(), [&](const Point& p) {
      return p.size.n == r.size.n && p.size.d == r.size.d && p.size.k == r.size.k;
    });
    if (known) continue;
    long most = 0;
    std::vector<double> times, floors;
    for (const auto& o : records())
      if (o.c.id == r.c.id && o.size.n == r.size.n && o.size.d == r.size.d && o.size.k == r.size.k)
        most = std::max(most, o.iterations);
    for (const auto& o : records())
      if (o.c.id == r.c.id && o.size.n == r.size.n && o.size.d == r.size.d && o.size.k == r.size.k &&
          o.iterations == most) {
        times.push_back(o.seconds);
        floors.push_back(o.floor_seconds);  // each timed beside its repetition
      }
    points.push_back({r.size, median(times), median(floors), r.arithmetic_seconds});
  }
  return result;
}

// Least-squares exponents of log(cost) on log n, log d, log k (a coefficient only for a variable that
// takes two or more values); NaN for the others.
std::array<double, 3> fit_exponents(const std::vector<Point>& points, const std::vector<double>& costs) {
  std::array<double, 3> exponents{NAN, NAN, NAN};
  std::vector<int> varied;
  for (int v = 0; v < 3; ++v) {
    const auto value = [&](const Point& p) { return v == 0 ? double(p.size.n) : v == 1 ? double(p.size.d) : p.size.k; };
    if (std::any_of(points.begin(), points.end(), [&](const Point& p) { return value(p) != value(points[0]); }))
      varied.push_back(v);
  }
  if (varied.empty() || points.size() <= varied.size()) return exponents;
  Eigen::MatrixXd A(points.size(), varied.size() + 1);
  Eigen::VectorXd b(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& s = points[i].size;
    const double logs[3] = {std::log(double(s.n)), std::log(double(s.d)), std::log(double(s.k))};
    A(i, 0) = 1;
    for (std::size_t j = 0; j < varied.size(); ++j) A(i, j + 1) = logs[varied[j]];
    b[i] = std::log(costs[i]);
  }
  const Eigen::VectorXd x = A.colPivHouseholderQr().solve(b);
  for (std::size_t j = 0; j < varied.size(); ++j) exponents[varied[j]] = x[j + 1];
  return exponents;
}

std::string exponent_cell(double fitted, double expected) {
  if (std::isnan(fitted)) return "-";
  return fmt::format("{:.2f} ({:.2f})", fitted, expected);
}

std::string size_text(const AlgorithmCase& c, const Size& s) {
  return c.family == Family::oja ? fmt::format("n={} d={} k={}", s.n, s.d, s.k) : fmt::format("n={} p={}", s.n, s.d);
}

}  // namespace

void record_timing(const AlgorithmCase& c, const Size& size, long iterations, double seconds_per_trial,
                   double floor_seconds, double arithmetic_seconds) {
  records().push_back({c, size, iterations, seconds_per_trial, floor_seconds, arithmetic_seconds});
}

void print_summary(std::ostream& out) {
  const auto algorithms = points_by_algorithm();
  if (algorithms.empty()) return;
  const MachinePeak& peak = machine_peak();
  out << fmt::format(
      "\nRatio to the floor (median time per trial / floor), worst over the sizes run; beside it the\n"
      "ratio to the arithmetic floor at that size: the flops and bytes of the algorithm's printed box\n"
      "(marked *; else its family's unavoidable work) at this core's measured {:.1f} GFLOP/s ({}) and {:.1f} "
      "GB/s.\n"
      "Where the box's arithmetic alone is over the target times the floor at some size, the box as\n"
      "printed (each operation it names by the standard method) cannot meet the target on this machine:\n"
      "the target column says so, with that ratio\n",
      peak.flops_per_second * 1e-9, peak.flops_by, peak.bytes_per_second * 1e-9);
  out << fmt::format("{:<40} {:<11} {:>6} {:>9}  {:<22} {}\n", "algorithm", "family", "ratio", "x arith",
                     "at", "target");
  for (const auto& [c, points] : algorithms) {
    const auto worst = std::max_element(points.begin(), points.end(), [](const Point& a, const Point& b) {
      return a.seconds / a.floor_seconds < b.seconds / b.floor_seconds;
    });
    const double ratio = worst->seconds / worst->floor_seconds;
    double box_ratio = 0;  // the box's arithmetic floor over the floor, largest over the sizes
    for (const auto& p : points) box_ratio = std::max(box_ratio, p.arithmetic_seconds / p.floor_seconds);
    std::string target = "none set";
    if (c.budget && ratio <= *c.budget)
      target = fmt::format("<= {:.1f}x: within", *c.budget);
    else if (c.budget && c.box_work && box_ratio > *c.budget)
      target = fmt::format("<= {:.1f}x: OVER, unreachable as printed (its box alone {:.1f}x)", *c.budget,
                           box_ratio);
    else if (c.budget)
      target = fmt::format("<= {:.1f}x: OVER", *c.budget);
    out << fmt::format("{:<40} {:<11} {:>5.2f}x {:>7.1f}x{}  {:<22} {}\n", c.id, to_string(c.family), ratio,
                       worst->seconds / worst->arithmetic_seconds, c.box_work ? "*" : " ",
                       size_text(c, worst->size), target);
  }
  out << fmt::format("\nScaling: exponent of time per trial fitted over the sizes run (least squares on logs),\n"
                     "beside (in brackets) the exponent of the cost model at the same sizes:\n"
                     "O(n d k) for the Oja family, O(n p^2 + p^3) for the covariance family\n");
  out << fmt::format("{:<40} {:>6}  {:<14} {:<14} {:<14}\n", "algorithm", "sizes", "n", "d (p)", "k");
  for (const auto& [c, points] : algorithms) {
    std::vector<double> measured, expected;
    for (const auto& p : points) {
      measured.push_back(p.seconds);
      expected.push_back(expected_cost(c.family, p.size));
    }
    const auto fitted = fit_exponents(points, measured), model = fit_exponents(points, expected);
    out << fmt::format("{:<40} {:>6}  {:<14} {:<14} {:<14}\n", c.id, points.size(),
                       exponent_cell(fitted[0], model[0]), exponent_cell(fitted[1], model[1]),
                       exponent_cell(fitted[2], model[2]));
  }
}

namespace {

// numpy's PCA at each size "n,p" given: median CPU time of five runs, in seconds.
constexpr const char* kNumpyPca = R"(
out = {"numpy": np.__version__}
for size in "%SIZES%".split(";"):
    n, p = map(int, size.split(","))
    X = rng.standard_normal((n, p))
    out[size] = median_cpu(lambda: np.linalg.eigh(X.T @ X / n))
print(json.dumps(out))
)";

// numpy's Oja-family loops at each "call|n|d|k" given: the call, a Python expression of the data X (n x d,
// standard normal: the time of liu2022's loops does not depend on it), the `dugler_shifted` model's samples
// Z (sd sigma = 0.5, which TRUNCATEDMEAN's Lhat assumes and PRIVRANGE's bins see) and shift
// C = V diag(lam) V^T (a random d x k frame V, lam_j = 1 + (k - j) / k), and k. Median CPU time of three
// runs, one at n >= 1e5 (a loop of 1e5 Python steps varies little), in seconds.
constexpr const char* kNumpyOja = R"(
out = {"numpy": np.__version__}
for key in "%KEYS%".split(";"):
    call, n, d, k = key.split("|")
    n, d, k = int(n), int(d), int(k)
    X = rng.standard_normal((n, d))
    Z = X / 2; V = np.linalg.qr(rng.standard_normal((d, k)))[0]; lam = 1 + (k - np.arange(1, k + 1)) / k
    out[key] = median_cpu(lambda: eval(call), 3 if n < 100000 else 1)
print(json.dumps(out))
)";

using Points = std::vector<std::pair<AlgorithmCase, std::vector<Point>>>;

std::optional<double> seconds_at(const Points& algorithms, const std::string& id, const Size& size) {
  for (const auto& [c, points] : algorithms)
    if (c.id == id)
      for (const auto& p : points)
        if (p.size.n == size.n && p.size.d == size.d && p.size.k == size.k) return p.seconds;
  return std::nullopt;
}

// "12.7 ms", "1.19 s" or "-".
std::string duration(std::optional<double> seconds) {
  if (!seconds) return "-";
  // From 999.5 ms on, three digits of milliseconds would read "1e+03 ms".
  return *seconds < 0.9995 ? fmt::format("{:.3g} ms", *seconds * 1e3) : fmt::format("{:.3g} s", *seconds);
}

void print_numpy_covariance(const Points& algorithms, std::ostream& out) {
  std::vector<Size> sizes;
  std::string keys;
  for (const Size& size : standard_sizes(Family::covariance))
    if (seconds_at(algorithms, "cai2024.gaussian_mechanism", size)) {
      sizes.push_back(size);
      keys += fmt::format("{}{},{}", keys.empty() ? "" : ";", size.n, size.d);
    }
  if (sizes.empty()) return;
  std::string why_not;
  const auto numpy = run_numpy_script(kNumpyPca, {{"SIZES", keys}}, why_not);
  out << fmt::format("\nThe covariance family beside numpy's non-private PCA (np.linalg.eigh(X.T @ X / n); median CPU "
                     "time, data generation excluded; numpy {}):\n",
                     numpy ? numpy->value("numpy", "?") : why_not);
  if (!numpy) return;
  out << "| n | p | numpy PCA | baseline.nonprivate_pca | cai2024.gaussian_mechanism | numpy / "
         "gaussian_mechanism |\n"
         "|---|---|---|---|---|---|\n";
  for (const Size& size : sizes) {
    const double theirs = numpy->at(fmt::format("{},{}", size.n, size.d)).get<double>();
    const auto mechanism = seconds_at(algorithms, "cai2024.gaussian_mechanism", size);
    out << fmt::format("| {} | {} | {} | {} | {} | {:.2f}x |\n", size.n, size.d, duration(theirs),
                       duration(seconds_at(algorithms, "baseline.nonprivate_pca", size)), duration(mechanism),
                       theirs / *mechanism);
  }
}

// Each dpbounds algorithm of the Oja family with a numpy loop of the same workload
// (bench/support/numpy_oja_loops.hpp).
struct OjaPair {
  const char* id;
  const char* call;  // of X, Z, V, lam and k (kNumpyOja)
  const char* workload;
};
constexpr OjaPair kOjaPairs[] = {
    {"liu2022.oja", "oja(X)", "Oja, Alg. 1"},
    {"liu2022.private_oja", "private_oja(X)", "Private Oja, Alg. 2"},
    {"liu2022.minibatch_private_oja", "minibatch_private_oja(X)", "Private Oja over minibatches"},
    {"liu2022.private_top_eigenvalue", "private_top_eigenvalue(X)", "top eigenvalue, Alg. 4"},
    {"liu2022.private_mean", "private_mean(X)", "mean, Alg. 5"},
    {"liu2022.dp_pca", "dp_pca(X)", "DP-PCA, Alg. 3"},
    {"baseline.k_dp_ojas", "k_dp_ojas(X, k)", "Private Oja per component, deflated"},
    {"baseline.k_dp_pca", "k_dp_pca(X, k)", "DP-PCA per component, deflated"},
    {"dugler2026.oja", "shifted_oja(Z, V, lam)", "Oja with a QR per sample, Alg. 7"},
    {"dugler2026.private_oja", "shifted_private_oja(Z, V, lam)", "Private Oja over batches, Alg. 1"},
    {"dugler2026.priv_range", "priv_range(Z, V, lam)", "PRIVRANGE, Alg. 4"},
    {"dugler2026.truncated_mean", "truncated_mean(Z, V, lam)", "TRUNCATEDMEAN, Alg. 5"},
    {"dugler2026.adadpo", "adadpo(Z, V, lam)", "ADADPO, Alg. 2"},
    {"dugler2026.tadadpo", "tadadpo(Z, V, lam)", "TADADPO, Alg. 3"},
    {"dugler2026.two_stage", "two_stage(Z, V, lam)", "ADADPO, then TADADPO"},
};

std::string numpy_key(const OjaPair& pair, const Size& size) {
  return fmt::format("{}|{}|{}|{}", pair.call, size.n, size.d, size.k);
}

void print_numpy_oja(const Points& algorithms, std::ostream& out) {
  std::vector<std::pair<const OjaPair*, Size>> rows;
  std::string keys;
  for (const Size& size : standard_sizes(Family::oja))
    for (const OjaPair& pair : kOjaPairs)
      if (seconds_at(algorithms, pair.id, size)) {
        rows.push_back({&pair, size});
        keys += fmt::format("{}{}", keys.empty() ? "" : ";", numpy_key(pair, size));
      }
  if (rows.empty()) return;
  std::string why_not;
  const auto numpy = run_numpy_script(
      std::string(kNumpyMechanisms) + kNumpyOjaLoops + kNumpyDpPcaLoops + kNumpyAdaptiveLoops + kNumpyOja,
      {{"KEYS", keys}}, why_not);
  out << fmt::format(
      "\nThe Oja family beside numpy's loops of the same workloads (per sample, or per batch for an "
      "algorithm that works in batches, as a researcher would write them: "
      "bench/support/numpy_{{oja,dp_pca,adaptive}}_loops.hpp; median CPU time, data generation excluded; "
      "numpy {}):\n",
      numpy ? numpy->value("numpy", "?") : why_not);
  if (!numpy) return;
  out << "| n | d | k | workload | numpy loop | dpbounds | numpy / dpbounds "
         "|\n|---|---|---|---|---|---|---|\n";
  for (const auto& [pair, size] : rows) {
    const double theirs = numpy->at(numpy_key(*pair, size)).get<double>();
    const double ours = *seconds_at(algorithms, pair->id, size);
    out << fmt::format("| {} | {} | {} | `{}`: {} | {} | {} | {:.1f}x |\n", size.n, size.d, size.k, pair->id,
                       pair->workload, duration(theirs), duration(ours), theirs / ours);
  }
}

}  // namespace

void print_numpy_comparison(std::ostream& out) {
  const auto algorithms = points_by_algorithm();
  print_numpy_covariance(algorithms, out);
  print_numpy_oja(algorithms, out);
}

}  // namespace dpb::bench
