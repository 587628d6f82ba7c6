#pragma once
// SIGINT and SIGTERM: noted, never fatal on the spot. kseries stops at the
// next checkpoint (the process runner kills a running child's group at once
// and refuses to start another; long in-process loops call
// throw_if_interrupted()), writes what the run has, and exits 128 + the
// signal: 130 for SIGINT, 143 for SIGTERM.

#include <string>

namespace kseries {

// Installs the handlers (without SA_RESTART: a blocked read, write or open
// fails with EINTR, so it cannot outlast the signal; sys/ retries only
// when the signal was not ours),
// also over an inherited SIG_IGN (a script's background job starts with
// SIGINT ignored): kill -INT stops kseries wherever it was started. Called
// once, by main, before any command runs.
void install_interrupt_handlers();

// The first SIGINT or SIGTERM received, 0 while there was none.
int interrupt_signal();

// "SIGINT", "SIGTERM".
std::string signal_name(int signal);

// Throws Error(k_interrupted) "interrupted (SIGINT) <what>" once a signal
// came; `what` says where kseries stopped ("before applying patch 3/8").
void throw_if_interrupted(const std::string& what);

// For tests: forget the signal received.
void reset_interrupt_for_tests();

}  // namespace kseries
