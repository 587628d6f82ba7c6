#include "coverage/reasons.h"

#include <algorithm>
#include <filesystem>

#include "core/error.h"
#include "core/text.h"

namespace kseries::coverage {

namespace fs = std::filesystem;

std::string ReasonFinder::arch_dir() const {
  return m_facts.arch == "x86_64" || m_facts.arch == "i386" ? "x86" : m_facts.arch;
}

namespace {

// "arch/m68k/include/asm/page.h" -> "m68k"; "" outside arch/.
std::string arch_of(const std::string& file) {
  if (!starts_with(file, "arch/")) {
    return "";
  }
  const auto slash = file.find('/', 5);
  return file.substr(5, slash == std::string::npos ? std::string::npos : slash - 5);
}

std::string value_in(const kernel::DotConfig& config,
                     const std::map<std::string, std::string>& overrides,
                     const std::string& symbol) {
  if (const auto it = overrides.find(symbol); it != overrides.end()) {
    return it->second;
  }
  const std::string value = kernel::config_value(config, symbol);
  return value == "n" ? "" : value;
}

// A condition as a detail line shows it: at most k_max_shown_bytes of it.
constexpr std::size_t k_max_shown_bytes = 160;
constexpr std::size_t k_max_sites_shown = 8;
constexpr std::size_t k_max_details = 24;

std::string shown(const std::string& text) {
  return text.size() > k_max_shown_bytes ? text.substr(0, k_max_shown_bytes) + "..." : text;
}

std::string joined(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const auto& item : items) {
    out += (out.empty() ? "" : separator) + item;
  }
  return out;
}

// "A && B": the conjuncts, each a bare symbol; nullopt for anything else
// (an ||, a negation, a comparison: not judged).
std::optional<std::vector<std::string>> bare_conjuncts(const std::string& expression) {
  std::vector<std::string> names;
  std::size_t pos = 0;
  while (pos <= expression.size()) {
    const std::size_t amp = expression.find("&&", pos);
    const std::string word(
        trim(std::string_view(expression).substr(pos, amp == std::string::npos ? amp : amp - pos)));
    if (word.empty() || !std::all_of(word.begin(), word.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        })) {
      return std::nullopt;
    }
    names.push_back(word);
    if (amp == std::string::npos) {
      break;
    }
    pos = amp + 2;
  }
  return names;
}

// Whether a `depends on` expression requires SYMBOL itself (a conjunct).
bool requires_symbol(const std::string& depends, const std::string& symbol) {
  std::string text = depends;
  std::replace(text.begin(), text.end(), '(', ' ');
  std::replace(text.begin(), text.end(), ')', ' ');
  if (text.find("||") != std::string::npos) {
    return false;
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto end = std::min(text.find("&&", start), text.size());
    if (trim(std::string_view(text).substr(start, end - start)) == symbol) {
      return true;
    }
    start = end + 2;
  }
  return false;
}

}  // namespace

// A symbol of this architecture's own Kconfig that no configuration can
// turn off: on in this .config, and no prompt in any of its definitions
// (def_bool y, like X86 and X86_64).
bool ReasonFinder::forced_on(const std::string& symbol) const {
  if (!m_facts.kconfig || value_in(m_facts.config, {}, symbol) != "y") {
    return false;
  }
  const auto& definitions = m_facts.kconfig->definitions(symbol);
  return !definitions.empty() &&
         std::all_of(definitions.begin(), definitions.end(), [&](const auto& definition) {
           return !definition.has_prompt && arch_of(definition.file) == arch_dir();
         });
}

std::optional<std::string> ReasonFinder::forced_select(const std::string& symbol) const {
  if (!m_facts.kconfig) {
    return std::nullopt;
  }
  for (const auto& site : m_facts.kconfig->selected_by(symbol)) {
    if (!forced_on(site.selector)) {
      continue;
    }
    if (!site.condition.empty()) {
      const auto names = bare_conjuncts(site.condition);
      if (!names || !std::all_of(names->begin(), names->end(),
                                 [&](const std::string& name) { return forced_on(name); })) {
        continue;
      }
    }
    return site.file + ":" + std::to_string(site.line) + ": " + site.selector + " selects it" +
           (site.condition.empty() ? "" : " if " + site.condition);
  }
  return std::nullopt;
}

