#pragma once
// The seam every algorithm plugs into (DESIGN.md §3 "Estimators and the registry"): an id, a
// parameter schema with defaults and documentation, what data and oracle quantities it needs, its
// privacy claim, and a factory.
#include <Eigen/Dense>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/estimate.hpp"
#include "algorithms/privacy.hpp"
#include "core/models/model.hpp"
#include "core/params.hpp"
#include "core/rng.hpp"
#include "core/sample_matrices.hpp"

namespace dpb::alg {

struct Input {
  const core::SampleMatrices* samples = nullptr;  // Oja family: A_i Q products
  const Eigen::MatrixXd* X = nullptr;             // covariance family: d x n vectors (columns)
  int k = 1;
  Privacy privacy;
  const core::ModelInfo* oracle = nullptr;  // population quantities; simulation only
  // A public clip radius for the records' ||x_i||_2, known before the algorithm reads them (`dpbounds pca`: the
  // radius its preprocessing chose, given or released by a private step on the ledger); 0 when none. The §2.9
  // baselines (DP-Gauss-1/2, the noisy power method), whose clip radii otherwise default to ones derived
  // from the oracle, clip to this one instead, so user data need no oracle.
  double clip_radius = 0;
  // Set by the auditor: a mechanism that composes per-step Gaussian releases appends them to
  // Estimate::transcript (the noisy power method always does). Off elsewhere, so runs allocate nothing for it.
  bool record_transcript = false;
  // Set by the auditor's white-box mode: a data-independent start (d x m, orthonormal columns, m >= k) that a
  // private iterative method uses in place of its random one (the first k columns: the Oja family, DP-PCA and
  // the deflations built on them, ADADPO, TADADPO, the noisy power method), so the query of the step that
  // reads the audited record first is known when the neighbours are built. Every claim holds for any fixed
  // start: the start is public randomness, never data.
  const Eigen::MatrixXd* start = nullptr;
};

// in.start checked against d and k, its first k columns orthonormal (throws dpb::InvalidArgument naming
// `owner`), or nullptr when the algorithm draws its own start.
const Eigen::MatrixXd* given_start(const Input& in, Eigen::Index d, Eigen::Index k, const std::string& owner);

class Estimator {
 public:
  virtual ~Estimator() = default;
  virtual Estimate run(const Input& in, core::Rng& rng) const = 0;
  virtual PrivacyClaim claim(const Input& in) const = 0;
};

enum class ParamType { real, integer, choice, text };  // text: any string (a command line, a path)

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::real;
  core::ParamValue default_value;     // a number, or for `choice` one of `choices`
  std::optional<double> min, max;     // inclusive range for real and integer parameters
  std::vector<std::string> choices;   // allowed values of a `choice`
  std::string doc;
  std::string spec_ref;  // e.g. "liu2022 §8.1", "cai2024 A6"
};

// Schema builders every family's registration uses.
ParamSpec real_param(std::string name, double default_value, std::optional<double> min,
                     std::optional<double> max, std::string doc, std::string spec_ref);
ParamSpec integer_param(std::string name, double default_value, std::optional<double> min, std::string doc,
                        std::string spec_ref);
ParamSpec choice_param(std::string name, std::string default_value, std::vector<std::string> choices,
                       std::string doc, std::string spec_ref);
ParamSpec text_param(std::string name, std::string default_value, std::string doc, std::string spec_ref);

// The data an algorithm reads. vectors: the records X (d x n). sample_matrices: the matrices A_i, through
// their products A_i Q. psd_samples: the records when the model has them, else the model's matrices when
// they are x x^T or C + x x^T: the dugler2026 §2.9 baselines, which trace-clip and sum the A_i of §7 F.1.
enum class DataNeed { vectors, sample_matrices, psd_samples };
// "vectors", "sample_matrices", "psd_samples" (the catalog's `needs`).
const char* to_string(DataNeed need);

