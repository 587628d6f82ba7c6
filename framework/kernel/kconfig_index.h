#pragma once
// Where each Kconfig symbol is defined in a source tree and what it depends
// on: enough to say why olddefconfig dropped a symbol a fragment asked for.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "kernel/kconfig.h"

namespace kseries::kernel {

struct SymbolDefinition {
  std::string file;  // relative to the source tree
  int line = 0;
  std::vector<std::string> depends;  // "depends on" expressions, enclosing "if" blocks included
  bool has_prompt = false;           // false: only a select or a default can set it
  int choice = -1;                   // index of its choice block, -1 if none
};

// A "choice ... endchoice" block: only one member can be y, and the whole
// choice is offered only when its own dependencies hold.
struct ChoiceDefinition {
  std::string file;
  int line = 0;
  std::string prompt;                // the choice's prompt text, if any
  std::vector<std::string> depends;  // its "depends on", enclosing "if" blocks included
  std::vector<std::string> members;
};

// A "select SYMBOL [if EXPR]" line: SELECTOR forces SYMBOL on when EXPR
// holds (and SELECTOR is on), whatever SYMBOL's own prompt says.
struct SelectSite {
  std::string selector;
  std::string file;  // relative to the source tree
  int line = 0;
  std::string condition;  // the "if" expression, "" when unconditional
};

class KconfigIndex {
 public:
  // Reads every file named Kconfig* below `source_tree`.
  static KconfigIndex scan(const std::filesystem::path& source_tree);
  // Indexes one Kconfig text (tests, and scan()).
  void add_file(const std::string& text, const std::string& relative_path);

  bool knows(const std::string& symbol) const { return m_symbols.count(symbol) > 0; }
  const std::vector<SymbolDefinition>& definitions(const std::string& symbol) const;
  std::size_t size() const { return m_symbols.size(); }
  // The symbols that select SYMBOL, in file order.
  const std::vector<SelectSite>& selected_by(const std::string& symbol) const;
  const ChoiceDefinition& choice(int index) const { return m_choices.at(index); }

 private:
  std::map<std::string, std::vector<SymbolDefinition>> m_symbols;
  std::vector<ChoiceDefinition> m_choices;
  std::map<std::string, std::vector<SelectSite>> m_selects;
};

// One line on why a requested value did not survive olddefconfig, e.g.
// "CONFIG_ZONE_DEVICE=y (pmem.config:14) is n: mm/Kconfig:1078 depends on
//  MEMORY_HOTPLUG && SPARSEMEM_VMEMMAP; unmet: SPARSEMEM_VMEMMAP=n".
std::string explain_dropped(const Dropped& dropped, const KconfigIndex& index,
                            const DotConfig& config);

}  // namespace kseries::kernel