std::optional<bool> ReasonFinder::macro_defined(const std::string& name,
                                                const std::map<std::string, std::string>& overrides,
                                                std::set<std::string>& symbols, int depth) const {
  if (const auto it = overrides.find("#" + name); it != overrides.end()) {
    return !it->second.empty();  // explain() trying the other value
  }
  // What kbuild's command line defines for C: -D__KERNEL__, and never
  // __ASSEMBLY__ (assembler only), __CHECKER__ (sparse), __GENKSYMS__.
  if (name == "__KERNEL__" || name == "__GNUC__") {
    return true;
  }
  if (name == "__ASSEMBLY__" || name == "__CHECKER__" || name == "__GENKSYMS__") {
    return false;
  }
  if (name == "__clang__") {
    return value_in(m_facts.config, overrides, "CC_IS_CLANG") == "y";
  }
  const auto* definitions = m_facts.macros.find(name);
  if (!definitions) {
    return std::nullopt;  // not looked up, or nowhere: undecided here, explained by explain()
  }
  bool unknown = false;
  for (const auto& definition : *definitions) {
    const std::string arch = arch_of(definition.file);
    if (!arch.empty() && arch != arch_dir()) {
      continue;  // another architecture's header
    }
    std::optional<bool> holds = true;
    for (const auto& condition : definition.conditions) {
      const ConditionValue& value = evaluate_cached(condition, overrides, depth + 1);
      symbols.insert(value.symbols.begin(), value.symbols.end());
      if (value.value == false) {
        holds = false;
        break;
      }
      if (!value.value) {
        holds = std::nullopt;
      }
    }
    if (holds == true) {
      return true;
    }
    unknown = unknown || !holds;
  }
  return unknown ? std::nullopt : std::optional<bool>(false);
}

ConditionValue ReasonFinder::evaluate_at(const std::string& expression,
                                         const std::map<std::string, std::string>& overrides,
                                         int depth) const {
  std::set<std::string> through_macros;
  ConditionEnvironment env;
  env.config = [&](const std::string& symbol) {
    return value_in(m_facts.config, overrides, symbol);
  };
  env.defined = [&](const std::string& name) -> std::optional<bool> {
    if (depth > 4) {
      return std::nullopt;
    }
    return macro_defined(name, overrides, through_macros, depth);
  };
  ConditionValue value = evaluate_condition(expression, env);
  value.symbols.insert(through_macros.begin(), through_macros.end());
  return value;
}

ConditionValue ReasonFinder::evaluate(const std::string& expression,
                                      const std::map<std::string, std::string>& overrides) const {
  return evaluate_at(expression, overrides, 0);
}

// A condition of a text is evaluated once per set of overrides and depth:
// many lines (and many macro definitions) share it.
const ConditionValue& ReasonFinder::evaluate_cached(
    const EnclosingCondition& condition, const std::map<std::string, std::string>& overrides,
    int depth) const {
  std::string key = std::to_string(depth);
  for (const auto& [name, value] : overrides) {
    key += "\n" + name + "=" + value;
  }
  const auto slot = std::make_pair(condition.identity(), key);
  auto it = m_values.find(slot);
  if (it == m_values.end()) {
    // The cache holds the condition, so its identity is not reused.
    it = m_values
             .emplace(slot, std::make_pair(condition,
                                           evaluate_at(condition.expression(), overrides, depth)))
             .first;
  }
  return it->second.second;
}

bool ReasonFinder::holds_under(const EnclosingCondition& condition,
                               const std::map<std::string, std::string>& overrides) const {
  // A condition that did not read an overridden symbol takes the same path
  // under the override: its value stays (a cheap answer for the common
  // case, the symbol of another condition).
  if (overrides.size() == 1 && overrides.begin()->first.front() != '#') {
    const ConditionValue& now = evaluate_cached(condition, {}, 0);
    if (!now.symbols.count(overrides.begin()->first)) {
      return now.value == true;
    }
  }
  return evaluate_cached(condition, overrides, 0).value == true;
}

// What explain() works out for one line, step by step.
struct ReasonFinder::Explanation {
  std::vector<const EnclosingCondition*> failing;
  std::vector<const EnclosingCondition*> undecided;
  std::set<std::string> needed_y;  // symbols currently y that true conditions read
  std::set<std::string> symbols;
  std::set<std::string> macros;
  NeverCompiled out;
  std::string key_name;
  std::string verdict;

