#pragma once
// Data models with exact population quantities (DESIGN.md §1 core/, §4 "Params").
#include <Eigen/Dense>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/params.hpp"
#include "core/rng.hpp"
#include "core/sample_matrices.hpp"

namespace dpb::core {

// Population quantities of one model instance (the oracle an estimator may read in simulation).
struct ModelInfo {
  std::string model;                // catalogue id, e.g. "spiked_gaussian"
  Eigen::MatrixXd Sigma;            // E[A_i] (= covariance for zero-mean vector data), d x d
  Eigen::VectorXd eigenvalues;      // all d eigenvalues of Sigma, descending
  Eigen::MatrixXd target;           // d x r: the leading eigenvectors the estimators should recover
  // Closed forms where the specs give them (liu2022 §4.4/§7, cai2024 §1.3); empty otherwise.
  std::optional<double> V;               // liu2022 A.3, normalised by lambda1^2
  std::optional<double> gamma2;          // liu2022 A.4
  std::optional<double> kappa;           // lambda1 / (lambda1 - lambda2)
  std::optional<double> effective_rank;  // cai2024: (r lambda + p sigma^2) / (lambda + sigma^2)
  // Name -> value view for theorem evaluation: d, r, lambda1, lambda2, lambda (cai2024's signal
  // strength), sigma2, kappa, V, gamma2, ... (only what is known exactly).
  std::map<std::string, double> params;

  Eigen::Index d() const { return Sigma.rows(); }
  Eigen::Index r() const { return target.cols(); }
};

class Model {
 public:
  virtual ~Model() = default;
  virtual const ModelInfo& info() const = 0;
  // n iid samples as the columns of a d x n matrix.
  virtual Eigen::MatrixXd sample(Eigen::Index n, Rng& rng) const = 0;
  // The same data as Oja-family sample matrices; default A_i = x_i x_i^T.
  virtual std::unique_ptr<SampleMatrices> sample_matrices(Eigen::Index n, Rng& rng) const;
  // False for a model whose data are matrices that are not outer products (then `sample` throws).
  virtual bool gives_vectors() const { return true; }
};

struct ModelParamDoc {
  std::string name;
  std::string default_value;  // as text ("1", "gaussian", "required")
  std::string doc;
};

struct ModelEntry {
  std::string id;
  std::string summary;
  std::string source;  // paper and section
  std::vector<ModelParamDoc> params;
  // Builds one instance; random structure (Haar U, the spike direction) is drawn from rng, so a
  // trial that owns its rng owns its instance. Throws dpb::InvalidArgument on bad parameters.
  std::function<std::unique_ptr<Model>(const ParamMap&, Rng&)> make;
};

// Every model, in a fixed order: core's own, then the registered ones in registration order.
const std::vector<ModelEntry>& model_catalog();
// Adds a model that a layer above core defines (lowerbounds registers the families of its lower-bound
// constructions, which core cannot see: docs/models.md). Call it at static initialisation, before the
// catalog is first read: `const bool registered = dpb::core::register_model({...});` in a file the program
// links. Throws dpb::InvalidArgument if the catalog is already in use or the id is taken.
bool register_model(ModelEntry entry);
// Throws dpb::InvalidArgument listing the known ids if `id` is unknown.
const ModelEntry& find_model(const std::string& id);
std::unique_ptr<Model> make_model(const std::string& id, const ParamMap& params, Rng& rng);

}  // namespace dpb::core
