#pragma once
// Crash points for the tests of crash safety: failpoint("watch-gated")
// kills this process with SIGKILL (what `kill -9` does, at a chosen point)
// when KSERIES_FAILPOINT names it: "NAME" at its first pass, "NAME:N" at
// its N-th. Without the variable it does nothing.

#include <string_view>

namespace kseries {

void failpoint(std::string_view name);

}  // namespace kseries