struct AlgorithmEntry {
  std::string id = {};       // "liu2022.dp_pca"
  std::string summary = {};  // one line
  std::string source = {};   // paper, algorithm box
  std::vector<ParamSpec> params = {};
  DataNeed needs = DataNeed::vectors;
  std::vector<std::string> oracle_quantities = {};  // population quantities it reads (lambda1, K, ...)
  std::string privacy = {};                         // the claim in words
  std::function<std::unique_ptr<Estimator>(const core::ParamMap&)> factory = {};
  // A deliberately broken variant (algorithms/mutants, id "mutant.*") for testing the privacy auditor:
  // never in default suites. `breaks` is the id of the real algorithm it breaks, whose claim it keeps.
  bool mutant = false;
  std::string breaks = {};
  // A mutant whose ledger still declares the intended sensitivity (a loop that skips a clip): its ledger
  // spends no more than the claim, and the sensitivity probe or an audit at the right record shows the break.
  bool ledger_hides_break = false;
  // A textbook mechanism whose privacy loss is known in closed form and attained by one pair of records
  // (baseline.gaussian_mean, baseline.laplace_mean): its audits measure the auditor, not a paper's algorithm,
  // so summaries of audit tightness report it apart.
  bool calibration_target = false;
  // Input::k is the row sparsity (kumar2025), not the number of components: an experiment passes its
  // cell's k (the sparse model's) rather than the target's rank.
  bool k_is_sparsity = false;
  // What its results depend on besides its resolved parameters, as a digest that enters the experiment's
  // key (external.command: the bytes of the program and its declared inputs); unset for built-ins.
  std::function<std::string(const core::ParamMap& resolved)> provenance = {};
};

// The algorithm's human name, for tables and legends: its summary up to the first ": " ("DP-PCA",
// "Private Oja"), the convention every built-in summary follows (a test checks it); the id for a mutant
// and for a summary without such a lead (a plug-in's, say).
std::string display_name(const AlgorithmEntry& entry);

class Registry {
 public:
  // Throws dpb::InvalidArgument if the id is taken or the entry is malformed.
  void add(AlgorithmEntry entry);
  // Throws dpb::InvalidArgument listing the known ids if `id` is unknown.
  const AlgorithmEntry& find(const std::string& id) const;
  // A deque: entries added at run time (register_runtime_algorithm) leave references to the others valid.
  const std::deque<AlgorithmEntry>& entries() const { return entries_; }

  // Defaults filled in, every given value checked against the schema (unknown name, wrong type,
  // out of range, not a listed choice -> dpb::InvalidArgument saying what is allowed).
  core::ParamMap resolve(const std::string& id, const core::ParamMap& given) const;
  // Every run of a non-mutant estimator made here checks its ledger against its claim and throws
  // PrivacyOverspend (algorithms/mechanisms/accountant.hpp) when the ledger spends more.
  std::unique_ptr<Estimator> make(const std::string& id, const core::ParamMap& given) const;

 private:
  friend void register_runtime_algorithm(AlgorithmEntry entry);
  std::deque<AlgorithmEntry> entries_;
};

// The built-in algorithms of dpbounds, registered once, in a fixed order; then the plug-ins; the
// mutants come last.
const Registry& algorithm_registry();

// Adds an algorithm written outside dpbounds (docs/extending.md): call it at static initialisation in
// the file that defines the algorithm, `const bool registered = dpb::alg::register_plugin_algorithm({...});`,
// and link that file into an executable with dpbounds::dpb_cli. Throws dpb::InvalidArgument once the
// registry is in use (too late to change what the verbs see).
bool register_plugin_algorithm(AlgorithmEntry entry);

// Adds an algorithm while the registry is in use (the Python module's `@dpbounds.algorithm`): every later
// lookup sees it. Registering an id added this way again replaces it (a notebook cell run twice); a
// built-in or plug-in id is refused (dpb::InvalidArgument). Not safe while another thread looks an
// algorithm up: register before running.
void register_runtime_algorithm(AlgorithmEntry entry);

}  // namespace dpb::alg
