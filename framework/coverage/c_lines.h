#pragma once
// The line-level reading of C text that coverage/source_context.h builds on:
// comments, preprocessor directives and `if (...)` conditions, one line (or
// one list of lines) at a time, without state across calls.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kseries::coverage::c_lines {

// LINES without their comments (a block comment may span lines); string and
// character literals are kept, as they are.
std::vector<std::string> strip_comments(const std::vector<std::string>& lines);

// "#  ifdef X" -> {"ifdef", "X"}; {"", ""} when LINE is no directive.
std::pair<std::string, std::string> directive(std::string_view line);

std::string first_word(std::string_view text);

// "!(EXPRESSION)".
std::string negate(const std::string& expression);

// An #if block while it is open: the branches before the current one and
// the current one's condition ("" for #else).
struct Block {
  int line = 0;
  std::string text;
  std::vector<std::string> earlier;
  std::string current;

  // What holds inside the current branch, in #if syntax ("1" for none).
  std::string expression() const;
};

// Whether TEXT tests a config option: IS_ENABLED(), IS_BUILTIN(),
// IS_MODULE() or IS_REACHABLE().
bool names_config_test(std::string_view text);

// The condition of the `if (...)` that TEXT starts with (after "} else "),
// or "" when TEXT is no if statement.
std::string if_condition(std::string_view text);

// The name of the function whose body opens at line OPEN (1-based) of CODE:
// the identifier before the first '(' of the (up to) four lines above it;
// "" when none of them has one.
std::string function_name_above(const std::vector<std::string>& code, int open);

}  // namespace kseries::coverage::c_lines
