// Issue 18: "the output distribution on a fixed D against a reference build". For every real algorithm the audit
// suite audits, the distribution of the first numbers its output releases, on a fixed D, against the empirical
// CDF a reference build stored (reference_output_distributions.json), and whether it released at all. Bits may change (a new stream layout, a
// faster sampler: issue 23); the distribution may not. It guards what no noise probe reads: selections (the
// exponential mechanism, Bingham draws, top-k supports), histogram releases, thresholds and tests.
//
// To store new references after a change that is meant to move a distribution (say why in the commit):
//   build/tests/tests_verify "[.regenerate-reference]"
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/registry.hpp"
#include "core/params.hpp"
#include "verify/audit/auditor.hpp"
#include "verify/audit/learned_score.hpp"
#include "verify/experiment/canonical.hpp"
#include "verify/experiment/parse.hpp"
#include "verify/runner/trial_input.hpp"
#include "tests/verify/experiment/repository_configs.hpp"

namespace alg = dpb::alg;
using dpb::verify::AuditSpec;

namespace {

constexpr long kReferenceRuns = 20000;  // the stored CDFs
constexpr long kTestRuns = 2000;        // the runs each check draws, on streams the reference never used
// The numbers stored per algorithm: whether the output released anything (number 0), then up to this many of the
// numbers output_features gives (the entries of Q Q^T, Q diag(lambda) Q^T, the eigenvalues, Sigma, the mean, the
// scalar) that vary, evenly spaced over them.
constexpr std::size_t kFeatures = 4;
constexpr int kPoints = 49;  // stored CDF points: the 2%, 4%, ..., 98% quantiles of the reference
// Two-sample Kolmogorov–Smirnov at the stored points (a sup over fewer points: conservative) at level 1e-6 per
// number: c(alpha) = sqrt(ln(2 / alpha) / 2) = 2.69, times sqrt(1/m + 1/n): a CDF gap of 0.063 at m = 2000,
// n = 20000. Over ~150 numbers a false alarm has probability 1.5e-4.
constexpr double kAlpha = 1e-6;
// A number an output does not release (BOTTOM): below every number, as the auditor's scores put it.
constexpr double kMissing = std::numeric_limits<double>::lowest();
// Rounding error must not pass for a distribution, nor move a value across a stored point (as it would at the ties
// of a selection's few outcomes): values are kept to 10 significant digits, and those below this share of the
// largest magnitude of any number the output releases (the off-diagonal of Q Q^T when k = d, 1e-16) count as 0.
constexpr double kNegligible = 1e-9;

std::filesystem::path reference_file() {
  return dpb::verify::test::configs_dir().parent_path() / "tests" / "verify" / "audit" /
         "reference_output_distributions.json";
}

// The suite's audited real algorithms, one row per (algorithm, parameters): the first.
std::vector<AuditSpec> suite_rows() {
  const auto suite = dpb::verify::load_experiment(dpb::verify::test::configs_dir() / "experiments" / "audits.yaml");
  std::vector<AuditSpec> rows;
  std::set<std::string> seen;
  for (const AuditSpec& spec : suite.audits) {
    const alg::AlgorithmEntry& entry = alg::algorithm_registry().find(spec.algorithm);
    if (entry.mutant || !seen.insert(spec.algorithm + dpb::verify::to_json(spec.params).dump()).second) continue;
    rows.push_back(spec);
  }
  return rows;
}

std::string key_of(const AuditSpec& spec) {
  return spec.algorithm + " " + dpb::verify::to_json(spec.params).dump();
}

double rounded(double x) {
  if (x == 0 || !std::isfinite(x) || x == kMissing) return x;
  const double scale = std::pow(10.0, 9 - std::floor(std::log10(std::abs(x))));
  return std::round(x * scale) / scale;
}

// `x` with values negligible against `magnitude` set to 0.
double snapped(double x, double magnitude) { return x != kMissing && std::abs(x) <= kNegligible * magnitude ? 0 : x; }

// Every number of `runs` outputs on the row's D (the audit's data), one vector per number: 0 is 1 when the output
// released anything and 0 for BOTTOM, 1 + i the i-th of output_features (kMissing where an output releases fewer).
// Streams (role, run).
std::vector<std::vector<double>> sample(const AuditSpec& spec, long runs, const char* role) {
  const alg::AlgorithmEntry& entry = alg::algorithm_registry().find(spec.algorithm);
  const auto estimator = alg::algorithm_registry().make(spec.algorithm, spec.params);
  const auto model = dpb::verify::audit_model(spec);
  dpb::core::Rng data_rng = dpb::verify::audit_stream(spec, 0, dpb::verify::kAuditDataRole);
  const dpb::verify::TrialData data = dpb::verify::trial_data_from_vectors(model->sample(spec.n, data_rng));
  const alg::Input in = dpb::verify::make_input(entry, data, spec.k.value_or(1), spec.privacy, &model->info());
  std::vector<Eigen::VectorXd> outputs;
  Eigen::Index count = 0;
  for (long run = 0; run < runs; ++run) {
    dpb::core::Rng rng = dpb::verify::audit_stream(spec, std::uint64_t(run), role);
    outputs.push_back(dpb::verify::output_features(estimator->run(in, rng)));
    count = std::max(count, outputs.back().size());
  }
  std::vector<std::vector<double>> numbers(static_cast<std::size_t>(count + 1));
  for (const Eigen::VectorXd& f : outputs) {
    numbers[0].push_back(f.size() > 0 ? 1.0 : 0.0);
    for (Eigen::Index i = 0; i < count; ++i)
      numbers[std::size_t(i + 1)].push_back(i < f.size() ? rounded(f(i)) : kMissing);
  }
  return numbers;
}

double largest_magnitude(const std::vector<double>& x) {
  double m = 0;
  for (double v : x)
    if (v != kMissing) m = std::max(m, std::abs(v));
  return m;
}

double cdf(const std::vector<double>& sorted, double x) {
  return double(std::upper_bound(sorted.begin(), sorted.end(), x) - sorted.begin()) / double(sorted.size());
}

// The largest CDF gap of `spec`'s stored numbers (kTestRuns runs) over its critical value; a number stored as a
// constant that is no longer one counts as infinitely far. Also the numbers checked.
std::pair<double, int> largest_gap(const AuditSpec& spec, const nlohmann::json& reference, const std::string& key) {
  const double critical = std::sqrt(std::log(2 / kAlpha) / 2) *
                          std::sqrt(1.0 / double(kTestRuns) + 1.0 / reference.at("runs").get<double>());
  auto numbers = sample(spec, kTestRuns, "reference check");
  double largest = 0;
  int checked = 0;
  for (const auto& stored : reference.at("algorithms").at(key)) {
    const auto index = stored.at("index").get<std::size_t>();
    // No run released that many numbers (a release the reference saw rarely): all below every number.
    if (index >= numbers.size()) numbers.resize(index + 1, std::vector<double>(std::size_t(kTestRuns), kMissing));
    std::vector<double> x = numbers[index];
    const double magnitude = stored.at("magnitude").get<double>();
    for (double& v : x) v = snapped(v, magnitude);
    std::sort(x.begin(), x.end());
    ++checked;
    if (stored.contains("constant")) {
      const double constant = stored.at("constant").get<double>();
      if (x.front() != constant || x.back() != constant) largest = std::numeric_limits<double>::infinity();
      continue;
    }
    for (const auto& point : stored.at("cdf"))
      largest = std::max(largest, std::abs(cdf(x, point.at(0).get<double>()) - point.at(1).get<double>()) / critical);
  }
  return {largest, checked};
}

nlohmann::json load_reference() {
  std::ifstream file(reference_file());
  REQUIRE(file);
  return nlohmann::json::parse(file);
}

}  // namespace

