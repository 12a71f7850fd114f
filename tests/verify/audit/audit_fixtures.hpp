#pragma once
// The white-box audit setting of the acceptance rows (docs/auditing.md): one spike (r = 1), n = 50, d = 3,
// eps = 1, delta = 0.05 (where the loss sits on frequent events), canary scale 10, 20000 runs per side.
#include <string>

#include "verify/audit/audit_spec.hpp"

namespace dpb::test {

inline verify::AuditSpec white_box_spec(const std::string& algorithm) {
  verify::AuditSpec spec;
  spec.algorithm = algorithm;
  spec.model_params.set("r", 1.0);
  spec.n = 50;
  spec.d = 3;
  spec.privacy = {1.0, 0.05};
  spec.canary_scale = 10;
  spec.trials = 20000;
  return spec;
}

}  // namespace dpb::test
