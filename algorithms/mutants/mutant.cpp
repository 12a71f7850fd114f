#include "algorithms/mutants/mutant.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/errors.hpp"

namespace dpb::alg::mutants {
namespace {

class MutantEstimator final : public Estimator {
 public:
  // `honest`: the real algorithm's resolved parameters, pinned ones included.
  MutantEstimator(std::shared_ptr<const MutantSpec> spec, const EstimatorFactory& real_factory,
                  core::ParamMap honest)
      : spec_(std::move(spec)),
        broken_factory_(spec_->broken_factory ? spec_->broken_factory : real_factory),
        honest_params_(std::move(honest)),
        real_(real_factory(honest_params_)),
        broken_(spec_->break_params ? nullptr : broken_factory_(honest_params_)) {}

  Estimate run(const Input& in, core::Rng& rng) const override {
    Input broken_in = in;
    if (spec_->break_privacy) broken_in.privacy = spec_->break_privacy(in.privacy, in);
    std::unique_ptr<Estimator> data_dependent;
    Ledger ledger;
    if (spec_->break_params) {
      core::ParamMap broken_params = honest_params_;
      spec_->break_params(broken_params, in, ledger);
      data_dependent = broken_factory_(broken_params);
    }
    Estimate out = (data_dependent ? *data_dependent : *broken_).run(broken_in, rng);
    ledger.append(out.ledger);
    out.ledger = std::move(ledger);
    out.claim = claim(in);
    out.diagnostics.notes.push_back(fmt::format("MUTANT of {}: {}", spec_->breaks, spec_->broken));
    return out;
  }

  PrivacyClaim claim(const Input& in) const override {
    PrivacyClaim real = real_->claim(in);
    return spec_->restate_claim ? spec_->restate_claim(std::move(real), in) : real;
  }

 private:
  std::shared_ptr<const MutantSpec> spec_;
  EstimatorFactory broken_factory_;
  core::ParamMap honest_params_;
  std::unique_ptr<Estimator> real_;    // makes the claim
  std::unique_ptr<Estimator> broken_;  // runs, when the break does not depend on the data
};

}  // namespace

AlgorithmEntry mutant_entry(const AlgorithmEntry& real, MutantSpec spec) {
  if (spec.breaks != real.id)
    throw InvalidArgument(fmt::format("mutant '{}' breaks '{}' but was given the entry of '{}'", spec.id,
                                      spec.breaks, real.id));
  AlgorithmEntry e;
  e.id = spec.id;
  e.summary = fmt::format("MUTANT: {} with {}", real.id, spec.broken);
  e.source = fmt::format("deliberately broken {} ({})", real.id, real.source);
  for (const auto& param : real.params)
    if (!spec.pinned.has(param.name)) e.params.push_back(param);
  for (const auto& [name, value] : spec.pinned.values())
    if (std::none_of(real.params.begin(), real.params.end(),
                     [&](const ParamSpec& p) { return p.name == name; }))
      throw InvalidArgument(
          fmt::format("mutant '{}' pins '{}', which is not a parameter of '{}'", spec.id, name, real.id));
  e.needs = real.needs;
  e.oracle_quantities = real.oracle_quantities;
  e.privacy = fmt::format("claims what {} claims, which it does NOT have: {}", real.id, real.privacy);
  e.mutant = true;
  e.breaks = real.id;
  e.ledger_hides_break = spec.ledger_hides_break;
  auto shared = std::make_shared<const MutantSpec>(std::move(spec));
  e.factory = [shared, real_factory = real.factory](const core::ParamMap& resolved) {
    core::ParamMap honest = resolved;
    for (const auto& [name, value] : shared->pinned.values()) honest.set(name, value);
    return std::make_unique<MutantEstimator>(shared, real_factory, std::move(honest));
  };
  return e;
}

}  // namespace dpb::alg::mutants
