#pragma once
// Whether a guest's case ran to its end and reported on every setup it was
// asked for, read from the protocol events alone. A guest that dies inside
// its case (a shell error, a missing tool, an oops that kills /init's child)
// still powers off cleanly: without this check its boot would pass.

#include <set>
#include <string>
#include <vector>

#include "guest/protocol.h"

namespace kseries::guest {

// The problems with the case itself, one line each, empty when the case
// started, ended once with rc=0, sent results with known statuses and
// measurements in range, and sent a result for each of SETUPS (the
// subjects the host asked for; empty = no per-setup requirement). A
// guest-error event (no such case) is reported by the caller, not here.
std::vector<std::string> case_problems(const std::vector<Event>& events,
                                       const std::vector<std::string>& setups);

// "pass", "fail", "skip": the statuses a result may have, spelled so. Any
// other ("FAIL", "error") is a case problem and fails its testcase.
bool known_status(const std::string& status);

// The subjects of "result status=pass" events: the setups whose evidence
// the host oracle must now judge.
std::set<std::string> passed_subjects(const std::vector<Event>& events);

}  // namespace kseries::guest
