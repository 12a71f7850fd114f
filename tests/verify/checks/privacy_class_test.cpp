#include "verify/checks/privacy_class.hpp"

#include <catch2/catch.hpp>

using dpb::alg::ClaimScope;
using dpb::alg::PrivacyClaim;
using dpb::verify::privacy_class_membership;

namespace {
const dpb::bounds::Params kCell = {{"epsilon", 1.0}, {"delta", 1e-5}, {"n", 1000.0}};
PrivacyClaim claim(double eps, double delta, ClaimScope scope = ClaimScope::worst_case) {
  PrivacyClaim c;
  c.epsilon = eps;
  c.delta = delta;
  c.scope = scope;
  return c;
}
}  // namespace

TEST_CASE("privacy class membership compares the claim with the cell's eps and delta",
          "[checks][privacy_class]") {
  CHECK(privacy_class_membership("(eps,delta)-DP", claim(1, 1e-5), kCell).member == true);
  CHECK(privacy_class_membership("(eps, delta)-DP", claim(0.5, 0), kCell).member == true);
  CHECK(privacy_class_membership("(eps,delta)-DP", claim(2, 1e-5), kCell).member == false);
  CHECK(privacy_class_membership("(eps,0)-DP", claim(1, 1e-5), kCell).member == false);
  CHECK(privacy_class_membership("eps-DP", claim(1, 0), kCell).member == true);
  const auto leaky =
      privacy_class_membership("(eps,delta)-DP", claim(1, 1e-5, ClaimScope::not_private), kCell);
  CHECK(leaky.member == false);
  CHECK(leaky.reason.find("no differential privacy") != std::string::npos);
  const auto unknown = privacy_class_membership("rho-zCDP", claim(1, 0), kCell);
  CHECK(!unknown.member);
  CHECK(unknown.reason.find("unrecognised") != std::string::npos);
  CHECK(!privacy_class_membership("(eps,delta)-DP", claim(1, 0), {{"delta", 1e-5}}).member);
}

TEST_CASE("the registry's claim is formed from the cell, unknown algorithms say why",
          "[checks][privacy_class]") {
  std::string why;
  const auto nonprivate = dpb::verify::registry_privacy_claim("baseline.nonprivate_pca", kCell, why);
  REQUIRE(nonprivate);
  CHECK(nonprivate->scope == ClaimScope::not_private);
  CHECK(!dpb::verify::registry_privacy_claim("no.such_algorithm[a=1,b=[1,2]]", kCell, why));
  CHECK(why.find("no.such_algorithm") != std::string::npos);
}
