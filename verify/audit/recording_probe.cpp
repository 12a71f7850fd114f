#include "verify/audit/recording_probe.hpp"

namespace dpb::verify {
namespace {

class RecordingProbe final : public alg::LedgerProbe {
 public:
  explicit RecordingProbe(const std::vector<Observation>* replay) : replay_(replay) {}
  void observe(const alg::LedgerEntry& entry, const std::vector<double>& statistic,
               const std::vector<std::int64_t>& keys, std::vector<double>& release,
               alg::ProbedRelease kind) override {
    const std::size_t i = seen.size();
    std::vector<double> drawn = release;
    if (replay_ && in_step_ && i < replay_->size() && (*replay_)[i].entry.step == entry.step)
      release = (*replay_)[i].release;
    else
      in_step_ = false;  // the histories part: later comparisons would not be about one entry
    seen.push_back({entry, statistic, keys, std::move(drawn), release, kind});
  }
  std::vector<Observation> seen;

 private:
  const std::vector<Observation>* replay_;
  bool in_step_ = true;
};

}  // namespace

std::vector<Observation> run_recorded(const alg::Estimator& estimator, const alg::Input& in, core::Rng& rng,
                                      const std::vector<Observation>* replay) {
  RecordingProbe probe(replay);
  const alg::ScopedProbe scope(probe);
  estimator.run(in, rng);
  return std::move(probe.seen);
}

}  // namespace dpb::verify
