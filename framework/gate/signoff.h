#pragma once
// The sign-off stage: with `signoff: author` in the matrix, the cell
// "signoff" checks that every patch of a series carries a Signed-off-by:
// trailer with its author's address, the Developer's Certificate of Origin
// rule maintainers apply (the kernel's
// Documentation/process/submitting-patches.rst, "Sign your work"). The
// trailers are read by libgit2 (git_message_trailers), as `git
// interpret-trailers --parse` reads them.

#include <string>
#include <vector>

#include "gate/stage.h"
#include "results/gate_record.h"
#include "series/series.h"

namespace kseries::gate {

// The addresses of the Signed-off-by: trailers of MESSAGE (a commit
// message: the trailers are its last paragraph), in order; the key is
// matched case-insensitively, a trailer without an address is left out.
std::vector<std::string> signoff_addresses(const std::string &message);

// The cell CELL of SERIES: pass when each of its patches is signed off by
// its author (the address compared case-insensitively), fail naming every
// patch that is not and the trailer it lacks, skip when it has no patch.
results::CellResult check_signoffs(const std::string &series_name, const std::string &cell,
                                   const Series &series);

// The stage of the cell "signoff", on in a matrix with `signoff: author`.
const Stage &signoff_stage();

}  // namespace kseries::gate
