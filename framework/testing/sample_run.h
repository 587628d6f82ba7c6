#pragma once
// A gate run as report/run_record.h reads it back, for the renderers' tests:
// a good revision (two patches, every cell passing, a timing comparison
// "faster") and a known-bad one whose equivalence cell fails as expected.
// SUBJECT is the first patch's subject (hostile text goes here).

#include <string>

#include "report/run_record.h"

namespace kseries::testing {

report::RunRecord sample_gate_run(const std::string& subject = "demo: add the fast path");

}  // namespace kseries::testing
