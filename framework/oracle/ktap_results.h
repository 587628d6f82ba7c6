#pragma once
// The results of the kernel's own tests, as the tree's KTAP parser read
// them (tools/testing/kunit/kunit_parser.py, run by session/oracle_ktap.h):
// its Test tree, every level with its own status, flattened to one result
// per test path. Nothing here reads KTAP text: the kernel's parser does.
//
// A path joins the names from the suite down with '/': "hmm/test_hmm.sh
// smoke/hmm.hmm_device_private.migrate" (the run_vmtests.sh category, the
// program, its harness test). A test the parser found missing has no name;
// it is "#N", its place under its parent. A name seen twice under one
// parent gets " #2", " #3".

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kseries::oracle {

// kunit_parser's TestStatus, folded: SUCCESS pass, SKIPPED skip, FAILURE
// fail; TEST_CRASHED, NO_TESTS and FAILURE_TO_PARSE_TESTS crashed (the test
// did not report: killed, missing, or its output unreadable).
enum class KtapOutcome { k_pass, k_fail, k_skip, k_crashed };

std::string_view ktap_outcome_name(KtapOutcome outcome);  // "pass", "fail", "skip", "crashed"
std::optional<KtapOutcome> parse_ktap_outcome(std::string_view name);
bool is_bad(KtapOutcome outcome);  // fail or crashed

struct KtapTest {
  std::string path;
  KtapOutcome outcome = KtapOutcome::k_crashed;
};

// The driver's tree, {"name", "status" (a TestStatus name), "subtests": [...]},
// below SUITE: every node but the root (the parser's "main"), parents
// before their subtests; a tree without a single test is one result, SUITE
// with the root's own status (so it is compared, never dropped). Throws Error(k_check_failed) on a
// tree that is not that shape or an unknown status.
std::vector<KtapTest> flatten_ktap(const nlohmann::json& root, const std::string& suite);

// One result a line, "OUTCOME<TAB>PATH" (a suite verdict's details, for
// the reports).
std::string encode_ktap(const std::vector<KtapTest>& tests);

}  // namespace kseries::oracle
