#include "algorithms/external/protocol.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"

namespace dpb::alg::external {
namespace {

using nlohmann::json;

[[noreturn]] void reject(const std::string& problem) {
  throw InvalidArgument(
      fmt::format("external.command: the program's reply {} (docs/external.md: one JSON line "
                  "{{\"Q\": [k columns of d numbers], ...}})",
                  problem));
}

double finite_number(const json& value, const std::string& where) {
  if (!value.is_number()) reject(fmt::format("has {} = {}, not a number", where, value.dump()));
  const double x = value.get<double>();
  if (!std::isfinite(x)) reject(fmt::format("has {} = {}, not a finite number", where, x));
  return x;
}

// `field` as `length` finite numbers.
Eigen::VectorXd vector_field(const json& field, Eigen::Index length, const std::string& name) {
  if (!field.is_array() || Eigen::Index(field.size()) != length)
    reject(fmt::format("has '{}' with {} {}, expected an array of {} numbers", name,
                       field.is_array() ? field.size() : 0, field.is_array() ? "entries" : "(not an array)",
                       length));
  Eigen::VectorXd v(length);
  for (Eigen::Index i = 0; i < length; ++i)
    v[i] = finite_number(field[std::size_t(i)], fmt::format("{}[{}]", name, i));
  return v;
}

// `field` as `count` arrays of `length` finite numbers; array j becomes column j.
Eigen::MatrixXd columns_field(const json& field, Eigen::Index length, Eigen::Index count,
                              const std::string& name) {
  if (!field.is_array() || Eigen::Index(field.size()) != count)
    reject(fmt::format("has '{}' with {} arrays, expected {} arrays of {} numbers", name,
                       field.is_array() ? field.size() : 0, count, length));
  Eigen::MatrixXd M(length, count);
  for (Eigen::Index j = 0; j < count; ++j)
    M.col(j) = vector_field(field[std::size_t(j)], length, fmt::format("{}[{}]", name, j));
  return M;
}

void append_little_endian(std::string& bytes, const Eigen::MatrixXd& X) {
  const std::size_t start = bytes.size();
  bytes.resize(start + sizeof(double) * std::size_t(X.size()));
  char* out = bytes.data() + start;
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(out, X.data(),
                sizeof(double) * std::size_t(X.size()));  // Eigen is column-major: records in order
  } else {
    for (Eigen::Index i = 0; i < X.size(); ++i) {
      const auto word = std::bit_cast<std::uint64_t>(X.data()[i]);
      for (std::size_t b = 0; b < sizeof word; ++b) *out++ = static_cast<char>(word >> (8 * b));
    }
  }
}

}  // namespace

std::string encode_request(std::uint64_t id, const Eigen::MatrixXd& X, int k, const Privacy& privacy,
                           std::uint64_t seed) {
  const json header = {{"protocol", kProtocolVersion},
                       {"id", id},
                       {"n", X.cols()},
                       {"d", X.rows()},
                       {"k", k},
                       {"epsilon", privacy.epsilon},
                       {"delta", privacy.delta},
                       {"neighbours", to_string(privacy.neighbours)},
                       {"seed", seed}};
  std::string bytes = header.dump() + '\n';
  append_little_endian(bytes, X);
  return bytes;
}

FieldTable<ReplyTolerances> tolerance_fields(const std::string& spec_ref) {
  FieldTable<ReplyTolerances> t;
  t.real("orthonormality_tolerance", &ReplyTolerances::orthonormality, 0.0, 1.0,
         "largest accepted max |Q^T Q - I| of the returned Q (replies printed with few digits need more)", spec_ref)
      .real("symmetry_tolerance", &ReplyTolerances::symmetry, 0.0, 1.0,
            "largest accepted max |Sigma - Sigma^T| / max(1, max |Sigma|) of a returned Sigma", spec_ref);
  return t;
}

