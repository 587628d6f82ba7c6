#pragma once
// Where the tree #defines the macros the conditions around the changed
// lines test (SECTION_IN_PAGE_FLAGS, WANT_PAGE_VIRTUAL), and under which
// conditions: what the reason finder (coverage/reasons.h) follows a macro
// to. Each file scanned is read once, bounded, in one pass.

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "coverage/source_context.h"

namespace kseries::coverage {

// Where the tree #defines a name, and under which conditions.
struct MacroDefinition {
  std::string file;  // relative to the tree
  int line = 0;
  std::vector<EnclosingCondition> conditions;
};

// The most definitions of one name kept (the kernel's most defined names,
// PAGE_SHIFT and the like, have one per architecture: ~25).
inline constexpr std::size_t k_max_definitions = 256;

class MacroIndex {
 public:
  void add(const std::string& name, MacroDefinition definition);
  // Reads the #define sites of NAMES from the headers below TREE (include/,
  // arch/*/include/) and from FILES (relative paths).
  // FILES (relative paths) are skipped there: the caller adds their text
  // (e.g. the tip's version) with add_text().
  void scan(const std::filesystem::path& tree, const std::set<std::string>& names,
            const std::set<std::string>& skip = {});
  // Reads the #define sites of NAMES in one file's TEXT.
  void add_text(const std::string& relative, std::string_view text,
                const std::set<std::string>& names);
  const std::vector<MacroDefinition>* find(const std::string& name) const;

 private:
  std::map<std::string, std::vector<MacroDefinition>> m_definitions;
};

}  // namespace kseries::coverage
