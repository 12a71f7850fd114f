// One algorithm run on the caller's own data: its estimate, its claim and the ledger behind it.
#include <nlohmann/json.hpp>
#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "algorithms/mechanisms/accountant.hpp"
#include "algorithms/mechanisms/ledger_json.hpp"
#include "algorithms/registry.hpp"
#include "bindings.hpp"
#include "convert.hpp"
#include "core/errors.hpp"
#include "core/sample_matrices.hpp"

namespace dpb::python {
namespace {

alg::Neighbours parse_neighbours(const std::string& name) {
  if (name == "replace") return alg::Neighbours::replace;
  if (name == "add_remove") return alg::Neighbours::add_remove;
  throw InvalidArgument(fmt::format("neighbours '{}' is not one of replace, add_remove", name));
}

// The Oja family's data given as the matrices themselves: an (n, d, d) C-ordered float64 array, A_i =
// samples[i], read in place (no copy; the array is held for the run). A_i Q costs O(d^2 k).
class ArraySamples final : public core::SampleMatrices {
 public:
  explicit ArraySamples(py::array_t<double, py::array::c_style> samples)
      : samples_(std::move(samples)), n_(samples_.shape(0)), d_(samples_.shape(1)) {}
  Eigen::Index n() const override { return n_; }
  Eigen::Index d() const override { return d_; }
  void apply(Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q, Eigen::Ref<Eigen::MatrixXd> out) const override {
    out.noalias() = matrix(i) * Q;
  }

 private:
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<const RowMajor> matrix(Eigen::Index i) const { return {samples_.data() + i * d_ * d_, d_, d_}; }

  py::array_t<double, py::array::c_style> samples_;
  Eigen::Index n_, d_;
};

// `value` as an (n, d, d) array of finite numbers with n, d >= 1, converted to C-ordered float64 only
// when it is not already.
py::array_t<double, py::array::c_style> sample_array(const py::handle& value) {
  auto array = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
  if (!array) throw InvalidArgument("samples must be an array of numbers");
  if (array.ndim() != 3 || array.shape(0) < 1 || array.shape(1) < 1 || array.shape(1) != array.shape(2))
    throw InvalidArgument(fmt::format("samples must be an (n, d, d) array of the matrices A_i, n, d >= 1 (got shape {})",
                                      std::string(py::str(py::getattr(array, "shape")))));
  const double* data = array.data();
  for (py::ssize_t i = 0; i < array.size(); ++i)
    if (!std::isfinite(data[i]))
      throw InvalidArgument(fmt::format("samples: entry {} of A_{} is {}; every entry must be finite",
                                        i % (array.shape(1) * array.shape(1)), i / (array.shape(1) * array.shape(1)),
                                        data[i]));
  return array;
}

// What the estimate releases, the claim, the accountant's reading of the ledger and the release notes. The
// diagnostics are left out: they are read off the data without noise (algorithms/estimate.hpp).
py::dict release(const alg::Estimate& e) {
  py::dict out;
  out["Q"] = e.Q ? py::object(to_numpy(*e.Q)) : py::none();
  out["Sigma"] = e.Sigma ? py::object(to_numpy(*e.Sigma)) : py::none();
  out["eigenvalues"] = e.eigenvalues ? py::object(to_numpy(*e.eigenvalues)) : py::none();
  out["mean"] = e.mean ? py::object(to_numpy(*e.mean)) : py::none();
  out["scalar"] = e.scalar ? py::object(py::float_(*e.scalar)) : py::none();
  out["claim"] = to_python(alg::to_json(e.claim));
  const alg::Spend spend = alg::account(e.ledger, e.claim.delta, e.claim.neighbours);
  out["spent"] = to_python(nlohmann::json{{"epsilon", spend.epsilon}, {"delta", spend.delta}, {"rule", spend.rule}});
  out["ledger"] = to_python(alg::to_json(e.ledger, e.claim.neighbours));
  py::list notes;
  for (const auto& note : e.release_notes) notes.append(note);
  out["notes"] = notes;
  return out;
}

}  // namespace

void bind_run(py::module_& m) {
  m.def(
      "run_algorithm",
      [](const std::string& id, const py::object& X, const py::object& samples, int k, double epsilon, double delta,
         const py::object& params, std::uint64_t seed, const std::string& neighbours) {
        const alg::Registry& registry = alg::algorithm_registry();
        const alg::AlgorithmEntry& entry = registry.find(id);
        const alg::Privacy privacy{epsilon, delta, parse_neighbours(neighbours)};
        alg::validate(privacy);
        const core::ParamMap given = param_map(params, id);
        const auto estimator = registry.make(id, given);
        if (X.is_none() == samples.is_none())
          throw InvalidArgument(fmt::format("{}: give the records X (n x d) or, for the Oja family, the matrices "
                                            "samples (n x d x d), one of the two", id));
        alg::Input input;
        input.k = k;
        input.privacy = privacy;
        // Records: the d x n matrix dpbounds' algorithms read (one copy; numpy's n x d C order is the same
        // memory), and for the Oja family the sample matrices A_i = x_i x_i^T over them.
        Eigen::MatrixXd data;
        std::optional<core::VectorSamples> vectors;
        std::optional<ArraySamples> matrices;
        if (!samples.is_none()) {
          if (entry.needs != alg::DataNeed::sample_matrices)
            throw InvalidArgument(fmt::format("{} reads records: give X (n x d), not samples", id));
          matrices.emplace(sample_array(samples));
          input.samples = &*matrices;
        } else if (entry.needs == alg::DataNeed::sample_matrices) {
          vectors.emplace(records(X, "X"));
          input.samples = &*vectors;
          input.X = &vectors->vectors();
        } else {
          data = records(X, "X");
          input.X = &data;
        }
        const Eigen::Index d = input.samples ? input.samples->d() : input.X->rows();
        if (k < 1 || k > d) throw InvalidArgument(fmt::format("{}: k must lie in [1, d = {}], got {}", id, d, k));
        core::Rng rng(seed, 0);
        alg::Estimate estimate;
        {
          const py::gil_scoped_release free;
          estimate = estimator->run(input, rng);
        }
        return release(estimate);
      },
      py::arg("id"), py::arg("X"), py::arg("samples"), py::arg("k"), py::arg("epsilon"), py::arg("delta"), py::arg("params"),
      py::arg("seed"), py::arg("neighbours"));
}

}  // namespace dpb::python
