#include "series/series_chain.h"

#include "core/error.h"

namespace kseries {

namespace fs = std::filesystem;

namespace {

constexpr int k_max_depth = 8;

void load(const fs::path& source, const SeriesLimits& limits,
          std::vector<std::unique_ptr<Series>>& chain, std::vector<fs::path>& stack) {
  const fs::path canonical = fs::weakly_canonical(source);
  for (const auto& open : stack) {
    if (open == canonical) {
      throw usage_error("series dependency cycle: " + canonical.string() +
                        " depends on itself through its depends file");
    }
  }
  for (const auto& loaded : chain) {
    if (loaded->source == canonical) {
      return;
    }
  }
  if (static_cast<int>(stack.size()) >= k_max_depth) {
    throw usage_error("series dependencies nest deeper than " + std::to_string(k_max_depth) +
                      " at " + canonical.string());
  }
  auto series = std::make_unique<Series>(load_series(source, limits));
  stack.push_back(canonical);
  for (const auto& dependency : series->depends) {
    load(dependency, limits, chain, stack);
  }
  stack.pop_back();
  chain.push_back(std::move(series));
}

}  // namespace

std::vector<std::unique_ptr<Series>> load_series_chain(const fs::path& source,
                                                       const SeriesLimits& limits) {
  std::vector<std::unique_ptr<Series>> chain;
  std::vector<fs::path> stack;
  load(source, limits, chain, stack);
  return chain;
}

}  // namespace kseries
