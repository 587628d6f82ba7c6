#pragma once
// The host-side judges of a case's evidence, chosen by the case's `oracle:`
// value through one registry (no string dispatch in the drivers), and the
// one pairing rule every two-kernel oracle uses.

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
};

// The oracle named NAME (memmap-equivalence, memmap-vs-base, hugetlb-tails);
// nullptr for "" (a case without one). Throws Error(k_usage) for any other.
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
