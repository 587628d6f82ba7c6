#pragma once
// Seconds of wall time since a point on the steady clock: what a cell, a
// build or an apply records as its duration.

#include <chrono>

namespace kseries {

using SteadyClock = std::chrono::steady_clock;

inline double seconds_since(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

}  // namespace kseries
