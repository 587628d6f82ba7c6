// memmap-state: what a bind and its teardown leave (oracle/memmap_state.h).
#include <algorithm>

#include "oracle/memmap_state.h"
#include "session/oracle.h"

namespace kseries::session {

namespace {

// memmap-state: each setup's own arithmetic, then the series kernel's
// state against the base kernel's. A failure the base kernel has too is the
// base's: reported on the base, not blamed on the series.
class MemmapStateOracle final : public Oracle {
 public:
  std::string name() const override { return "memmap-state"; }
  bool needs_baseline() const override { return true; }
  void judge_boot(BootRecord& record) const override {
    std::map<std::string, std::string> errors;
    auto& states = evidence_of<std::vector<oracle::SetupState>>(record);
    states = oracle::collect_setup_states(record.events, record.run.bulk, errors);
    for (const auto& [setup, why] : errors) {
      record.verdicts.push_back({setup, oracle::VerdictStatus::k_fail, why, ""});
    }
    for (const auto& state : states) {
      record.verdicts.push_back(oracle::judge_state(state));
    }
  }
  std::vector<oracle::SetupVerdict> judge_pair(const BootRecord& baseline,
                                               const BootRecord& candidate) const override {
    std::vector<oracle::SetupVerdict> verdicts;
    static const std::vector<oracle::SetupState> k_none;
    const auto* mine = evidence_of<std::vector<oracle::SetupState>>(candidate);
    const auto* theirs = evidence_of<std::vector<oracle::SetupState>>(baseline);
    const auto& base_states = theirs ? *theirs : k_none;
    for (const auto& state : mine ? *mine : k_none) {
      const auto reference =
          std::find_if(base_states.begin(), base_states.end(),
                       [&](const oracle::SetupState& s) { return s.setup == state.setup; });
      verdicts.push_back(reference != base_states.end()
                             ? oracle::judge_state_vs_base(*reference, state)
                             : oracle::SetupVerdict{state.setup, oracle::VerdictStatus::k_fail,
                                                    "no state of " + state.setup + " from the " +
                                                        baseline.kernel + " kernel's boot",
                                                    ""});
    }
    return verdicts;
  }
  void conclude(std::vector<BootRecord>& records, Status&) const override {
    for (auto& candidate : records) {
      if (candidate.role != KernelRole::k_candidate) {
        continue;
      }
      auto* baseline = const_cast<BootRecord*>(baseline_of(records, candidate));
      if (!baseline) {
        continue;
      }
      for (auto& verdict : baseline->verdicts) {
        if (verdict.status != oracle::VerdictStatus::k_fail) {
          continue;
        }
        // The series kernel's own verdict on the same setup: the same
        // failure is the base's, not the series'.
        for (auto& mine : candidate.verdicts) {
          if (mine.setup == verdict.setup && mine.status == oracle::VerdictStatus::k_fail &&
              mine.summary == verdict.summary) {
            mine.status = oracle::VerdictStatus::k_skip;
            mine.summary = "not the series': the base kernel does the same (" + mine.summary + ")";
          }
        }
        verdict.status = oracle::VerdictStatus::k_skip;
        verdict.summary =
            "reported, not blamed on the series: the base kernel itself: " + verdict.summary;
      }
    }
  }
};

}  // namespace

std::unique_ptr<Oracle> make_memmap_state_oracle() { return std::make_unique<MemmapStateOracle>(); }

}  // namespace kseries::session
