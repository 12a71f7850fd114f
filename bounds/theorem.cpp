#include "bounds/theorem.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"

namespace dpb::bounds {

std::string to_string(Kind kind) { return kind == Kind::upper ? "upper" : "lower"; }

Kind parse_kind(const std::string& text) {
  if (text == "upper") return Kind::upper;
  if (text == "lower") return Kind::lower;
  throw InvalidArgument(fmt::format("unknown kind '{}': choose upper or lower", text));
}

std::string loss_name(Loss::Name name) {
  switch (name) {
    case Loss::Name::sin: return "sin";
    case Loss::Name::projector_op: return "projector_op";
    case Loss::Name::projector_fro: return "projector_fro";
    case Loss::Name::projector_schatten: return "projector_schatten";
    case Loss::Name::cov_op: return "cov_op";
    case Loss::Name::cov_fro: return "cov_fro";
    case Loss::Name::cov_schatten: return "cov_schatten";
    case Loss::Name::statistic: return "statistic";
  }
  return "?";
}

bool is_schatten(const Loss& loss) {
  return loss.name == Loss::Name::projector_schatten || loss.name == Loss::Name::cov_schatten;
}

std::string to_string(const Loss& loss) {
  std::string out = loss_name(loss.name);
  if (is_schatten(loss)) out += fmt::format("(q={:g})", loss.q);
  if (loss.normalized_by_rank) out += is_schatten(loss) ? "/r^(1/q)" : "/sqrt(r)";
  return out;
}

std::string to_string(const Semantics& semantics) {
  return semantics.high_probability ? fmt::format("w.p. {:g}", 1 - semantics.zeta) : "expectation";
}

std::string params_text(const Params& params) {
  std::vector<std::string> parts;
  for (const auto& [name, value] : params) parts.push_back(fmt::format("{} = {:g}", name, value));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string paper_key(const Theorem& t) { return t.id.substr(0, t.id.find('.')); }

}  // namespace dpb::bounds
