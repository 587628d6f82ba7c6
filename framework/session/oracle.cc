#include "session/oracle.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "cases/case_def.h"
#include "core/error.h"
#include "guest/case_status.h"
#include "guest/protocol.h"
#include "memcost/symbols.h"
#include "oracle/fast_path_ran.h"
#include "oracle/nt_ordering.h"

namespace kseries::session {

namespace {

oracle::WorkClock work_clock(const BootRecord& baseline, const BootRecord& candidate) {
  return qemu::counts_instructions(candidate.clock) && baseline.clock == candidate.clock
             ? oracle::WorkClock::k_instructions
             : oracle::WorkClock::k_wall;
}

std::vector<double> work_of(const BootRecord& record, const std::string& setup) {
  const auto found = record.work.find(setup);
  return found == record.work.end() ? std::vector<double>{} : found->second;
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
  auto by_count = oracle::fast_path_from_counts(counts->first, counts->second);
  by_count.facts += "; " + by_work.facts;
  return by_count;
}

oracle::SetupVerdict settle(oracle::SetupVerdict verdict, const BootRecord& baseline,
                            const BootRecord& candidate) {
  const auto evidence = new_path_evidence(verdict.setup, baseline, candidate);
  NewPath path = candidate.new_path;
  for (const auto& m : guest::measurements(candidate.events)) {
    if (m.metric == "tracepoint_on_in_fast_bind" && m.setup == verdict.setup && m.value > 0) {
      // The series keeps to the slow path while page_ref_set is on: its
      // contract, as for sanitizer builds.
      path.slow_path_by_contract = true;
    }
  }
  if (evidence.ran == oracle::PathRan::k_did_not_run && !path.expected() &&
      !path.slow_path_by_contract) {
    return {verdict.setup, oracle::VerdictStatus::k_skip,
            "not applicable: the series' fast path did not run here (" + evidence.facts +
                ") and it changes none of the case's path files, so there was no new path to "
                "compare with the old (" +
                verdict.summary + ")",
            verdict.details};
  }
  auto settled = oracle::settle_with_evidence(verdict, evidence, path.slow_path_by_contract);
  if (settled.status == oracle::VerdictStatus::k_fail && path.expected() &&
      evidence.ran == oracle::PathRan::k_did_not_run) {
    settled.summary += " (the series changes " + path.files() + ")";
  }
  return settled;
}

const BootRecord* baseline_of(const std::vector<BootRecord>& records, const BootRecord& candidate) {
  const auto found = std::find_if(records.begin(), records.end(), [&](const BootRecord& r) {
    return is_baseline(r.role) && r.round == candidate.round;
  });
  return found == records.end() ? nullptr : &*found;
}

// memmap-equivalence: fast vs slow dumps of one boot, judged at once; the
// series kernel's verdicts settled against the base's fast-bind work.
class EquivalenceOracle final : public Oracle {
 public:
  std::string name() const override { return "memmap-equivalence"; }
  bool needs_baseline() const override { return true; }
  void judge_boot(BootRecord& record) const override {
    record.verdicts = oracle::judge_memmap_equivalence(record.events, record.run.bulk);
    record.work = oracle::collect_slow_path_work(record.events);
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
    record.work = oracle::collect_slow_path_work(record.events);
    record.dumps = oracle::collect_setup_dumps(record.events, record.run.bulk, errors);
    for (const auto& [setup, why] : errors) {
      record.verdicts.push_back({setup, oracle::VerdictStatus::k_fail, why, ""});
    }
  }
  std::vector<oracle::SetupVerdict> judge_pair(const BootRecord& baseline,
                                               const BootRecord& candidate) const override {
    std::vector<oracle::SetupVerdict> verdicts;
    for (const auto& dumps : candidate.dumps) {
      const auto reference =
          std::find_if(baseline.dumps.begin(), baseline.dumps.end(),
                       [&](const oracle::SetupDumps& d) { return d.setup == dumps.setup; });
      if (reference != baseline.dumps.end()) {
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
};

// hugetlb-tails: each kernel's folios judged alone, then tails vs the baseline's.
class HugetlbTailsOracle final : public Oracle {
 public:
  std::string name() const override { return "hugetlb-tails"; }
  bool needs_baseline() const override { return true; }
  void judge_boot(BootRecord& record) const override {
    record.hugetlb = oracle::collect_hugetlb_dumps(record.events, record.run.bulk);
    record.verdicts = oracle::judge_hugetlb_tails(record.hugetlb);
  }
  std::vector<oracle::SetupVerdict> judge_pair(const BootRecord& baseline,
                                               const BootRecord& candidate) const override {
    return oracle::judge_hugetlb_vs_base(baseline.hugetlb, candidate.hugetlb);
  }
};

// slow-path-work: the work of the base's memmap_init_zone_device() per
// setup, the candidate's against the baseline's (sanitizer-gating).
class SlowPathWorkOracle final : public Oracle {
 public:
  std::string name() const override { return "slow-path-work"; }
  bool needs_baseline() const override { return true; }
  void judge_boot(BootRecord& record) const override {
    record.work = oracle::collect_slow_path_work(record.events);
  }
  std::vector<oracle::SetupVerdict> judge_pair(const BootRecord& baseline,
                                               const BootRecord& candidate) const override {
    std::vector<oracle::SetupVerdict> verdicts;
    const auto clock = work_clock(baseline, candidate);
    for (const auto& setup : guest::passed_subjects(candidate.events)) {
      verdicts.push_back(oracle::judge_slow_path_work(setup, work_of(baseline, setup),
                                                      work_of(candidate, setup), clock));
    }
    return verdicts;
  }
};

// memmap-state: each setup's own arithmetic, then the series kernel's
// state against the base kernel's. A failure the base kernel has too is the
// base's: reported on the base, not blamed on the series.
class MemmapStateOracle final : public Oracle {
 public:
  std::string name() const override { return "memmap-state"; }
  bool needs_baseline() const override { return true; }
  void judge_boot(BootRecord& record) const override {
    std::map<std::string, std::string> errors;
    record.states = oracle::collect_setup_states(record.events, record.run.bulk, errors);
    for (const auto& [setup, why] : errors) {
      record.verdicts.push_back({setup, oracle::VerdictStatus::k_fail, why, ""});
    }
    for (const auto& state : record.states) {
      record.verdicts.push_back(oracle::judge_state(state));
    }
  }
  std::vector<oracle::SetupVerdict> judge_pair(const BootRecord& baseline,
                                               const BootRecord& candidate) const override {
    std::vector<oracle::SetupVerdict> verdicts;
    for (const auto& state : candidate.states) {
      const auto reference =
          std::find_if(baseline.states.begin(), baseline.states.end(),
                       [&](const oracle::SetupState& s) { return s.setup == state.setup; });
      verdicts.push_back(reference != baseline.states.end()
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

std::vector<oracle::SetupVerdict> Oracle::judge_pair(const BootRecord&, const BootRecord&) const {
  return {};
}

void Oracle::conclude(std::vector<BootRecord>&, Status&) const {}

// nt-ordering: the memcost plugin's ordering records, per setup.
class NtOrderingOracle : public Oracle {
 public:
  std::string name() const override { return "nt-ordering"; }
  bool needs_memory_plugin() const override { return true; }
  void judge_boot(BootRecord& record) const override {
    record.verdicts = oracle::judge_nt_ordering(record.events, record.memcost,
                                                memcost::Symbolizer::load(record.system_map));
  }
};

const Oracle* find_oracle(const std::string& name) {
  static const NtOrderingOracle nt_ordering;
  static const EquivalenceOracle equivalence;
  static const VsBaseOracle vs_base;
  static const HugetlbTailsOracle hugetlb;
  static const SlowPathWorkOracle work;
  static const MemmapStateOracle state;
  if (name.empty()) {
    return nullptr;
  }
  for (const Oracle* oracle : std::initializer_list<const Oracle*>{&equivalence, &vs_base, &hugetlb,
                                                                   &work, &nt_ordering, &state}) {
    if (oracle->name() == name) {
      return oracle;
    }
  }
  std::string known;
  for (const auto& n : cases::oracle_names()) {
    known += (known.empty() ? "" : ", ") + n;
  }
  throw usage_error("unknown oracle '" + name + "' (known: " + known + ")");
}

std::vector<std::string> missing_evidence(const Oracle& oracle, const BootRecord& record) {
  std::vector<std::string> problems;
  if (!record.powered_off) {
    return problems;  // the boot failed already, for its own reason
  }
  std::set<std::string> judged;
  for (const auto& verdict : record.verdicts) {
    judged.insert(verdict.setup);
  }
  for (const auto& dumps : record.dumps) {
    judged.insert(dumps.setup);
  }
  for (const auto& [setup, samples] : record.work) {
    judged.insert(setup);
  }
  for (const auto& setup : guest::passed_subjects(record.events)) {
    if (!judged.count(setup)) {
      problems.push_back("oracle " + oracle.name() + " has nothing to judge for setup " + setup +
                         " (no dump of it on the bulk disk, no measurement)");
    }
  }
  return problems;
}

std::vector<PairVerdict> judge_pairs(const Oracle& oracle, const std::vector<BootRecord>& records) {
  std::vector<PairVerdict> pairs;
  if (!oracle.needs_baseline()) {
    return pairs;
  }
  for (const auto& candidate : records) {
    if (candidate.role != KernelRole::k_candidate) {
      continue;
    }
    const auto baseline = std::find_if(records.begin(), records.end(), [&](const BootRecord& r) {
      return is_baseline(r.role) && r.round == candidate.round;
    });
    if (baseline == records.end()) {
      pairs.push_back(
          {&candidate,
           {"all", oracle::VerdictStatus::k_fail,
            "no baseline boot #" + std::to_string(candidate.round) + " to compare with", ""}});
      continue;
    }
    for (auto& verdict : oracle.judge_pair(*baseline, candidate)) {
      pairs.push_back({&candidate, std::move(verdict)});
    }
  }
  return pairs;
}

}  // namespace kseries::session