std::string structure_problem(const Estimate& estimate, const ReplyTolerances& tolerances) {
  if (estimate.Q) {
    const Eigen::MatrixXd& Q = *estimate.Q;
    const double off = (Q.transpose() * Q - Eigen::MatrixXd::Identity(Q.cols(), Q.cols())).cwiseAbs().maxCoeff();
    if (!(off <= tolerances.orthonormality))
      return fmt::format(
          "has a Q whose columns are not orthonormal: max |Q^T Q - I| = {:g} > {:g} (parameter "
          "orthonormality_tolerance)",
          off, tolerances.orthonormality);
  }
  if (estimate.Sigma) {
    const Eigen::MatrixXd& Sigma = *estimate.Sigma;
    // Consumers read only one triangle of a symmetric matrix: an asymmetric one would be half ignored.
    const double asymmetry =
        (Sigma - Sigma.transpose()).cwiseAbs().maxCoeff() / std::max(1.0, Sigma.cwiseAbs().maxCoeff());
    if (!(asymmetry <= tolerances.symmetry))
      return fmt::format(
          "has a Sigma that is not symmetric: max |Sigma - Sigma^T| / max(1, max |Sigma|) = {:g} > {:g} "
          "(parameter symmetry_tolerance)",
          asymmetry, tolerances.symmetry);
  }
  return {};
}

Estimate decode_reply(const std::string& reply, std::uint64_t id, Eigen::Index d, int k,
                      const ReplyTolerances& tolerances) {
  if (reply.find_first_not_of(" \t\r\n") == std::string::npos)
    reject("is empty: the program wrote nothing to stdout");
  const json parsed = json::parse(reply, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    constexpr std::size_t kQuoted = 80;  // enough of the reply to recognise it
    const bool non_finite =
        reply.find("NaN") != std::string::npos || reply.find("Infinity") != std::string::npos;
    reject(fmt::format(
        "is not valid JSON{}: '{}'{}",
        non_finite ? " (it holds NaN or Infinity, which JSON cannot express: every entry must be finite)"
                   : "",
        reply.substr(0, kQuoted), reply.size() > kQuoted ? "..." : ""));
  }
  if (!parsed.is_object()) reject("is not a JSON object");
  if (!parsed.contains("id"))
    reject(fmt::format("has no 'id': protocol {} replies echo the id of the request they answer ({})",
                       kProtocolVersion, id));
  if (!parsed["id"].is_number_unsigned() || parsed["id"].get<std::uint64_t>() != id)
    reject(fmt::format("answers request id {}, not this trial's request {} (a stale reply: the program wrote "
                       "a stray line to stdout, or answered out of order)",
                       parsed["id"].dump(), id));
  if (!parsed.contains("Q")) reject("has no 'Q'");
  Estimate out;
  out.Q = columns_field(parsed["Q"], d, k, "Q");
  // Sigma arrives row by row; columns_field reads columns.
  if (parsed.contains("Sigma")) out.Sigma = columns_field(parsed["Sigma"], d, d, "Sigma").transpose();
  if (const std::string problem = structure_problem(out, tolerances); !problem.empty()) reject(problem);
  if (parsed.contains("eigenvalues")) {
    const json& values = parsed["eigenvalues"];
    const auto count = values.is_array() ? Eigen::Index(values.size()) : 0;
    if (count < 1 || count > d)
      reject(fmt::format("has 'eigenvalues' that is not an array of 1 to {} numbers", d));
    out.eigenvalues = vector_field(values, count, "eigenvalues");
  }
  if (parsed.contains("diagnostics")) {
    if (!parsed["diagnostics"].is_object()) reject("has 'diagnostics' that is not an object of numbers");
    for (const auto& [name, value] : parsed["diagnostics"].items())
      out.diagnostics.counters[name] = finite_number(value, "diagnostics." + name);
  }
  if (parsed.contains("notes")) {
    if (!parsed["notes"].is_array()) reject("has 'notes' that is not an array of strings");
    for (const auto& note : parsed["notes"]) {
      if (!note.is_string()) reject("has 'notes' that is not an array of strings");
      out.diagnostics.notes.push_back(note.get<std::string>());
    }
  }
  return out;
}

}  // namespace dpb::alg::external
