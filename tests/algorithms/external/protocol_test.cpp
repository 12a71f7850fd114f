#include "algorithms/external/protocol.hpp"

#include <bit>
#include <catch2/catch.hpp>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"

using dpb::alg::external::decode_reply;
using dpb::alg::external::encode_request;
using nlohmann::json;

namespace {

const dpb::alg::external::ReplyTolerances kTolerances{1e-6, 1e-9};
constexpr std::uint64_t kId = 9;  // the request every reply below answers

// Q = the first k standard basis vectors of R^d, as reply text.
json basis_columns(int d, int k) {
  json columns = json::array();
  for (int j = 0; j < k; ++j) {
    std::vector<double> column(std::size_t(d), 0.0);
    column[std::size_t(j)] = 1.0;
    columns.push_back(column);
  }
  return columns;
}

}  // namespace

TEST_CASE("encode_request writes the header line, then X record after record in little-endian float64",
          "[external]") {
  Eigen::MatrixXd X(2, 3);  // d = 2, n = 3: records (1, 2), (3, 4), (5, -0.25)
  X << 1, 3, 5, 2, 4, -0.25;
  const dpb::alg::Privacy privacy{0.5, 1e-6, dpb::alg::Neighbours::add_remove};
  const std::string bytes = encode_request(7, X, 1, privacy, 42);
  const std::size_t end = bytes.find('\n');
  const json header = json::parse(bytes.substr(0, end));
  CHECK(header == json{{"protocol", 2},
                       {"id", 7},
                       {"n", 3},
                       {"d", 2},
                       {"k", 1},
                       {"epsilon", 0.5},
                       {"delta", 1e-6},
                       {"neighbours", "add_remove"},
                       {"seed", 42}});
  REQUIRE(bytes.size() == end + 1 + 6 * sizeof(double));
  const double expected[] = {1, 2, 3, 4, 5, -0.25};
  for (std::size_t i = 0; i < 6; ++i) {
    std::uint64_t word = 0;  // assembled from explicit little-endian bytes, independent of the host
    for (std::size_t b = 0; b < 8; ++b)
      word |= std::uint64_t(static_cast<unsigned char>(bytes[end + 1 + 8 * i + b])) << (8 * b);
    CHECK(std::bit_cast<double>(word) == expected[i]);
  }
}

TEST_CASE("decode_reply reads Q column by column, a symmetric Sigma, eigenvalues and diagnostics",
          "[external]") {
  const json reply = {{"id", kId},
                      {"Q", {{0.6, 0.8, 0.0}, {-0.8, 0.6, 0.0}}},
                      {"Sigma", {{2, 1, 0}, {1, 3, 0.5}, {0, 0.5, 1}}},
                      {"eigenvalues", {3.5, 1.5}},
                      {"diagnostics", {{"pid", 123}, {"iterations", 7}}},
                      {"notes", {"converged"}},
                      {"ignored_extension", "anything"}};
  const auto estimate = decode_reply(reply.dump(), kId, 3, 2, kTolerances);
  REQUIRE(estimate.Q);
  CHECK(estimate.Q->col(0) == Eigen::Vector3d(0.6, 0.8, 0.0));
  CHECK(estimate.Q->col(1) == Eigen::Vector3d(-0.8, 0.6, 0.0));
  REQUIRE(estimate.Sigma);
  CHECK((*estimate.Sigma)(1, 2) == 0.5);
  CHECK((*estimate.Sigma)(2, 2) == 1.0);
  CHECK(*estimate.eigenvalues == Eigen::Vector2d(3.5, 1.5));
  CHECK(estimate.diagnostics.counters.at("pid") == 123);
  CHECK(estimate.diagnostics.counters.at("iterations") == 7);
  CHECK(estimate.diagnostics.notes == std::vector<std::string>{"converged"});
}

TEST_CASE("decode_reply rejects every malformed or mis-shaped reply with a message naming the problem",
          "[external]") {
  const auto rejects = [](const std::string& text, const std::string& problem) {
    INFO(text);
    CHECK_THROWS_AS(decode_reply(text, kId, 3, 2, kTolerances), dpb::InvalidArgument);
    CHECK_THROWS_WITH(decode_reply(text, kId, 3, 2, kTolerances), Catch::Contains(problem));
  };
  const json good = {{"id", kId}, {"Q", basis_columns(3, 2)}};
  REQUIRE_NOTHROW(decode_reply(good.dump(), kId, 3, 2, kTolerances));
  rejects("", "is empty");
  rejects("{\"id\": 9, \"Q\": [[1, 0", "not valid JSON");
  rejects("{\"id\": 9, \"Q\": [[NaN, 0, 0], [0, 1, 0]]}", "NaN or Infinity");
  rejects("[1, 2]", "not a JSON object");
  rejects(json{{"Q", basis_columns(3, 2)}}.dump(), "has no 'id'");
  // A stale reply (the previous request's) or a stray JSON line is never taken for this request's.
  rejects(json{{"id", kId - 1}, {"Q", basis_columns(3, 2)}}.dump(), "answers request id 8, not this trial's request 9");
  rejects(json{{"id", "9"}, {"Q", basis_columns(3, 2)}}.dump(), "answers request id \"9\"");
  rejects("{\"id\": 9, \"Sigma\": []}", "has no 'Q'");
  rejects(json{{"id", kId}, {"Q", basis_columns(3, 3)}}.dump(), "3 arrays, expected 2");
  rejects(json{{"id", kId}, {"Q", basis_columns(2, 2)}}.dump(), "'Q[0]' with 2 entries, expected an array of 3");
  rejects("{\"id\": 9, \"Q\": [[1, 0, null], [0, 1, 0]]}", "Q[0][2] = null, not a number");
  rejects("{\"id\": 9, \"Q\": [[1, 0, 0], [1, 0, 0]]}", "not orthonormal");
  rejects(json{{"id", kId}, {"Q", basis_columns(3, 2)}, {"Sigma", basis_columns(3, 2)}}.dump(), "'Sigma' with 2 arrays");
  rejects(json{{"id", kId}, {"Q", basis_columns(3, 2)}, {"Sigma", {{2, 1, 0}, {0.5, 3, 0}, {0, 0, 1}}}}.dump(),
          "not symmetric");
  rejects(json{{"id", kId}, {"Q", basis_columns(3, 2)}, {"eigenvalues", {1, 2, 3, 4}}}.dump(), "1 to 3 numbers");
  rejects(json{{"id", kId}, {"Q", basis_columns(3, 2)}, {"diagnostics", {{"pid", "x"}}}}.dump(), "diagnostics.pid");
  rejects(json{{"id", kId}, {"Q", basis_columns(3, 2)}, {"notes", {1}}}.dump(), "array of strings");
}

TEST_CASE("decode_reply accepts a Q within the orthonormality tolerance, as printed with few digits",
          "[external]") {
  const std::string six_digits = R"({"id": 9, "Q": [[0.707107, 0.707107, 0]]})";  // |q|^2 - 1 = 6.2e-7
  CHECK_NOTHROW(decode_reply(six_digits, kId, 3, 1, kTolerances));
  CHECK_THROWS_WITH(decode_reply(six_digits, kId, 3, 1, {1e-9, 1e-9}),
                    Catch::Contains("orthonormality_tolerance"));
}
