#pragma once
// Why a changed line was never compiled, from the tree: the enclosing
// conditions that are false in this kernel's .config, the Kconfig symbols
// (or the tree's own macros, followed to their #define and its conditions)
// that would make them true, and whether any target could set them: "set by
// target T", "no target of this matrix", or "not possible on this
// architecture" (a macro only other architectures define, a symbol only
// their Kconfig declares, or a symbol the line also needs that `depends on`
// the opposite, with kconfig_index's chain).

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "coverage/cpp_condition.h"
#include "coverage/macro_index.h"
#include "coverage/source_context.h"
#include "kernel/kconfig.h"
#include "kernel/kconfig_index.h"

namespace kseries::coverage {

struct TreeFacts {
  kernel::DotConfig config;                       // the built kernel's .config
  const kernel::KconfigIndex* kconfig = nullptr;  // may be null: no depends chains
  MacroIndex macros;
  std::string arch = "x86_64";  // the kernel's (x86_64, arm64)
  // Every target of the matrix (name -> its fragments' requests), for
  // "set by target T".
  std::map<std::string, std::vector<kernel::ConfigRequest>> targets;
  // The targets of the matrix being judged (the gate's); empty: every
  // target counts. A setter outside it is named as such ("no target of
  // this matrix (section-in-page-flags would, outside it)").
  std::set<std::string> matrix;
};

struct NeverCompiled {
  // "SYMBOL: reason", for the summary line (e.g. "WANT_PAGE_VIRTUAL: not
  // possible on x86_64", "KASAN: set by target kasan").
  std::string key;
  std::vector<std::string> details;  // one line each: the condition, its symbols, the chain
  bool impossible = false;           // no target of any kind could compile it here
};

class ReasonFinder {
 public:
  explicit ReasonFinder(const TreeFacts& facts) : m_facts(facts) {}

  // The value of CONDITION under the .config (with OVERRIDES on top), and
  // the symbols it reads, through the tree's macros.
  ConditionValue evaluate(const std::string& expression,
                          const std::map<std::string, std::string>& overrides = {}) const;

  // The false (or undecidable) conditions among CONDITIONS and what they
  // need; nullopt when every condition holds.
  std::optional<NeverCompiled> explain(const std::vector<EnclosingCondition>& conditions) const;

 private:
  std::optional<bool> macro_defined(const std::string& name,
                                    const std::map<std::string, std::string>& overrides,
                                    std::set<std::string>& symbols, int depth) const;
  ConditionValue evaluate_at(const std::string& expression,
                             const std::map<std::string, std::string>& overrides, int depth) const;
  const ConditionValue& evaluate_cached(const EnclosingCondition& condition,
                                        const std::map<std::string, std::string>& overrides,
                                        int depth) const;
  bool holds_under(const EnclosingCondition& condition,
                   const std::map<std::string, std::string>& overrides) const;
  std::string arch_dir() const;
  // The select that keeps SYMBOL on on this architecture whatever a
  // configuration asks ("arch/x86/Kconfig:83: X86 selects it if X86_64"),
  // nullopt when none does.
  std::optional<std::string> forced_select(const std::string& symbol) const;
  bool forced_on(const std::string& symbol) const;
  struct Explanation;
  void explain_macro(const std::string& macro, Explanation& e) const;
  void explain_symbol(const std::string& symbol, Explanation& e) const;
  bool impossible_symbol(const std::string& symbol, const std::string& wanted, Explanation& e,
                         std::string& line) const;
  std::string setters_of(const std::string& symbol, const std::string& wanted,
                         std::string& line) const;

  const TreeFacts& m_facts;
  // The values of the conditions judged so far (by identity, overrides
  // and depth): each is read once, whatever the number of lines under it.
  mutable std::map<std::pair<const void*, std::string>,
                   std::pair<EnclosingCondition, ConditionValue>>
      m_values;
};

}  // namespace kseries::coverage
