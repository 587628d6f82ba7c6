#include "session/work_evidence.h"

#include "session/oracle.h"

namespace kseries::session {

oracle::WorkClock work_clock(const BootRecord& baseline, const BootRecord& candidate) {
  return qemu::counts_instructions(candidate.clock) && baseline.clock == candidate.clock
             ? oracle::WorkClock::k_instructions
             : oracle::WorkClock::k_wall;
}

std::vector<double> work_of(const WorkEvidence* evidence, const std::string& setup) {
  if (!evidence) {
    return {};
  }
  const auto found = evidence->work.find(setup);
  return found == evidence->work.end() ? std::vector<double>{} : found->second;
}

}  // namespace kseries::session
