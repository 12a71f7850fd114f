#include "verify/checks/privacy_class.hpp"

#include <fmt/format.h>
#include <cctype>

#include "algorithms/registry.hpp"
#include "core/errors.hpp"

namespace dpb::verify {

namespace {

std::string normalized(const std::string& text) {
  std::string out;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Splits "id[a=1,b=[2,3],c=x]" into the id and its overrides; commas inside brackets stay in a value.
std::pair<std::string, core::ParamMap> parse_algorithm_label(const std::string& label) {
  const auto open = label.find('[');
  if (open == std::string::npos) return {label, {}};
  if (label.back() != ']')
    throw InvalidArgument(fmt::format("algorithm label '{}' opens '[' without closing it at the end", label));
  core::ParamMap overrides;
  const std::string body = label.substr(open + 1, label.size() - open - 2);
  int depth = 0;
  std::string item;
  auto flush = [&] {
    if (!item.empty()) {
      auto [name, value] = core::ParamMap::parse_assignment(item);
      overrides.set(name, std::move(value));
    }
    item.clear();
  };
  for (char c : body) {
    depth += (c == '[') - (c == ']');
    if (c == ',' && depth == 0)
      flush();
    else
      item += c;
  }
  flush();
  return {label.substr(0, open), overrides};
}

}  // namespace

Membership privacy_class_membership(const std::string& privacy_class, const alg::PrivacyClaim& claim,
                                    const bounds::Params& cell) {
  const std::string cls = normalized(privacy_class);
  const bool pure = cls == "(eps,0)-dp" || cls == "eps-dp" || cls == "pure-dp";
  const bool approximate = cls == "(eps,delta)-dp";
  if (!pure && !approximate)
    return {std::nullopt, fmt::format("unrecognised privacy class '{}' (known: (eps,delta)-DP, (eps,0)-DP)",
                                      privacy_class)};
  if (claim.scope == alg::ClaimScope::not_private)
    return {false, fmt::format("the algorithm claims no differential privacy ({})", alg::describe(claim))};
  const auto eps = cell.find("epsilon");
  if (eps == cell.end()) return {std::nullopt, "the cell has no parameter 'epsilon' to compare the claim with"};
  double delta = 0;
  if (approximate) {
    const auto found = cell.find("delta");
    if (found == cell.end())
      return {std::nullopt, "the cell has no parameter 'delta' to compare the claim with"};
    delta = found->second;
  }
  const bool member = claim.epsilon <= eps->second && claim.delta <= delta;
  return {member, fmt::format("claim {} {} {} at eps = {:g}, delta = {:g}", alg::describe(claim),
                              member ? "lies in" : "lies outside", privacy_class, eps->second, delta)};
}

std::optional<alg::PrivacyClaim> registry_privacy_claim(const std::string& algorithm,
                                                        const bounds::Params& cell, std::string& why) {
  try {
    const auto [id, overrides] = parse_algorithm_label(algorithm);
    const auto estimator = alg::algorithm_registry().make(id, overrides);
    alg::Input input;
    input.privacy.epsilon = cell.count("epsilon") ? cell.at("epsilon") : input.privacy.epsilon;
    input.privacy.delta = cell.count("delta") ? cell.at("delta") : input.privacy.delta;
    input.k = cell.count("k") ? static_cast<int>(cell.at("k")) : input.k;
    return estimator->claim(input);
  } catch (const std::exception& e) {
    why = fmt::format("the privacy claim of '{}' cannot be formed: {}", algorithm, e.what());
    return std::nullopt;
  }
}

}  // namespace dpb::verify
