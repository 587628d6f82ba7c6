#pragma once
// The per-setup work of memmap_init_zone_device() a boot measured
// (memmap_init_ns kind=work: the sanitizer gate's binds, the dump cases'
// fast bind), kept by the oracles that judge it against the baseline's.

#include <map>
#include <string>
#include <vector>

#include "oracle/slow_path_work.h"
#include "session/session.h"

namespace kseries::session {

struct WorkEvidence {
  std::map<std::string, std::vector<double>> work;  // setup -> memmap_init_ns
};

// The clock both boots' work was measured with: instructions only when both
// counted them.
oracle::WorkClock work_clock(const BootRecord& baseline, const BootRecord& candidate);

// The work EVIDENCE (nullptr: none kept) has of SETUP.
std::vector<double> work_of(const WorkEvidence* evidence, const std::string& setup);

}  // namespace kseries::session
