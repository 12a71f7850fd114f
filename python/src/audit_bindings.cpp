// The privacy auditor from Python: the same spec, keys and checks as an experiment's `audit:` entry.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "core/errors.hpp"
#include "verify/audit/audit_report.hpp"
#include "verify/audit/audit_spec.hpp"
#include "verify/audit/auditor.hpp"
#include "verify/audit/scores.hpp"

namespace dpb::python {

void bind_audit(py::module_& m) {
  m.def(
      "audit",
      [](const std::string& spec_json) {
        // JSON is YAML: the keys go through the parser of an experiment's `audit:` section, so they are
        // checked (and named in errors) exactly as there.
        const verify::AuditSpec spec = verify::parse_audit_spec(YAML::Load(spec_json), "audit");
        verify::AuditResult result;
        {
          const py::gil_scoped_release free;
          result = verify::run_audit(spec);
        }
        py::dict out = to_python(verify::to_json(result));
        out["text"] = verify::to_text(result);
        out["line"] = verify::audit_line(result);
        return out;
      },
      py::arg("spec_json"));
  m.def("audit_scores", [] {
    py::dict out;
    for (const auto& score : verify::score_registry()) out[py::str(score.name)] = score.doc;
    return out;
  });
}

}  // namespace dpb::python
