#include "gate/series_name.h"

#include <algorithm>
#include <cctype>

#include "core/error.h"
#include "series/series_chain.h"

namespace kseries::gate {

namespace fs = std::filesystem;

std::string unloaded_series_name(const fs::path& dir) {
  const fs::path clean = dir.lexically_normal();
  const fs::path leaf_path = clean.has_filename() ? clean : clean.parent_path();
  const std::string leaf = leaf_path.filename().string();
  const bool revision = leaf.size() > 1 && (leaf[0] == 'v' || leaf[0] == 'V') &&
                        std::all_of(leaf.begin() + 1, leaf.end(), ::isdigit);
  return revision ? leaf_path.parent_path().filename().string() + "/" + leaf : leaf;
}

std::string gate_series_name(const fs::path& dir) {
  try {
    return load_series_chain(dir).back()->name;
  } catch (const Error&) {
    return unloaded_series_name(dir);
  }
}

}  // namespace kseries::gate
