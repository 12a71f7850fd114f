// `data:` of an experiment (docs/experiments.md "Datasets"): a dataset in place of a model.
#include <fmt/format.h>

#include "verify/experiment/parse_sections.hpp"
#include "verify/experiment/suggest.hpp"

namespace dpb::verify::detail {

namespace {

const std::vector<std::string> kDatasets = {"mnist"};
constexpr long long kMaxCount = 1'000'000'000;

}  // namespace

DataSpec parse_data(const YAML::Node& node, const YamlReader& read) {
  if (!node.IsMap() || !node["name"] || !node["path"])
    read.fail(node, "data must be a map with a name and a path, e.g. { name: mnist, path: data/mnist }");
  read.require_map(node, "data (mnist)",
                   {"name", "path", "digits", "per_digit", "pool", "center", "rank", "noise_eigenvalues"});
  DataSpec data;
  data.name = read.text(node["name"], "data name");
  if (data.name != kDatasets.front())
    read.fail(node["name"], fmt::format("unknown dataset '{}'{} (known: mnist)", data.name, did_you_mean(data.name, kDatasets)));
  data.path = read.text(node["path"], "data path");
  if (node["digits"]) {
    data.mnist.digits.clear();
    for (const double digit : read.numbers(node["digits"], "data digits")) {
      if (digit < 0 || digit > 9 || digit != static_cast<int>(digit)) read.fail(node["digits"], "digits are 0..9");
      data.mnist.digits.push_back(static_cast<int>(digit));
    }
  }
  if (node["per_digit"]) data.mnist.per_digit = static_cast<int>(read.integer(node["per_digit"], "data per_digit", 1, kMaxCount));
  if (node["pool"]) data.mnist.pool = static_cast<int>(read.integer(node["pool"], "data pool", 1, 28));
  if (node["center"]) data.mnist.center = read.boolean(node["center"], "data center");
  if (node["rank"]) data.rank = static_cast<int>(read.integer(node["rank"], "data rank", 1, kMaxCount));
  if (node["noise_eigenvalues"]) {
    const auto range = read.numbers(node["noise_eigenvalues"], "data noise_eigenvalues");
    if (range.size() != 2 || range[0] < 1 || range[0] > range[1] || range[0] != static_cast<int>(range[0]) ||
        range[1] != static_cast<int>(range[1]))
      read.fail(node["noise_eigenvalues"], "noise_eigenvalues is [first, last], 1-based eigenvalue indices, first <= last");
    data.noise_eigenvalues = {static_cast<int>(range[0]), static_cast<int>(range[1])};
  }
  return data;
}

}  // namespace dpb::verify::detail
