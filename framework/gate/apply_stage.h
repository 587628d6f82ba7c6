#pragma once
// The gate's first stage: the series (and its prerequisites) applied onto
// the base; the cell "apply", with each patch's fact (applied, its
// commit). Every shard runs it (the stages after it need the tip); a series
// that does not load or apply stops here.

#include "gate/stage.h"

namespace kseries::gate {

// Before any cell of the series: INPUT.dir loaded with its prerequisites,
// named, and described for the reports (INPUT.chain, name, identity,
// record, revision). An interruption is thrown on (the gate stops between
// series, with no cell of it); any other Error is kept in
// INPUT.load_error, for the apply cell to report.
void load_series(SeriesInput& input);

const Stage& apply_stage();

}  // namespace kseries::gate
