// What dpbounds knows: its algorithms, models and theorems, and one bound evaluated.
#include <nlohmann/json.hpp>
#include <fmt/format.h>

#include <cmath>

#include "algorithms/mechanisms/gaussian.hpp"
#include "bindings.hpp"
#include "convert.hpp"
#include "core/errors.hpp"
#include "verify/theorems/bound_evaluation.hpp"
#include "verify/experiment/catalog.hpp"
#include "verify/theorems/theorem_table.hpp"

namespace dpb::python {

void bind_catalog(py::module_& m) {
  m.def("catalog", [](const std::string& kind) { return to_python(verify::catalog_json(kind)); }, py::arg("kind"));
  m.def(
      "theorems",
      [](const std::string& paper, const std::string& kind) {
        verify::TheoremFilter filter{paper, std::nullopt};
        if (!kind.empty()) filter.kind = bounds::parse_kind(kind);
        py::list out;
        for (const auto& theorem : verify::select_theorems(verify::all_theorems(), filter))
          out.append(to_python(verify::theorem_json(*theorem)));
        return out;
      },
      py::arg("paper"), py::arg("kind"));
  m.def(
      "bound",
      [](const std::string& id, const py::dict& params, bool example) {
        bounds::Params given;
        for (const auto& [key, value] : params) {
          const std::string name = py::str(key);
          if (!is_number(value))
            throw InvalidArgument(fmt::format("bound {}: parameter {} = {} must be a number", id, name,
                                              std::string(py::repr(value))));
          given.emplace(name, value.cast<double>());
        }
        return to_python(verify::to_json(verify::evaluate_bound_request(
            id, given, example,
            "give parameters as keywords, bound(ID, n=..., d=..., epsilon=...); example=True starts from the "
            "theorem's example point")));
      },
      py::arg("id"), py::arg("params"), py::arg("example"));
  m.def(
      "gaussian_sd",
      [](double sensitivity, double epsilon, double delta, const std::string& calibration) {
        if (!(sensitivity > 0) || !std::isfinite(sensitivity))
          throw InvalidArgument(fmt::format("gaussian_sd: sensitivity must be a finite number > 0, got {}", sensitivity));
        return alg::gaussian_sigma(alg::parse_gaussian_calibration(calibration, "gaussian_sd"), sensitivity, epsilon,
                                   delta);
      },
      py::arg("sensitivity"), py::arg("epsilon"), py::arg("delta"), py::arg("calibration"));
}

}  // namespace dpb::python