  // Whether every failing condition holds under OVERRIDES.
  bool all_hold(const ReasonFinder& finder,
                const std::map<std::string, std::string>& overrides) const {
    return std::all_of(failing.begin(), failing.end(), [&](const EnclosingCondition* condition) {
      return finder.holds_under(*condition, overrides);
    });
  }
};

std::optional<NeverCompiled> ReasonFinder::explain(
    const std::vector<EnclosingCondition>& conditions) const {
  Explanation e;
  for (const auto& condition : conditions) {
    const ConditionValue& value = evaluate_cached(condition, {}, 0);
    if (value.value == true) {
      for (const auto& symbol : value.symbols) {
        if (value_in(m_facts.config, {}, symbol) == "y") {
          e.needed_y.insert(symbol);
        }
      }
    } else if (value.value == false) {
      e.failing.push_back(&condition);
      e.symbols.insert(value.symbols.begin(), value.symbols.end());
      e.macros.insert(value.macros.begin(), value.macros.end());
    } else {
      e.undecided.push_back(&condition);
    }
  }
  // Only a condition known false explains a missing row; an undecided one
  // (a value this reader cannot compute) is listed beside it.
  if (e.failing.empty()) {
    return std::nullopt;
  }
  for (const auto* condition : e.failing) {
    e.out.details.push_back("line " + std::to_string(condition->line) + ": " +
                            shown(condition->text()) + " (false here)");
  }
  for (const auto* condition : e.undecided) {
    e.out.details.push_back("line " + std::to_string(condition->line) + ": " +
                            shown(condition->text()) + " (undecided here)");
  }
  for (const auto& macro : e.macros) {
    explain_macro(macro, e);
  }
  for (const auto& symbol : e.symbols) {
    explain_symbol(symbol, e);
  }
  if (e.key_name.empty() && !e.symbols.empty()) {
    e.key_name = *e.symbols.begin();
  }
  if (e.verdict.empty()) {
    e.verdict = e.symbols.empty() && e.macros.empty() ? "undecided condition"
                                                      : "no single symbol decides it";
  }
  e.out.key =
      (e.key_name.empty() ? shown(e.failing.front()->text()) : e.key_name) + ": " + e.verdict;
  if (e.out.details.size() > k_max_details) {
    const std::size_t more = e.out.details.size() - k_max_details;
    e.out.details.resize(k_max_details);
    e.out.details.push_back("... and " + std::to_string(more) + " more");
  }
  return std::move(e.out);
}

// A macro of the tree's own: where it is defined, and whether here. The
// ones that decide: defined (or not) instead, every failing condition holds.
void ReasonFinder::explain_macro(const std::string& macro, Explanation& e) const {
  const auto now = evaluate("defined(" + macro + ")").value;
  const bool decides = e.all_hold(*this, {{"#" + macro, now == true ? "" : "1"}});
  const auto* definitions = m_facts.macros.find(macro);
  if (!definitions || definitions->empty()) {
    e.out.details.push_back(macro + ": defined nowhere in the tree's headers");
    if (decides && now != true && e.key_name.empty()) {
      e.key_name = macro;
      e.verdict = "not possible (defined nowhere in the tree)";
      e.out.impossible = true;
    }
    return;
  }
  std::vector<std::string> sites;
  std::set<std::string> arches;
  bool here = false;
  for (const auto& definition : *definitions) {
    const std::string arch = arch_of(definition.file);
    arches.insert(arch.empty() ? "(all)" : arch);
    here = here || arch.empty() || arch == arch_dir();
    if (sites.size() == k_max_sites_shown) {
      sites.push_back("...");
    }
    if (sites.size() > k_max_sites_shown) {
      continue;
    }
    std::string site = definition.file + ":" + std::to_string(definition.line);
    std::vector<std::string> under;
    for (const auto& condition : definition.conditions) {
      under.push_back(shown(condition.text()));
    }
    if (!under.empty()) {
      site += " under " + joined(under, ", ");
    }
    sites.push_back(site);
  }
  e.out.details.push_back(macro + ": defined at " + joined(sites, "; "));
  if (!decides) {
    return;
  }
  if (!here && now != true) {
    e.key_name = macro;
    std::vector<std::string> list(arches.begin(), arches.end());
    e.verdict = "not possible on " + m_facts.arch + " (only " + joined(list, ", ") + " define it)";
    e.out.impossible = true;
  } else if (e.key_name.empty()) {
    e.key_name = macro;
  }
}

