#pragma once
// The nt-ordering oracle: "non-temporal stores must be drained before
// prep_compound_head() and before returning" (the seeds' fifth fact),
// checked on what the guest executed. The memcost plugin tracks, per vCPU,
// the lines written by non-temporal stores and not yet ordered by a fence,
// inside each memmap_init_zone_device() call, and reports an ordinary store
// or load to such a line and a return with such lines outstanding. This
// oracle hands those windows to the setups whose binds made them (the
// guest's memmap_calls counts, in order) and judges each setup: fail on a
// hazard, pass when non-temporal stores ran and were all ordered, and
// "not applicable" when the setup's calls made no non-temporal store.

#include <string>
#include <vector>

#include "guest/protocol.h"
#include "memcost/record.h"
#include "memcost/symbols.h"
#include "oracle/equivalence.h"

namespace kseries::oracle {

std::vector<SetupVerdict> judge_nt_ordering(const std::vector<guest::Event>& events,
                                            const memcost::Records& records,
                                            const memcost::Symbolizer& symbols);

}  // namespace kseries::oracle
