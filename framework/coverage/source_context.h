#pragma once
// What the tree's text says about one line of a C file, for a line the line
// table has no row for: the `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else` blocks
// and `if (IS_ENABLED(CONFIG_X))` statements around it, whether it is part
// of a `#define` (a macro's code is the compiler's at each line that expands
// it, never at the definition), whether it can hold code at all, and the
// function it is in. Kernel style is assumed where it matters: a function's
// body opens and closes with a brace in column 0.
//
// Cost: the constructor reads the text once, in time and memory linear in
// its size; every query after that costs a constant (at most
// k_max_conditions conditions of at most k_max_condition_bytes each), not
// the line's distance from the top of the file or from its function's
// brace. Text from a series is hostile: `#ifdef` nested 10,000 deep, a
// 100,000-line function, an `#elif` chain of thousands must stay linear.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kseries::coverage {

// The most enclosing conditions of each kind (preprocessor blocks,
// IS_ENABLED() statements) a line is judged under, outermost first. The
// kernel nests #if blocks at most 6 deep (v6.12); a deeper line is judged
// on its outermost k_max_conditions and says so (conditions_dropped).
inline constexpr std::size_t k_max_conditions = 32;
// The longest condition evaluated (the kernel's longest #if is ~320 bytes);
// a longer one, or an #elif branch after k_max_conditions earlier ones, is
// kept as written but evaluates as undecided.
inline constexpr std::size_t k_max_condition_bytes = 1024;

class EnclosingCondition {
 public:
  enum class Kind { k_preprocessor, k_if_statement };
  EnclosingCondition(Kind kind, int line, std::string text, std::string expression);

  Kind kind = Kind::k_preprocessor;
  int line = 0;  // the directive's or the `if`'s line (1-based)
  // As written: "#ifdef SECTION_IN_PAGE_FLAGS", "if (IS_ENABLED(...))"
  // (cut at k_max_condition_bytes).
  const std::string& text() const { return *m_text; }
  // What must hold for the line to be compiled, in #if syntax ("" when
  // longer than k_max_condition_bytes: undecided).
  const std::string& expression() const { return *m_expression; }
  // Stable while any copy lives: one per condition of a text, shared by
  // every line under it (a cache key for its value).
  const void* identity() const { return m_expression.get(); }

 private:
  // Shared, never copied: a condition encloses many lines.
  std::shared_ptr<const std::string> m_text;
  std::shared_ptr<const std::string> m_expression;
};

class SourceText {
 public:
  explicit SourceText(std::string_view text);

  std::size_t size() const { return m_lines.size(); }
  const std::string& line(int number) const { return m_lines.at(number - 1); }

  // The conditions LINE (1-based) is compiled under, outermost first: every
  // open #if block (an #elif or #else branch as the negation of the
  // branches before it, and its own condition), then the enclosing
  // `if (...)` statements whose condition names IS_ENABLED, IS_BUILTIN,
  // IS_MODULE or IS_REACHABLE (the compiler drops such a branch when the
  // condition is constant false). At most k_max_conditions of each kind.
  std::vector<EnclosingCondition> conditions(int line) const;
  // How many enclosing conditions past k_max_conditions LINE has (0: none
  // left out).
  std::size_t conditions_dropped(int line) const;
  // Lines with the same key have the same conditions(): a cache key.
  using ConditionsKey = std::array<int, 3>;
  ConditionsKey conditions_key(int line) const;

  // Whether LINE belongs to a #define (its first line or a continuation).
  bool in_macro_definition(int line) const;

  // Whether LINE can produce no code by itself: blank, comment, a
  // preprocessor directive, braces or semicolons only.
  bool holds_no_code(int line) const;

  // The body of the function around LINE: [first, last] lines between its
  // column-0 braces, and its name; nullopt outside a function.
  struct Function {
    std::string name;
    int first = 0;
    int last = 0;
  };
  std::optional<Function> function_at(int line) const;

 private:
  // One condition and the one enclosing it (-1: outermost).
  struct Node {
    int parent = -1;
    std::size_t depth = 1;
    EnclosingCondition condition;
  };
  void scan_directives();
  void scan_braces();
  void scan_lines();
  // The brace-less `if (...)` testing a config right above LINE, if any.
  std::optional<EnclosingCondition> braceless_if_above(int line) const;

  std::vector<std::string> m_lines;
  std::vector<std::string> m_code;  // the lines without comments
  // Per line (index line - 1), what holds at its start.
  std::vector<int> m_directive_node;     // innermost #if block, -1 none
  std::vector<std::size_t> m_if_depth;   // true #if nesting (may pass the cap)
  std::vector<int> m_brace_node;         // innermost braced config `if`, -1 none
  std::vector<std::size_t> m_if_braces;  // true count of those (may pass the cap)
  std::vector<char> m_macro;             // in a #define
  std::vector<int> m_function_open;      // the column-0 '{' line at or above, 0 none
  std::vector<int> m_function_close;     // the column-0 '}' line at or below, 0 none
  std::vector<int> m_close_above;        // the column-0 '}' line strictly above, 0 none
  std::vector<int> m_nonblank_above;     // the nearest line of code above, 0 none
  std::vector<Node> m_directives;
  std::vector<Node> m_braces;
};

}  // namespace kseries::coverage
