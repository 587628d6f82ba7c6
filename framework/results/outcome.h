#pragma once
// The one outcome vocabulary of a run (lit's ResultCode): what a gate cell,
// a series' verdict on a cell and the reports say happened. An expectation
// changes the outcome itself, not a message about it: a known-bad
// revision's cell that fails as expected is xfail, one that passes is xpass
// (and xpass is a failure).

#include <optional>
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

}  // namespace kseries::results