TEST_CASE("every audited algorithm's output distribution on a fixed D is the reference build's",
          "[audit][statistical][slow]") {
  const nlohmann::json reference = load_reference();
  int distributions = 0;
  for (const AuditSpec& spec : suite_rows()) {
    INFO(key_of(spec));
    REQUIRE(reference.at("algorithms").contains(key_of(spec)));  // a new row: regenerate (see the top)
    const auto [gap, numbers] = largest_gap(spec, reference, key_of(spec));
    INFO("largest CDF gap " << gap << " of the critical value");
    CHECK(numbers >= 1);  // every row checks something: at least whether it releases
    CHECK(gap <= 1);
    for (const auto& stored : reference.at("algorithms").at(key_of(spec))) distributions += !stored.contains("constant");
  }
  CHECK(distributions >= 3 * 25);  // most algorithms have several numbers that vary
}

TEST_CASE("a selection at another temperature, a histogram without its threshold: the reference check fails",
          "[audit][statistical]") {
  // What no noise probe reads. The PCA exponential mechanism at 0.7 and 1.5 times its eps (a temperature slipped).
  // PRIVRANGE's histogram releasing every occupied bin, and Alg. 4's with its threshold halved, against the real
  // algorithms' references, at the suite's settings and at the ladder rows' (n = 4 and 8, C1 = 0.1), where the
  // real histograms never release.
  const nlohmann::json reference = load_reference();
  std::map<std::string, AuditSpec> rows;
  for (const AuditSpec& spec : suite_rows()) rows.emplace(key_of(spec), spec);
  const std::string exponential = "baseline.exponential_mechanism_pca {\"beta\":3.0}";
  for (const double factor : {0.7, 1.5}) {
    AuditSpec spec = rows.at(exponential);
    spec.privacy.epsilon *= factor;
    const double gap = largest_gap(spec, reference, exponential).first;
    INFO("eps x" << factor << ": " << gap);
    CHECK(gap > 1);
  }
  for (const auto& [mutant, real] :
       {std::pair{"mutant.priv_range_no_threshold", "dugler2026.priv_range {}"},
        std::pair{"mutant.priv_range_no_threshold", "dugler2026.priv_range {\"C1\":0.1}"},
        std::pair{"mutant.top_eigenvalue_threshold_halved", "liu2022.private_top_eigenvalue {}"},
        std::pair{"mutant.top_eigenvalue_no_threshold", "liu2022.private_top_eigenvalue {\"C1\":0.1}"}}) {
    AuditSpec spec = rows.at(real);
    spec.algorithm = mutant;
    const double gap = largest_gap(spec, reference, real).first;
    INFO(mutant << " against " << real << ": " << gap);
    CHECK(gap > 1);
  }
}

