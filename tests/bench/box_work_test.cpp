// The bench's "box" floors (bench/support/cases.cpp) count the work of each printed box from the plan the
// algorithm makes: its blocks, subsets, batches and steps. These tests run each algorithm once and hold the
// bench's byte counts to the plan the run reports, so a change to either cannot leave the floor (and the
// summary's "unreachable as printed") describing another plan.
#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/pca/dugler2026_adadpo.hpp"
#include "algorithms/pca/dugler2026_private_range.hpp"
#include "algorithms/registry.hpp"
#include "bench/support/cases.hpp"
#include "core/models/model.hpp"
#include "verify/runner/trial_input.hpp"

using namespace dpb;
using namespace dpb::bench;

namespace {

const AlgorithmCase& case_of(const std::string& id) {
  static const std::vector<AlgorithmCase> cases = algorithm_cases();
  for (const auto& c : cases)
    if (c.id == id) return c;
  FAIL("no bench case " << id);
  throw;
}

// One run of the case's algorithm at `size` on its model, as the bench runs it; its diagnostic counters.
std::map<std::string, double> run_counters(const AlgorithmCase& c, const Size& size) {
  core::Rng model_rng(1, 0), data_rng(3, 0), rng(4, 1);
  const auto model = core::make_model(c.model, model_params(c, size), model_rng);
  const auto& entry = alg::algorithm_registry().find(c.id);
  const verify::TrialData data = verify::draw_trial_data(*model, entry, size.n, data_rng);
  const alg::Input input = verify::make_input(entry, data, size.k, privacy(c, size), &model->info());
  return alg::algorithm_registry().make(c.id, c.params(size))->run(input, rng).diagnostics.counters;
}

}  // namespace

TEST_CASE("the bench's box floors read the blocks and subsets the algorithms use", "[bench]") {
  // liu2022 Alg. 4 reads k subsets of b paired differences, PRIVRANGE m blocks of b pairs (the inputs past
  // 2 m b never): each record of them twice. Sizes where the count does not divide n, so that a floor taken
  // before the algorithm's rounding would show.
  struct Plan {
    const char* id;
    Size size;
    const char* count;
    const char* pairs;
  };
  for (const Plan& p : {Plan{"liu2022.private_top_eigenvalue", {5003, 20, 1}, "subsets", "subset_size"},
                        Plan{"dugler2026.priv_range", {3001, 10, 2}, "blocks", "block_size"}}) {
    CAPTURE(p.id);
    const AlgorithmCase& c = case_of(p.id);
    REQUIRE(c.box_work);
    const auto counters = run_counters(c, p.size);
    CHECK(c.work(p.size).bytes ==
          8 * 2 * counters.at(p.count) * counters.at(p.pairs) * static_cast<double>(p.size.d));
  }
}

TEST_CASE("the bench's box floors of the adaptive methods follow their batch plans", "[bench]") {
  namespace dg = alg::dugler2026;
  // Per step of B records: PRIVRANGE's 2 m b products on the range half, with m blocks at failure
  // probability zeta / (divisor T) (Alg. 2 line 3: 2; Alg. 3 line 3: 8), and the whole mean half. B and T are
  // the run's own; m follows from them by PRIVRANGE's rule (a run does not report it per step).
  const auto read_bytes = [](double B, double T, double divisor, const Size& size,
                             const alg::Privacy& privacy) {
    const dg::AdaptiveSettings s;
    const double half = std::floor(B / 2);
    const double m = static_cast<double>(
        dg::private_range_blocks(s.range, {privacy.epsilon, privacy.delta}, s.zeta / (divisor * T)));
    return T * 8 * (2 * m * std::floor(half / (2 * m)) + half) * static_cast<double>(size.d);
  };
  for (const auto& [id, divisor] :
       {std::pair{"dugler2026.adadpo", 2.0}, std::pair{"dugler2026.tadadpo", 8.0}}) {
    CAPTURE(id);
    const Size size{30001, 5, 1};
    const AlgorithmCase& c = case_of(id);
    REQUIRE(c.box_work);
    const auto counters = run_counters(c, size);
    CHECK(c.work(size).bytes == read_bytes(counters.at("batch_size"), counters.at("planned_steps"), divisor,
                                           size, privacy(c, size)));
  }
  // The two-stage method: ADADPO on its warm share of n, TADADPO on the rest, at the case's margin.
  const Size size{60001, 5, 2};
  const AlgorithmCase& c = case_of("dugler2026.two_stage");
  REQUIRE(c.box_work);
  const auto counters = run_counters(c, size);
  const alg::Privacy privacy_used = privacy(c, size);
  CHECK(c.work(size).bytes ==
        read_bytes(counters.at("warm.batch_size"), counters.at("warm.planned_steps"), 2, size, privacy_used) +
            read_bytes(counters.at("refine.batch_size"), counters.at("refine.planned_steps"), 8, size,
                       privacy_used));
}
