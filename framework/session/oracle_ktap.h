#pragma once
// The oracle `ktap`: the kernel's own tests (selftests, KUnit), read with
// the tree under test's own KTAP parser and judged against the base
// (docs/selftests.md).
//
// Each boot: every blob named ktap-SUITE (one KTAP document a suite: a
// run_vmtests.sh category, a KUnit module) is parsed by
// tools/testing/kunit/kunit_parser.py, the copy the test payload stored
// beside the booted kernel (KERNEL_DIR/modules/*/kunit), run by python3;
// the boot keeps its suites' tests as its evidence (evidence_of) and one
// verdict per suite, the tests listed in its details. When every
// boot is in, the candidate's tests are judged against the baseline's
// (oracle/ktap_compare.h): one verdict per test on the candidate's first
// boot; the baseline's boots get one summary per suite. A kernel with no
// baseline beside it is judged on its own outcomes.

#include <filesystem>
#include <memory>
#include <string>

#include "session/oracle.h"
#include "sys/process.h"

namespace kseries::session {

// The parser's result tree of KTAP_FILE, written to JSON_FILE (and its
// printed summary to TEXT_FILE), by python3 with the parser in KUNIT_DIR.
// Throws Error(k_check_failed) when the parser fails or does not finish.
void run_kunit_parser(ProcessRunner& runner, const std::filesystem::path& kunit_dir,
                      const std::filesystem::path& ktap_file,
                      const std::filesystem::path& json_file,
                      const std::filesystem::path& text_file);

// The copy of tools/testing/kunit a test payload stored beside the kernel
// whose System.map is SYSTEM_MAP; "" when there is none.
std::filesystem::path kunit_dir_of(const std::filesystem::path& system_map);

}  // namespace kseries::session
