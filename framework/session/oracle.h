#pragma once
// The host-side judges of a case's evidence, chosen by the case's `oracle:`
// value through one registry (no string dispatch in the drivers), and the
// one pairing rule every two-kernel oracle uses.

#include <any>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "session/session.h"

namespace kseries::session {

class Oracle {
 public:
  virtual ~Oracle() = default;
  virtual std::string name() const = 0;
  // Reads this boot's evidence (the bulk disk) into RECORD: verdicts of
  // this boot alone, and/or dumps kept for judge_pair.
  virtual void judge_boot(BootRecord& record) const = 0;
  // A candidate boot against the baseline boot of its round; empty for
  // oracles that judge one kernel at a time.
  virtual std::vector<oracle::SetupVerdict> judge_pair(const BootRecord& baseline,
                                                       const BootRecord& candidate) const;
  // Once every boot of the session is judged: verdicts that need the other
  // kernels' evidence (a fast-vs-slow verdict of the series kernel first
  // proves that its new path ran, against the baseline). Default: none.
  virtual void conclude(std::vector<BootRecord>& records, Status& status) const;
  // Whether a series needs its baseline booted beside it for this oracle.
  virtual bool needs_baseline() const { return false; }
  // Whether its evidence is the memcost plugin's (the session then boots
  // under the memory clock).
  virtual bool needs_memory_plugin() const { return false; }
  // The setups this boot's evidence covers: its verdicts' (default), and
  // what an oracle keeps for the pairing. A setup the guest passed that is
  // not here had nothing to judge (missing_evidence()).
  virtual std::set<std::string> judged_setups(const BootRecord& record) const;
};

// What an oracle keeps of a boot for its pairing lives in the record as its
// own type (BootRecord::evidence, one oracle a session): created on first
// use, read back by the same oracle; nullptr when the record holds none.
template <typename T>
T& evidence_of(BootRecord& record) {
  if (!record.evidence.has_value()) {
    record.evidence = T{};
  }
  return std::any_cast<T&>(record.evidence);
}
template <typename T>
const T* evidence_of(const BootRecord& record) {
  return std::any_cast<T>(&record.evidence);
}

// The baseline boot of CANDIDATE's round among RECORDS; nullptr if none.
const BootRecord* baseline_of(const std::vector<BootRecord>& records, const BootRecord& candidate);

// Every registered oracle, in registration order (session/oracle_registry.cc:
// a new oracle is a file of its own and one line there).
const std::vector<std::unique_ptr<Oracle>>& registered_oracles();
// Their names: what a case.conf `oracle:` may say.
std::vector<std::string> oracle_names();

// The oracle named NAME (one of oracle_names()); nullptr for "" (a case
// without one). Throws Error(k_usage) for any other, naming the known ones.
const Oracle* find_oracle(const std::string& name);

// What an oracle boot must leave: for every setup the guest passed, a
// verdict or dumps. "Nothing to judge" is a problem of the boot, never a pass.
std::vector<std::string> missing_evidence(const Oracle& oracle, const BootRecord& record);

struct PairVerdict {
  const BootRecord* candidate = nullptr;
  oracle::SetupVerdict verdict;
};

// Every candidate boot against the baseline boot of the same round. A
// candidate boot with no baseline boot of its round fails.
std::vector<PairVerdict> judge_pairs(const Oracle& oracle, const std::vector<BootRecord>& records);

}  // namespace kseries::session
