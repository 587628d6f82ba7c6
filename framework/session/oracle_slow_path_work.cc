// slow-path-work: the sanitizer gate's evidence (oracle/slow_path_work.h).
#include "guest/case_status.h"
#include "oracle/slow_path_work.h"
#include "session/oracle.h"
#include "session/work_evidence.h"

namespace kseries::session {

namespace {

// slow-path-work: the work of the base's memmap_init_zone_device() per
// setup, the candidate's against the baseline's (sanitizer-gating).
class SlowPathWorkOracle final : public Oracle {
 public:
  std::string name() const override { return "slow-path-work"; }
  bool needs_baseline() const override { return true; }
  void judge_boot(BootRecord& record) const override {
    evidence_of<WorkEvidence>(record).work = oracle::collect_slow_path_work(record.events);
  }
  std::vector<oracle::SetupVerdict> judge_pair(const BootRecord& baseline,
                                               const BootRecord& candidate) const override {
    std::vector<oracle::SetupVerdict> verdicts;
    const auto clock = work_clock(baseline, candidate);
    for (const auto& setup : guest::passed_subjects(candidate.events)) {
      verdicts.push_back(oracle::judge_slow_path_work(
          setup, work_of(evidence_of<WorkEvidence>(baseline), setup),
          work_of(evidence_of<WorkEvidence>(candidate), setup), clock));
    }
    return verdicts;
  }
  std::set<std::string> judged_setups(const BootRecord& record) const override {
    auto judged = Oracle::judged_setups(record);
    if (const auto* evidence = evidence_of<WorkEvidence>(record)) {
      for (const auto& [setup, samples] : evidence->work) {
        judged.insert(setup);
      }
    }
    return judged;
  }
};

}  // namespace

std::unique_ptr<Oracle> make_slow_path_work_oracle() {
  return std::make_unique<SlowPathWorkOracle>();
}

}  // namespace kseries::session
