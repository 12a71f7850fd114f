#include "algorithms/mutants/mutant.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "core/samplers.hpp"

namespace {

using namespace dpb;

// A stand-in real algorithm: releases scalar = `offset` + Lap(1/eps) and claims (eps, delta) worst case.
class NoisyOffset final : public alg::Estimator {
 public:
  explicit NoisyOffset(double offset) : offset_(offset) {}
  alg::Estimate run(const alg::Input& in, core::Rng& rng) const override {
    alg::Estimate e;
    e.scalar = offset_ + core::laplace(rng, 1.0 / in.privacy.epsilon);
    e.claim = claim(in);
    return e;
  }
  alg::PrivacyClaim claim(const alg::Input& in) const override {
    return {
        in.privacy.epsilon, in.privacy.delta, in.privacy.neighbours, alg::ClaimScope::worst_case, {"test"}};
  }

 private:
  double offset_;
};

alg::AlgorithmEntry real_entry() {
  alg::AlgorithmEntry e;
  e.id = "test.noisy_offset";
  e.summary = "offset plus Laplace noise";
  e.source = "test";
  e.params = {alg::real_param("offset", 0, std::nullopt, std::nullopt, "added to the noise", "test"),
              alg::real_param("unused", 1, 0, std::nullopt, "pinned by some mutants", "test")};
  e.needs = alg::DataNeed::vectors;
  e.oracle_quantities = {"lambda1"};
  e.privacy = "(eps, delta)-DP";
  e.factory = [](const core::ParamMap& p) {
    return std::make_unique<NoisyOffset>(p.get_real("offset", 0, "test"));
  };
  return e;
}

alg::Input input_at(double eps) {
  alg::Input in;
  in.privacy = {eps, 1e-6, alg::Neighbours::replace};
  return in;
}

double released(const alg::Estimator& estimator, const alg::Input& in, std::uint64_t seed) {
  core::Rng rng(seed, 1);
  return *estimator.run(in, rng).scalar;
}

}  // namespace

TEST_CASE("a mutant entry copies the real schema less the pinned parameters and is marked", "[mutants]") {
  const alg::AlgorithmEntry real = real_entry();
  const alg::AlgorithmEntry e = alg::mutants::mutant_entry(
      real, {.id = "mutant.test", .breaks = real.id, .broken = "nothing yet", .pinned = {{"unused", 2.0}}});
  CHECK(e.id == "mutant.test");
  CHECK(e.mutant);
  CHECK(e.breaks == real.id);
  CHECK(e.summary == "MUTANT: test.noisy_offset with nothing yet");
  REQUIRE(e.params.size() == 1);
  CHECK(e.params[0].name == "offset");
  CHECK(e.needs == real.needs);
  CHECK(e.oracle_quantities == real.oracle_quantities);
  CHECK(!real.mutant);
}

TEST_CASE("a mutant entry refuses a wrong real entry or an unknown pinned parameter", "[mutants]") {
  const alg::AlgorithmEntry real = real_entry();
  CHECK_THROWS_AS(
      alg::mutants::mutant_entry(real, {.id = "mutant.test", .breaks = "test.other", .broken = "x"}),
      InvalidArgument);
  CHECK_THROWS_AS(
      alg::mutants::mutant_entry(
          real, {.id = "mutant.test", .breaks = real.id, .broken = "x", .pinned = {{"nope", 1.0}}}),
      InvalidArgument);
}

TEST_CASE("a mutant runs the real code on the broken budget and keeps the real claim", "[mutants]") {
  const alg::AlgorithmEntry real = real_entry();
  const alg::AlgorithmEntry e =
      alg::mutants::mutant_entry(real, {.id = "mutant.test",
                                        .breaks = real.id,
                                        .broken = "budget 1/eps",
                                        .break_privacy = [](const alg::Privacy& p, const alg::Input&) {
                                          return alg::Privacy{1 / p.epsilon, p.delta, p.neighbours};
                                        }});
  const auto mutant = e.factory({{"offset", 0.0}});
  const auto honest = real.factory({{"offset", 0.0}});
  const alg::Input at_quarter = input_at(0.25), at_four = input_at(4);
  // Same stream, so the mutant's release is exactly the real one at eps = 4 (noise scale 1/4, not 4).
  CHECK(released(*mutant, at_quarter, 7) == released(*honest, at_four, 7));
  CHECK(released(*mutant, at_quarter, 7) != released(*honest, at_quarter, 7));
  core::Rng rng(7, 1);
  const alg::Estimate out = mutant->run(at_quarter, rng);
  CHECK(out.claim.epsilon == 0.25);
  CHECK(mutant->claim(at_quarter).epsilon == 0.25);
  REQUIRE(!out.diagnostics.notes.empty());
  CHECK(out.diagnostics.notes.back() == "MUTANT of test.noisy_offset: budget 1/eps");
}

TEST_CASE("a mutant rewrites parameters per run, and may restate the claim", "[mutants]") {
  const alg::AlgorithmEntry real = real_entry();
  const alg::AlgorithmEntry e = alg::mutants::mutant_entry(
      real, {.id = "mutant.test",
             .breaks = real.id,
             .broken = "offset from the budget",
             .break_params = [](core::ParamMap& p, const alg::Input& in,
                                alg::Ledger&) { p.set("offset", 1000 * in.privacy.epsilon); },
             .restate_claim =
                 [](alg::PrivacyClaim c, const alg::Input&) {
                   c.delta = 0;
                   return c;
                 }});
  const auto mutant = e.factory({{"offset", 0.0}});
  const auto honest = real.factory({{"offset", 0.0}});
  const alg::Input in = input_at(0.5);
  CHECK(released(*mutant, in, 3) == Approx(released(*honest, in, 3) + 500).epsilon(1e-12));
  CHECK(mutant->claim(in).delta == 0);
  CHECK(honest->claim(in).delta == 1e-6);
}

TEST_CASE("a mutant with a broken factory builds the broken side from it, the claim from the real one",
          "[mutants]") {
  const alg::AlgorithmEntry real = real_entry();
  const alg::AlgorithmEntry e = alg::mutants::mutant_entry(
      real, {.id = "mutant.test",
             .breaks = real.id,
             .broken = "a different offset",
             .broken_factory = [](const core::ParamMap& p) {
               return std::make_unique<NoisyOffset>(p.get_real("offset", 0, "test") + 1);
             }});
  const auto mutant = e.factory({{"offset", 0.0}});
  const auto honest = real.factory({{"offset", 0.0}});
  const alg::Input in = input_at(0.5);
  CHECK(released(*mutant, in, 5) == Approx(released(*honest, in, 5) + 1).epsilon(1e-12));
  CHECK(mutant->claim(in).epsilon == honest->claim(in).epsilon);
}
