#include "coverage/source_context.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <random>

#include "core/text.h"
#include "coverage/c_lines.h"

namespace kseries::coverage {
namespace {

// The reference: SourceText as it was before it was made linear (every
// query walked the file from its top, or its function from the line up),
// kept here to check the one-pass version against, query by query.
namespace reference {

// The line-level reading is shared (coverage/c_lines.h); the queries are not.
using c_lines::Block;
using c_lines::directive;
using c_lines::first_word;
using c_lines::if_condition;
using c_lines::names_config_test;
using c_lines::negate;
using c_lines::strip_comments;

struct RefCondition {
  EnclosingCondition::Kind kind = EnclosingCondition::Kind::k_preprocessor;
  int line = 0;
  std::string text;
  std::string expression;
};

class Reference {
 public:
  explicit Reference(std::string_view text) {
    for (const auto line : split_lines(text)) {
      m_lines.emplace_back(line);
    }
    m_code = strip_comments(m_lines);
  }
  std::vector<RefCondition> conditions(int line) const;
  std::vector<RefCondition> if_statements(int line) const;
  bool in_macro_definition(int line) const;
  std::optional<SourceText::Function> function_at(int line) const;

 private:
  std::vector<std::string> m_lines;
  std::vector<std::string> m_code;
};

std::vector<RefCondition> Reference::conditions(int line) const {
  std::vector<Block> stack;
  for (int n = 1; n < line && n <= static_cast<int>(m_code.size()); ++n) {
    std::string text = m_code[n - 1];
    int last = n;
    while (!text.empty() && text.back() == '\\' && last < static_cast<int>(m_code.size())) {
      text.pop_back();
      text += " " + m_code[last++];
    }
    const auto [keyword, rest] = directive(text);
    if (keyword == "if") {
      stack.push_back({n, std::string(trim(m_lines[n - 1])), {}, rest});
    } else if (keyword == "ifdef") {
      stack.push_back({n, std::string(trim(m_lines[n - 1])), {}, "defined(" + rest + ")"});
    } else if (keyword == "ifndef") {
      // An include guard (#ifndef X, then #define X) holds whenever the
      // line is compiled at all: "1".
      const bool guard = last < static_cast<int>(m_code.size()) &&
                         directive(m_code[last]).first == "define" && !first_word(rest).empty() &&
                         first_word(directive(m_code[last]).second) == first_word(rest);
      stack.push_back(
          {n, std::string(trim(m_lines[n - 1])), {}, guard ? "1" : "!defined(" + rest + ")"});
    } else if ((keyword == "elif" || keyword == "else") && !stack.empty()) {
      Block& block = stack.back();
      block.earlier.push_back(block.current.empty() ? "1" : block.current);
      block.current = keyword == "elif" ? rest : "";
      block.line = n;
      block.text = std::string(trim(m_lines[n - 1]));
    } else if (keyword == "endif" && !stack.empty()) {
      stack.pop_back();
    }
    n = last;
  }
  std::vector<RefCondition> out;
  for (const auto& block : stack) {
    out.push_back(
        {EnclosingCondition::Kind::k_preprocessor, block.line, block.text, block.expression()});
  }
  const auto statements = if_statements(line);
  out.insert(out.end(), statements.begin(), statements.end());
  return out;
}

// Walks back from LINE: the statement right above (an `if (...)` without a
// brace governs the next statement only), then each unmatched '{' up to the
// function's opening brace, and keeps the if statements testing a config.
std::vector<RefCondition> Reference::if_statements(int line) const {
  std::vector<RefCondition> found;
  auto statement_from = [&](int last) {  // the text of lines [first, last] ending a statement head
    std::string text;
    int first = last;
    int depth = 0;
    for (; first >= 1; --first) {
      const std::string& code = m_code[first - 1];
      text = code + " " + text;
      depth += static_cast<int>(std::count(code.begin(), code.end(), '(')) -
               static_cast<int>(std::count(code.begin(), code.end(), ')'));
      if (depth >= 0 && !if_condition(text).empty()) {
        break;
      }
      if (depth >= 0 &&
          (code.find(';') != std::string::npos || code.find('{') != std::string::npos ||
           code.find('}') != std::string::npos)) {
        return std::pair<int, std::string>{0, ""};
      }
      if (last - first > 8) {
        return std::pair<int, std::string>{0, ""};
      }
    }
    return std::pair<int, std::string>{first, first >= 1 ? text : ""};
  };
  // The statement right above, when it is a brace-less if.
  int above = line - 1;
  while (above >= 1 && trim(m_code[above - 1]).empty()) {
    --above;
  }
  if (above >= 1) {
    const std::string_view head = trim(m_code[above - 1]);
    if (!head.empty() && head.back() == ')') {
      const auto [first, text] = statement_from(above);
      const std::string condition = if_condition(text);
      if (first >= 1 && names_config_test(condition)) {
        found.push_back({EnclosingCondition::Kind::k_if_statement, first,
                         std::string(trim(m_lines[first - 1])), condition});
      }
    }
  }
  // Each enclosing block.
  int depth = 0;
  for (int n = line - 1; n >= 1; --n) {
    const std::string& code = m_code[n - 1];
    for (auto it = code.rbegin(); it != code.rend(); ++it) {
      if (*it == '}') {
        ++depth;
      } else if (*it == '{' && --depth < 0) {
        depth = 0;
        if (!code.empty() && code[0] == '{') {  // the function's own brace
          std::reverse(found.begin(), found.end());
          return found;
        }
        const std::string before(code.begin(), it.base() - 1);
        const std::string condition =
            if_condition(trim(before).empty() && n > 1 ? m_code[n - 2] + before : before);
        if (names_config_test(condition)) {
          found.push_back({EnclosingCondition::Kind::k_if_statement, n,
                           std::string(trim(m_lines[n - 1])), condition});
        }
      }
    }
  }
  std::reverse(found.begin(), found.end());
  return found;
}

bool Reference::in_macro_definition(int line) const {
  int start = line;
  while (start > 1) {
    const std::string& previous = m_lines[start - 2];
    if (previous.empty() || previous.back() != '\\') {
      break;
    }
    --start;
  }
  return directive(m_code[start - 1]).first == "define";
}

std::optional<SourceText::Function> Reference::function_at(int line) const {
  int first = 0;
  for (int n = line; n >= 1; --n) {
    const std::string& code = m_code[n - 1];
    if (!code.empty() && code[0] == '}' && n != line) {
      return std::nullopt;
    }
    if (!code.empty() && code[0] == '{') {
      first = n;
      break;
    }
  }
  if (first == 0) {
    return std::nullopt;
  }
  int last = 0;
  for (int n = line; n <= static_cast<int>(m_code.size()); ++n) {
    if (!m_code[n - 1].empty() && m_code[n - 1][0] == '}') {
      last = n;
      break;
    }
  }
  if (last == 0) {
    return std::nullopt;
  }
  return SourceText::Function{c_lines::function_name_above(m_code, first), first, last};
}

}  // namespace reference

// Random C-ish text from the shapes the kernel's files are made of.
std::string random_source(std::mt19937& random, int lines) {
  static const std::vector<std::string> shapes = {"#ifdef CONFIG_A",
                                                  "#if defined(CONFIG_B) && !IS_ENABLED(CONFIG_C)",
                                                  "#ifndef GUARD_H",
                                                  "#define GUARD_H",
                                                  "#elif CONFIG_NR > 3",
                                                  "#else",
                                                  "#endif",
                                                  "#endif /* x */",
                                                  "#define TWO(x) \\",
                                                  "\t((x) + 2)",
                                                  "#if A || \\",
                                                  "    B",
                                                  "int f(void)",
                                                  "{",
                                                  "}",
                                                  "\tif (IS_ENABLED(CONFIG_KASAN)) {",
                                                  "\tif (IS_ENABLED(CONFIG_X) ||",
                                                  "\t    IS_ENABLED(CONFIG_Y))",
                                                  "\t\treturn;",
                                                  "\t} else if (IS_MODULE(CONFIG_M)) {",
                                                  "\t}",
                                                  "\tx = 1; /* { */",
                                                  "/* a comment",
                                                  " * { still",
                                                  " */",
                                                  "",
                                                  "\tif (a) {",
                                                  "\tif (IS_REACHABLE(CONFIG_R))",
                                                  "\t\tcall();",
                                                  "} else {",
                                                  "static int g;",
                                                  "\tfoo(\"{\");",
                                                  "// {",
                                                  "{ if (IS_ENABLED(CONFIG_F)) {",
                                                  "#  if 0"};
  std::string text;
  for (int i = 0; i < lines; ++i) {
    text += shapes[random() % shapes.size()] + "\n";
  }
  return text;
}

TEST(SourceContextLinearTest, AgreesWithTheReferenceLineByLine) {
  std::mt19937 random(42);
  for (int round = 0; round < 600; ++round) {
    const std::string text = random_source(random, 1 + static_cast<int>(random() % 60));
    const SourceText source(text);
    const reference::Reference old(text);
    for (int line = 1; line <= static_cast<int>(source.size()); ++line) {
      const auto mine = source.conditions(line);
      const auto theirs = old.conditions(line);
      ASSERT_EQ(mine.size(), theirs.size()) << text << "line " << line;
      for (std::size_t i = 0; i < mine.size(); ++i) {
        EXPECT_EQ(mine[i].kind, theirs[i].kind) << text << "line " << line;
        EXPECT_EQ(mine[i].line, theirs[i].line) << text << "line " << line;
        EXPECT_EQ(mine[i].text(), theirs[i].text) << text << "line " << line;
        EXPECT_EQ(mine[i].expression(), theirs[i].expression) << text << "line " << line;
      }
      EXPECT_EQ(source.in_macro_definition(line), old.in_macro_definition(line))
          << text << "line " << line;
      const auto function = source.function_at(line);
      const auto old_function = old.function_at(line);
      ASSERT_EQ(function.has_value(), old_function.has_value()) << text << "line " << line;
      if (function) {
        EXPECT_EQ(function->first, old_function->first);
        EXPECT_EQ(function->last, old_function->last);
        EXPECT_EQ(function->name, old_function->name);
      }
      if (HasFailure()) {
        return;
      }
    }
  }
}

double seconds_of(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// #ifdef nested 10,000 deep (the reference took 240 s on such a file in
// kseries coverage): the outermost k_max_conditions are judged, the rest
// counted, and every line's query costs a constant.
TEST(SourceContextLinearTest, DeepNestingIsCappedAndLinear) {
  std::string text;
  const int depth = 10000;
  for (int i = 0; i < depth; ++i) {
    text += "#ifdef CONFIG_N" + std::to_string(i) + "\nint x" + std::to_string(i) + ";\n";
  }
  for (int i = 0; i < depth; ++i) {
    text += "#endif\n";
  }
  const double seconds = seconds_of([&] {
    const SourceText source(text);
    std::size_t total = 0;
    for (int line = 1; line <= static_cast<int>(source.size()); ++line) {
      total += source.conditions(line).size();
    }
    const int innermost = 2 * depth;  // "int x9999;"
    ASSERT_EQ(source.conditions(innermost).size(), k_max_conditions);
    EXPECT_EQ(source.conditions(innermost).front().text(), "#ifdef CONFIG_N0");
    EXPECT_EQ(source.conditions_dropped(innermost), std::size_t{depth} - k_max_conditions);
    EXPECT_EQ(source.conditions(2).size(), 1u);
    EXPECT_EQ(source.conditions_dropped(2), 0u);
    EXPECT_GT(total, 0u);
  });
  EXPECT_LT(seconds, 20.0) << "10,000-deep #ifdef: " << seconds << " s";
}

// One function of 100,000 lines, an #elif chain of 20,000 branches and a
// #define continued over 20,000 lines: each query of each line is a
// constant (the reference walked back to the function's brace, the top of
// the file, or the #define's first line, every time).
TEST(SourceContextLinearTest, LongFunctionsChainsAndMacrosStayLinear) {
  std::string text = "int f(void)\n{\n\tif (IS_ENABLED(CONFIG_A)) {\n";
  for (int i = 0; i < 100000; ++i) {
    text += "\tx" + std::to_string(i) + "();\n";
  }
  text += "\t}\n}\n#if CONFIG_V == 0\nint v0;\n";
  for (int i = 1; i < 20000; ++i) {
    text += "#elif CONFIG_V == " + std::to_string(i) + "\nint v" + std::to_string(i) + ";\n";
  }
  text += "#endif\n#define LONG(x) \\\n";
  for (int i = 0; i < 20000; ++i) {
    text += "\t(x) + \\\n";
  }
  text += "\t0\n";
  const double seconds = seconds_of([&] {
    const SourceText source(text);
    for (int line = 1; line <= static_cast<int>(source.size()); ++line) {
      source.conditions(line);
      source.function_at(line);
      source.in_macro_definition(line);
      source.holds_no_code(line);
    }
    const auto inside = source.conditions(50000);
    ASSERT_EQ(inside.size(), 1u);
    EXPECT_EQ(inside[0].expression(), "IS_ENABLED(CONFIG_A)");
    ASSERT_TRUE(source.function_at(50000));
    EXPECT_EQ(source.function_at(50000)->first, 2);
    // Deep in the #elif chain: past the branches kept, undecided ("").
    const int late = 100000 + 6 + 2 * 19000 + 1;
    ASSERT_EQ(source.conditions(late).size(), 1u);
    EXPECT_EQ(source.conditions(late)[0].expression(), "");
    ASSERT_EQ(source.conditions(100009).size(), 1u);  // "int v1;"
    EXPECT_EQ(source.conditions(100009)[0].expression(), "!(CONFIG_V == 0) && (CONFIG_V == 1)");
    EXPECT_TRUE(source.in_macro_definition(static_cast<int>(source.size())));
  });
  EXPECT_LT(seconds, 20.0) << seconds << " s";
}

}  // namespace
}  // namespace kseries::coverage
