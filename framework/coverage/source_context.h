#pragma once
// What the tree's text says about one line of a C file, for a line the line
// table has no row for: the `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else` blocks
// and `if (IS_ENABLED(CONFIG_X))` statements around it, whether it is part
// of a `#define` (a macro's code is the compiler's at each line that expands
// it, never at the definition), whether it can hold code at all, and the
// function it is in. Kernel style is assumed where it matters: a function's
// body opens and closes with a brace in column 0.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kseries::coverage {

struct EnclosingCondition {
  enum class Kind { k_preprocessor, k_if_statement };
  Kind kind = Kind::k_preprocessor;
  int line = 0;            // the directive's or the `if`'s line (1-based)
  std::string text;        // as written: "#ifdef SECTION_IN_PAGE_FLAGS", "if (IS_ENABLED(...))"
  std::string expression;  // what must hold for the line to be compiled, in #if syntax
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
  // condition is constant false).
  std::vector<EnclosingCondition> conditions(int line) const;

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
  std::vector<EnclosingCondition> if_statements(int line) const;

  std::vector<std::string> m_lines;
  std::vector<std::string> m_code;  // the lines without comments
};

}  // namespace kseries::coverage
