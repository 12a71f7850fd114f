#pragma once
// kumar2025's lower-bound families as data models, so the runner can sample them and the falsification
// check can hold an estimator's error against Theorems 4 and 5 (docs/models.md, docs/checks.md):
//
//  - kumar2025_lemma19_family (Thm 4, Table 2's private lower-bound row): N(0, Sigma_x), Sigma_x =
//    Pi_x Sigma_star Pi_x^T over Lemma 19's (h, 2h)-biregular graph, x a weight-d/3 word drawn uniformly by
//    the model's rng; target v_x.
//  - kumar2025_lemma22_family (Thm 5): a member of Definition 6's padded subcube, s_bar = (1_{d/2}, s) with s
//    uniform on {+-1}^{d/2}; data from Definition 5's edge spike D_s (what Thm 5's coupling is about) or
//    N(0, Sigma_s); target v_s = s_bar / sqrt(d).
//
// The graph is drawn from the model's rng (accepted by ramanujan_graphs' spectral test), so one seed gives
// one member, bit for bit. They live here, not in core, because they are built from lowerbounds'
// constructions; core's catalogue takes them through core::register_model (lowerbounds/catalog.cpp).
#include <vector>

#include "core/models/model.hpp"

namespace dpb::lower {

std::vector<core::ModelEntry> kumar2025_family_models();

}  // namespace dpb::lower