TEST_CASE("regenerate the reference output distributions", "[.regenerate-reference]") {
  nlohmann::json algorithms = nlohmann::json::object();
  for (const AuditSpec& spec : suite_rows()) {
    auto numbers = sample(spec, kReferenceRuns, "reference");
    double magnitude = 0;  // of every number but the release indicator
    for (std::size_t i = 1; i < numbers.size(); ++i) magnitude = std::max(magnitude, largest_magnitude(numbers[i]));
    std::vector<std::size_t> varying;
    for (std::size_t i = 0; i < numbers.size(); ++i) {
      if (i > 0)
        for (double& v : numbers[i]) v = snapped(v, magnitude);
      std::sort(numbers[i].begin(), numbers[i].end());
      if (numbers[i].front() != numbers[i].back()) varying.push_back(i);
    }
    nlohmann::json stored = nlohmann::json::array();
    // Whether it releases, always; then up to kFeatures of the numbers that vary, evenly spaced.
    const auto store = [&](std::size_t index) {
      const std::vector<double>& x = numbers[index];
      nlohmann::json entry{{"index", index}, {"magnitude", index > 0 ? magnitude : 0.0}};
      if (x.front() == x.back()) {
        entry["constant"] = x.front();
      } else {
        nlohmann::json points = nlohmann::json::array();
        for (int p = 1; p <= kPoints; ++p) {
          const double value = x[std::size_t(double(p) / (kPoints + 1) * double(x.size()))];
          points.push_back({value, cdf(x, value)});
        }
        entry["cdf"] = points;
      }
      stored.push_back(entry);
    };
    store(0);
    std::erase(varying, std::size_t{0});
    const std::size_t kept = std::min(kFeatures, varying.size());
    for (std::size_t f = 0; f < kept; ++f) store(varying[f * varying.size() / kept]);
    algorithms[key_of(spec)] = stored;
  }
  // One line per algorithm: a diff of a regeneration shows which distributions moved.
  std::ofstream out(reference_file());
  out << fmt::format("{{\"runs\": {}, \"algorithms\": {{\n", kReferenceRuns);
  bool first = true;
  for (const auto& [key, stored] : algorithms.items()) {
    out << (first ? "" : ",\n") << nlohmann::json(key).dump() << ": " << stored.dump();
    first = false;
  }
  out << "\n}}\n";
  REQUIRE(out);
}
