#pragma once
// Option words turned into values once, here, for every command: a word
// that is none of them is a usage error (exit 2) before any work starts.

#include <string>

#include "qemu/vm.h"

namespace kseries::cli {

// --accel: auto, kvm or tcg.
qemu::Accel parse_accel(const std::string& text);

// Whether --clock may be "both" (`kseries boot`: a session per clock).
enum class ClockBoth { k_refused, k_allowed };
// --clock: auto, icount, memory or wall (or both where allowed); TEXT
// itself, checked.
std::string checked_clock(const std::string& text, ClockBoth both = ClockBoth::k_refused);

// --pmem: legacy or nvdimm; TEXT itself, checked.
std::string checked_pmem(const std::string& text);

}  // namespace kseries::cli
