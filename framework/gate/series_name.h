#pragma once
// The name a gate gives a series revision: the loaded series' name, or, for
// one that does not load, its directory named as series are
// ("zone-device-memmap/v6" for .../zone-device-memmap/v6, else the leaf). A
// stable test identity: the path differs on every CI runner.

#include <filesystem>
#include <string>

namespace kseries::gate {

std::string unloaded_series_name(const std::filesystem::path& dir);

// Loads the series (and its prerequisites) to name it; never throws for a
// series that does not load.
std::string gate_series_name(const std::filesystem::path& dir);

}  // namespace kseries::gate