// Why SYMBOL (off when WANTED is "", else on) cannot be had on this
// architecture, appended to LINE; false when it can.
bool ReasonFinder::impossible_symbol(const std::string& symbol, const std::string& wanted,
                                     Explanation& e, std::string& line) const {
  bool impossible = false;
  if (m_facts.kconfig && m_facts.kconfig->knows(symbol)) {
    bool declared_here = false;
    for (const auto& definition : m_facts.kconfig->definitions(symbol)) {
      const std::string arch = arch_of(definition.file);
      declared_here = declared_here || arch.empty() || arch == arch_dir();
      if (!definition.depends.empty()) {
        e.out.details.push_back(symbol + " (" + definition.file + ":" +
                                std::to_string(definition.line) + ") depends on " +
                                joined(definition.depends, " && "));
      }
    }
    if (!declared_here && !wanted.empty()) {
      impossible = true;
      line +=
          ": not possible on " + m_facts.arch + " (declared only in other architectures' Kconfig)";
    }
    if (wanted.empty()) {
      if (const auto site = forced_select(symbol)) {
        impossible = true;
        line += ": not possible on " + m_facts.arch + " (CONFIG_" + symbol + "=y: " + *site + ")";
      }
    }
  }
  // A symbol the line needs too (an enclosing condition that holds) that
  // depends on this one: turning this off turns that off.
  for (const auto& other : e.needed_y) {
    if (!wanted.empty() || !m_facts.kconfig || !m_facts.kconfig->knows(other)) {
      continue;
    }
    for (const auto& definition : m_facts.kconfig->definitions(other)) {
      for (const auto& depends : definition.depends) {
        if (requires_symbol(depends, symbol)) {
          impossible = true;
          line += ": not possible on " + m_facts.arch + " with CONFIG_" + other + ", which (" +
                  definition.file + ":" + std::to_string(definition.line) + ") depends on " +
                  depends;
        }
      }
    }
  }
  return impossible;
}

// The targets that set SYMBOL as WANTED: "target a, b", or "no target of
// this matrix" (naming the ones outside the matrix that would).
std::string ReasonFinder::setters_of(const std::string& symbol, const std::string& wanted,
                                     std::string& line) const {
  std::vector<std::string> setters;
  for (const auto& [target, requests] : m_facts.targets) {
    for (const auto& request : requests) {
      if (request.symbol == symbol && (request.value == (wanted.empty() ? "n" : "y") ||
                                       (!wanted.empty() && request.value == "m"))) {
        setters.push_back(target);
      }
    }
  }
  std::vector<std::string> outside;
  if (!m_facts.matrix.empty()) {
    std::erase_if(setters, [&](const std::string& target) {
      const bool out = !m_facts.matrix.count(target);
      if (out) {
        outside.push_back(target);
      }
      return out;
    });
  }
  const std::string elsewhere =
      outside.empty() ? "" : " (" + joined(outside, ", ") + " would, outside it)";
  line += setters.empty() ? ": no target of this matrix sets it" + elsewhere
                          : ": set by target " + joined(setters, ", ");
  return setters.empty() ? "no target of this matrix" + elsewhere
                         : "target " + joined(setters, ", ");
}

// A Kconfig symbol whose value alone would make every failing condition
// true, and whether a target could give it.
void ReasonFinder::explain_symbol(const std::string& symbol, Explanation& e) const {
  const std::string now = value_in(m_facts.config, {}, symbol);
  const std::string wanted = now == "y" || now == "m" ? "" : "y";
  if (!e.all_hold(*this, {{symbol, wanted}})) {
    return;
  }
  const std::string assignment = symbol + "=" + (wanted.empty() ? "n" : "y");
  std::string line =
      "needs CONFIG_" + assignment + " (this kernel: " + (now.empty() ? "n" : now) + ")";
  if (!impossible_symbol(symbol, wanted, e, line)) {
    const std::string setters = setters_of(symbol, wanted, line);
    if (e.verdict.empty() || e.key_name.empty()) {
      e.verdict = setters;
    }
  } else if (!e.out.impossible) {
    e.out.impossible = true;
    e.verdict = line.substr(line.find(": not possible") + 2);
  }
  if (e.key_name.empty()) {
    e.key_name = symbol;
  }
  e.out.details.push_back(line);
}

}  // namespace kseries::coverage
