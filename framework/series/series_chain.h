#pragma once
// A series together with the series it depends on (its `depends` file),
// loaded depth first so prerequisites come before the series that needs them.

#include <filesystem>
#include <memory>
#include <vector>

#include "series/series.h"

namespace kseries {

// Prerequisites first, `source` last; each series once. Throws Error(k_usage)
// on a dependency cycle or nesting deeper than 8.
std::vector<std::unique_ptr<Series>> load_series_chain(const std::filesystem::path& source,
                                                       const SeriesLimits& limits = {});

}  // namespace kseries
