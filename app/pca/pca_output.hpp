#pragma once
// What `dpbounds pca` writes: the report a practitioner reads (privacy in plain words, the budget step by
// step, components by their largest loadings, the expected accuracy, warnings), JSON for pipelines,
// CSV tables with the feature names, and a gnuplot script for the scree and loadings figure.
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "app/pca/private_pca.hpp"

namespace dpb::app {

nlohmann::json to_json(const PcaResult& result);
std::string to_text(const PcaResult& result);
// One row per feature: feature,pc1,...,pck.
std::string components_csv(const PcaResult& result);
// One row per (component, feature), features sorted by |loading| within each component:
// component,rank,feature,loading.
std::string loadings_csv(const PcaResult& result);
// A gnuplot script (data inline) drawing the explained variance per component and the largest loadings
// of pc1 to `png`.
std::string pca_figure_script(const PcaResult& result, const std::string& png);

}  // namespace dpb::app
