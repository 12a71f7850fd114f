#pragma once
// The external.command wire protocol, version 2 (docs/external.md "Protocol" is the normative text).
//
// Request: one JSON header line, UTF-8, ended by '\n':
//   {"protocol":2,"id":I,"n":N,"d":D,"k":K,"epsilon":E,"delta":DL,"neighbours":"replace"|"add_remove","seed":S}
// then N*D IEEE-754 float64 values, little-endian, record after record: record i is column i of X (the
// d x n data, samples are columns), i.e. the values x_1[1..D], x_2[1..D], ... S < 2^53, so it is exact in
// any JSON parser that reads numbers as doubles.
//
// I identifies the request (unique within a run). Reply: one JSON object on one line, ended by '\n':
//   {"id": I,                            required: the id of the request it answers, echoed
//    "Q": [[D numbers], ... K arrays],   required: the K columns of the d x k estimate, column by column
//    "Sigma": [[D numbers], ... D arrays], optional: a d x d covariance estimate, row by row (symmetric)
//    "eigenvalues": [numbers],           optional: 1 to D estimated eigenvalues, descending
//    "diagnostics": {"name": number},    optional: counters kept in Estimate::diagnostics
//    "notes": ["text"]}                  optional: kept in Estimate::diagnostics.notes
// Every number must be finite; Q's columns orthonormal and Sigma symmetric within tolerances. Other keys
// are ignored.
#include <Eigen/Dense>
#include <cstdint>
#include <string>

#include "algorithms/estimate.hpp"
#include "algorithms/privacy.hpp"
#include "algorithms/param_fields.hpp"
#include "algorithms/registry.hpp"

namespace dpb::alg::external {

// 2: requests carry an id each reply must echo, so a stray or stale line never passes for a reply.
inline constexpr int kProtocolVersion = 2;

// The request bytes for one trial: header line, then X's values (column-major, little-endian float64).
std::string encode_request(std::uint64_t id, const Eigen::MatrixXd& X, int k, const Privacy& privacy,
                           std::uint64_t seed);

// How far a reply may stray from exact structure (external.command's parameters of the same names).
// Defaults: 1e-6, so a Q printed with about seven significant digits passes; 1e-9, as a symmetric matrix
// prints symmetric at any precision.
struct ReplyTolerances {
  double orthonormality = 1e-6;  // of Q: max |Q^T Q - I|
  double symmetry = 1e-9;        // of Sigma: max |Sigma - Sigma^T| / max(1, max |Sigma|)
};

// The two tolerances' parameters (orthonormality_tolerance, symmetry_tolerance), for every algorithm whose
// estimate comes from outside dpbounds; `spec_ref` documents them.
FieldTable<ReplyTolerances> tolerance_fields(const std::string& spec_ref);

// What is wrong with an estimate's structure, in words ("has a Q whose columns are not orthonormal: ..."):
// Q's columns must be orthonormal and Sigma, when present, symmetric, within `tolerances`. Empty when
// nothing is. Every estimate that comes from outside dpbounds (a program's reply, a Python function's
// return) passes it.
std::string structure_problem(const Estimate& estimate, const ReplyTolerances& tolerances);

// Parses the reply to request `id`, checking every shape and value against (d, k); throws
// dpb::InvalidArgument naming the problem (malformed JSON, an id that is missing or another request's, a
// missing or mis-shaped field, a non-finite entry, Q not orthonormal or Sigma not symmetric within
// `tolerances`). The claim is left to the caller.
Estimate decode_reply(const std::string& reply, std::uint64_t id, Eigen::Index d, int k,
                      const ReplyTolerances& tolerances);

}  // namespace dpb::alg::external
