// One algorithm run on the caller's own data: its estimate, its claim and the ledger behind it.
#include <fmt/format.h>

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

// What the estimate releases, the claim and the accountant's reading of the ledger. The diagnostics are
// left out: they are read off the data without noise (algorithms/estimate.hpp).
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
  return out;
}

}  // namespace

void bind_run(py::module_& m) {
  m.def(
      "run_algorithm",
      [](const std::string& id, const py::object& X, int k, double epsilon, double delta, const py::object& params,
         std::uint64_t seed, const std::string& neighbours) {
        const alg::Registry& registry = alg::algorithm_registry();
        const alg::AlgorithmEntry& entry = registry.find(id);
        const alg::Privacy privacy{epsilon, delta, parse_neighbours(neighbours)};
        alg::validate(privacy);
        const core::ParamMap given = param_map(params, id);
        const auto estimator = registry.make(id, given);
        // The records as the d x n matrix dpbounds' algorithms read (one copy; numpy's n x d C order is the
        // same memory), and for the Oja family the sample matrices A_i = x_i x_i^T over them.
        Eigen::MatrixXd data = records(X, "X");
        if (k < 1 || k > data.rows())
          throw InvalidArgument(fmt::format("{}: k must lie in [1, d = {}], got {}", id, data.rows(), k));
        std::optional<core::VectorSamples> samples;
        alg::Input input;
        input.k = k;
        input.privacy = privacy;
        if (entry.needs == alg::DataNeed::sample_matrices) {
          samples.emplace(std::move(data));
          input.samples = &*samples;
          input.X = &samples->vectors();
        } else {
          input.X = &data;
        }
        core::Rng rng(seed, 0);
        alg::Estimate estimate;
        {
          const py::gil_scoped_release free;
          estimate = estimator->run(input, rng);
        }
        return release(estimate);
      },
      py::arg("id"), py::arg("X"), py::arg("k"), py::arg("epsilon"), py::arg("delta"), py::arg("params"),
      py::arg("seed"), py::arg("neighbours"));
}

}  // namespace dpb::python
