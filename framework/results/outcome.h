#pragma once
// The one outcome vocabulary of a run (lit's ResultCode): what a gate cell,
// a series' verdict on a cell and the reports say happened. An expectation
// changes the outcome itself, not a message about it: a known-bad
// revision's cell that fails as expected is xfail, one that passes is xpass
// (and xpass is a failure).

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace kseries::results {

enum class Outcome { k_pass, k_fail, k_xfail, k_xpass, k_skip, k_error, k_interrupted };

// fail, xpass, error and interrupted: the run is not good.
bool is_failure(Outcome outcome);
// "pass", "fail", "xfail", "xpass", "skip", "error", "interrupted": the
// word gate.json and the reports use.
std::string outcome_name(Outcome outcome);
// The inverse of outcome_name; nullopt for any other word.
std::optional<Outcome> parse_outcome(std::string_view name);
// lit's Test.setResult for a cell that is expected to fail: fail becomes
// xfail, pass becomes xpass; any other outcome stays.
Outcome expect_failure(Outcome outcome);

// Outcomes folded into one (kunit_tool's max_status): the worst, ranked
// interrupted > error > xpass > fail > xfail > pass > skip, so a series of
// passes and expected failures is xfail (EXPECTED), one skip among passes
// a pass; nothing at all is skip.
Outcome fold(std::span<const Outcome> outcomes);
// The word a verdict (a series', a gate's) is given in every report: the
// text, JUnit, HTML, KCIDB and the answer mail. "PASS", "SKIP", "EXPECTED"
// (xfail: a known-bad revision caught by the cells its expectations name),
// "FAIL" (fail, xpass), "ERROR", "INTERRUPTED".
std::string verdict_word(Outcome outcome);
// verdict_word in lower case, for a JSON value or a CSS class: "pass",
// "expected", "fail", ...
std::string verdict_key(Outcome outcome);

}  // namespace kseries::results
