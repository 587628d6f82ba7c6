// The struct page dump oracles: memmap-equivalence (fast vs slow in one
// boot) and memmap-vs-base (the series kernel's dumps against the base
// kernel's), each settling the series kernel's verdicts on the evidence
// that its new path ran (oracle/fast_path_ran.h, session/new_path.h).
#include <algorithm>
#include <optional>
#include <set>

#include "guest/protocol.h"
#include "oracle/equivalence.h"
#include "oracle/fast_path_ran.h"
#include "session/oracle.h"
#include "session/work_evidence.h"

namespace kseries::session {

namespace {

// What the dump oracles keep of a boot for its pairing: the fast bind's
// work (the evidence that the new path ran) and, for memmap-vs-base, the
// dumps.
struct DumpEvidence {
  WorkEvidence measured;
  std::vector<oracle::SetupDumps> dumps;
};

std::vector<double> work_of(const BootRecord& record, const std::string& setup) {
  const auto* evidence = evidence_of<DumpEvidence>(record);
  return session::work_of(evidence ? &evidence->measured : nullptr, setup);
}

// The candidate's verdict on SETUP once the evidence that its new path ran
// (its fast bind's work against the baseline's) is in: see
// oracle/fast_path_ran.h. Without a claim of a new path (the candidate
// changes none of the case's path files, or the target keeps it on the slow
// path), a path that did not run is "not applicable", never an error.
// The candidate's own count of slow-path inits in its fast and slow binds of
// SETUP (testcases/lib/memmap.sh: slow_init_calls), when it has both.
std::optional<std::pair<double, double>> slow_init_counts(const BootRecord& record,
                                                          const std::string& setup) {
  std::optional<double> fast, slow;
  for (const auto& m : guest::measurements(record.events)) {
    if (m.metric == "slow_init_calls" && m.setup == setup) {
      (m.kind == "fast" ? fast : slow) = m.value;
    }
  }
  if (!fast || !slow) {
    return std::nullopt;
  }
  return std::make_pair(*fast, *slow);
}

// The evidence that the candidate's new path ran on SETUP: its own count of
// slow-path inits when it has one (the work of the fast bind beside it),
// else its fast-bind work against the baseline's.
oracle::FastPathEvidence new_path_evidence(const std::string& setup, const BootRecord& baseline,
                                           const BootRecord& candidate) {
  auto by_work = oracle::fast_path_evidence(work_of(baseline, setup), work_of(candidate, setup),
                                            work_clock(baseline, candidate));
  const auto counts = slow_init_counts(candidate, setup);
  if (!counts) {
    by_work.facts += " (no count of __init_zone_device_page() calls: the work decides)";
    return by_work;
  }
  return oracle::fast_path_from_counts_and_work(counts->first, counts->second, by_work);
}

oracle::SetupVerdict settle(oracle::SetupVerdict verdict, const BootRecord& baseline,
                            const BootRecord& candidate) {
  const auto evidence = new_path_evidence(verdict.setup, baseline, candidate);
  const NewPath& path = candidate.new_path;
  auto contract = path.slow_path_by_contract ? oracle::SlowPathContract::k_sanitizer
                                             : oracle::SlowPathContract::k_none;
  for (const auto& m : guest::measurements(candidate.events)) {
    if (m.metric == "tracepoint_on_in_fast_bind" && m.setup == verdict.setup && m.value > 0) {
      // page_ref_set on from boot: the series keeps to the slow path.
      contract = oracle::SlowPathContract::k_tracepoint_on;
    }
  }
  if (evidence.ran == oracle::PathRan::k_did_not_run && !path.expected() &&
      contract == oracle::SlowPathContract::k_none) {
    return {verdict.setup, oracle::VerdictStatus::k_skip,
            "not applicable: the series' fast path did not run here (" + evidence.facts +
                ") and it changes none of the case's path files, so there was no new path to "
                "compare with the old (" +
                verdict.summary + ")",
            verdict.details};
  }
  auto settled = oracle::settle_with_evidence(verdict, evidence, contract);
  if (settled.status == oracle::VerdictStatus::k_fail && path.expected() &&
      evidence.ran == oracle::PathRan::k_did_not_run) {
    settled.summary += " (the series changes " + path.files() + ")";
  }
  return settled;
}

// memmap-equivalence: fast vs slow dumps of one boot, judged at once; the
// series kernel's verdicts settled against the base's fast-bind work.
class EquivalenceOracle final : public Oracle {
 public:
  std::string name() const override { return "memmap-equivalence"; }
  bool needs_baseline() const override { return true; }
  void judge_boot(BootRecord& record) const override {
    record.verdicts = oracle::judge_memmap_equivalence(record.events, record.run.bulk);
    evidence_of<DumpEvidence>(record).measured.work = oracle::collect_slow_path_work(record.events);
  }
  void conclude(std::vector<BootRecord>& records, Status& status) const override {
    for (auto& record : records) {
      if (record.role == KernelRole::k_base || record.role == KernelRole::k_control) {
        for (auto& verdict : record.verdicts) {
          verdict = oracle::base_has_one_path(std::move(verdict));
        }
        continue;
      }
      const BootRecord* baseline = baseline_of(records, record);
      for (auto& verdict : record.verdicts) {
        if (verdict.status != oracle::VerdictStatus::k_pass) {
          continue;  // a failure needs no proof that the fast path ran
        }
        verdict = baseline ? settle(std::move(verdict), *baseline, record)
                           : oracle::SetupVerdict{verdict.setup, oracle::VerdictStatus::k_fail,
                                                  "inconclusive: no baseline boot #" +
                                                      std::to_string(record.round) +
                                                      " to show that the fast path ran",
                                                  verdict.details};
        status.progress("oracle " + record.kernel + " " + verdict.setup + ": " +
                        std::string(oracle::verdict_name(verdict.status)) + ": " + verdict.summary);
      }
    }
  }
};

// memmap-vs-base: the dumps are kept and judged against the baseline's.
class VsBaseOracle final : public Oracle {
 public:
  std::string name() const override { return "memmap-vs-base"; }
  bool needs_baseline() const override { return true; }
  void judge_boot(BootRecord& record) const override {
    std::map<std::string, std::string> errors;
    auto& evidence = evidence_of<DumpEvidence>(record);
    evidence.measured.work = oracle::collect_slow_path_work(record.events);
    evidence.dumps = oracle::collect_setup_dumps(record.events, record.run.bulk, errors);
    for (const auto& [setup, why] : errors) {
      record.verdicts.push_back({setup, oracle::VerdictStatus::k_fail, why, ""});
    }
  }
  std::vector<oracle::SetupVerdict> judge_pair(const BootRecord& baseline,
                                               const BootRecord& candidate) const override {
    std::vector<oracle::SetupVerdict> verdicts;
    const auto* mine = evidence_of<DumpEvidence>(candidate);
    const auto* theirs = evidence_of<DumpEvidence>(baseline);
    if (!mine) {
      return verdicts;
    }
    static const std::vector<oracle::SetupDumps> k_none;
    const auto& base_dumps = theirs ? theirs->dumps : k_none;
    for (const auto& dumps : mine->dumps) {
      const auto reference =
          std::find_if(base_dumps.begin(), base_dumps.end(),
                       [&](const oracle::SetupDumps& d) { return d.setup == dumps.setup; });
      if (reference != base_dumps.end()) {
        auto verdict = oracle::judge_vs_base(*reference, dumps);
        if (verdict.status == oracle::VerdictStatus::k_pass) {
          verdict = settle(std::move(verdict), baseline, candidate);
        }
        verdicts.push_back(std::move(verdict));
      } else {
        verdicts.push_back({dumps.setup, oracle::VerdictStatus::k_fail,
                            "no dumps of " + dumps.setup + " from the " + baseline.kernel +
                                " kernel's boot #" + std::to_string(baseline.round),
                            ""});
      }
    }
    return verdicts;
  }
  std::set<std::string> judged_setups(const BootRecord& record) const override {
    auto judged = Oracle::judged_setups(record);
    if (const auto* evidence = evidence_of<DumpEvidence>(record)) {
      for (const auto& dumps : evidence->dumps) {
        judged.insert(dumps.setup);
      }
    }
    return judged;
  }
};

}  // namespace

std::unique_ptr<Oracle> make_memmap_equivalence_oracle() {
  return std::make_unique<EquivalenceOracle>();
}
std::unique_ptr<Oracle> make_memmap_vs_base_oracle() { return std::make_unique<VsBaseOracle>(); }

}  // namespace kseries::session
