#include "coverage/source_context.h"

#include <algorithm>

#include "core/text.h"
#include "coverage/c_lines.h"

namespace kseries::coverage {

namespace {

// TEXT cut to the cap (a condition's text is for the reader).
std::string capped(std::string text) {
  if (text.size() > k_max_condition_bytes) {
    text.resize(k_max_condition_bytes);
    text += "...";
  }
  return text;
}

// An expression over the cap is not evaluated: "" reads as undecided.
std::string evaluable(std::string expression) {
  return expression.size() > k_max_condition_bytes ? std::string() : expression;
}

}  // namespace

EnclosingCondition::EnclosingCondition(Kind kind, int line, std::string text,
                                       std::string expression)
    : kind(kind),
      line(line),
      m_text(std::make_shared<const std::string>(std::move(text))),
      m_expression(std::make_shared<const std::string>(std::move(expression))) {}

SourceText::SourceText(std::string_view text) {
  for (const auto line : split_lines(text)) {
    m_lines.emplace_back(line);
  }
  m_code = c_lines::strip_comments(m_lines);
  scan_directives();
  scan_braces();
  scan_lines();
}

// One pass over the directives: the open #if blocks at the start of every
// line, as nodes shared by the lines under them.
void SourceText::scan_directives() {
  const int count = static_cast<int>(m_code.size());
  struct Open {
    int node = -1;  // -1: nested past k_max_conditions, no node of its own
    c_lines::Block block;
    // The earlier branches are kept only while they fit the cap: past it
    // (a long chain, a long condition) the expression is not evaluated,
    // and is not built either (an #elif chain is as long as the file).
    bool evaluable = true;
    std::size_t earlier_bytes = 0;
  };
  std::vector<Open> stack;
  auto add_node = [&](Open& open) {
    const std::size_t depth = stack.size();  // OPEN is on the stack
    if (depth > k_max_conditions) {
      open.node = -1;
      return;
    }
    const int parent = depth >= 2 ? stack[depth - 2].node : -1;
    const bool fits =
        open.evaluable && open.earlier_bytes + open.block.current.size() <= k_max_condition_bytes;
    m_directives.push_back({parent, depth,
                            EnclosingCondition(EnclosingCondition::Kind::k_preprocessor,
                                               open.block.line, capped(open.block.text),
                                               fits ? evaluable(open.block.expression()) : "")});
    open.node = static_cast<int>(m_directives.size()) - 1;
  };
  m_directive_node.assign(m_code.size(), -1);
  m_if_depth.assign(m_code.size(), 0);
  int n = 1;
  while (n <= count) {
    // Every line of a directive continued with '\' sees the state before
    // it (the directive begins above) only on its first line.
    const auto record = [&](int line) {
      m_if_depth[line - 1] = stack.size();
      const std::size_t kept = std::min(stack.size(), k_max_conditions);
      m_directive_node[line - 1] = kept == 0 ? -1 : stack[kept - 1].node;
    };
    record(n);
    std::string text = m_code[n - 1];
    int last = n;
    while (!text.empty() && text.back() == '\\' && last < count) {
      text.pop_back();
      text += " " + m_code[last++];
    }
    const auto [keyword, rest] = c_lines::directive(text);
    const std::string written(trim(m_lines[n - 1]));
    if (keyword == "if" || keyword == "ifdef" || keyword == "ifndef") {
      std::string condition = rest;
      if (keyword == "ifdef") {
        condition = "defined(" + rest + ")";
      } else if (keyword == "ifndef") {
        // An include guard (#ifndef X, then #define X) holds whenever the
        // line is compiled at all: "1".
        const bool guard = last < count && c_lines::directive(m_code[last]).first == "define" &&
                           !c_lines::first_word(rest).empty() &&
                           c_lines::first_word(c_lines::directive(m_code[last]).second) ==
                               c_lines::first_word(rest);
        condition = guard ? "1" : "!defined(" + rest + ")";
      }
      stack.push_back({-1, {n, capped(written), {}, condition}, true, 0});
      add_node(stack.back());
    } else if ((keyword == "elif" || keyword == "else") && !stack.empty()) {
      Open& open = stack.back();
      const std::string branch = open.block.current.empty() ? "1" : open.block.current;
      open.earlier_bytes += branch.size() + 7;  // "!(...) && "
      open.evaluable = open.evaluable && open.block.earlier.size() < k_max_conditions &&
                       open.earlier_bytes <= k_max_condition_bytes;
      if (open.evaluable) {
        open.block.earlier.push_back(branch);
      }
      open.block.current = keyword == "elif" ? rest : "";
      open.block.line = n;
      open.block.text = capped(written);
      add_node(open);
    } else if (keyword == "endif" && !stack.empty()) {
      stack.pop_back();
    }
    for (int continued = n + 1; continued <= last; ++continued) {
      record(continued);
    }
    n = last + 1;
  }
}

// One pass over the braces: for each line, the `{` blocks open at its start
// whose `if (...)` tests a config, within the function (a brace in column
// 0 opens a function: the blocks outside it do not enclose its lines).
void SourceText::scan_braces() {
  struct Open {
    bool function = false;
    int chain = -1;         // the innermost config `if` node at or below, in this function
    std::size_t count = 0;  // how many config `if`s that is, past the cap too
  };
  std::vector<Open> stack;
  m_brace_node.assign(m_code.size(), -1);
  m_if_braces.assign(m_code.size(), 0);
  for (std::size_t i = 0; i < m_code.size(); ++i) {
    m_brace_node[i] = stack.empty() ? -1 : stack.back().chain;
    m_if_braces[i] = stack.empty() ? 0 : stack.back().count;
    const std::string& code = m_code[i];
    for (std::size_t pos = 0; pos < code.size(); ++pos) {
      if (code[pos] == '}') {
        if (!stack.empty()) {
          stack.pop_back();
        }
        continue;
      }
      if (code[pos] != '{') {
        continue;
      }
      Open open;
      if (code[0] == '{') {  // the function's own brace
        open.function = true;
        stack.push_back(open);
        continue;
      }
      if (!stack.empty() && !stack.back().function) {
        open.chain = stack.back().chain;
        open.count = stack.back().count;
      }
      const std::string before = code.substr(0, pos);
      const std::string condition =
          c_lines::if_condition(trim(before).empty() && i > 0 ? m_code[i - 1] + before : before);
      if (c_lines::names_config_test(condition)) {
        ++open.count;
        if (open.count <= k_max_conditions) {
          const int parent = open.chain;
          m_braces.push_back(
              {parent, open.count,
               EnclosingCondition(EnclosingCondition::Kind::k_if_statement, static_cast<int>(i) + 1,
                                  capped(std::string(trim(m_lines[i]))), evaluable(condition))});
          open.chain = static_cast<int>(m_braces.size()) - 1;
        }
      }
      stack.push_back(open);
    }
  }
}

// Column-0 braces above and below every line, for function_at(), the line
// of code above each (blank lines skipped), and the lines of #defines.
void SourceText::scan_lines() {
  const std::size_t count = m_code.size();
  m_function_open.assign(count, 0);
  m_close_above.assign(count, 0);
  m_function_close.assign(count, 0);
  m_nonblank_above.assign(count, 0);
  m_macro.assign(count, 0);
  int open = 0;
  int close = 0;
  int nonblank = 0;
  for (std::size_t i = 0; i < count; ++i) {
    m_close_above[i] = close;
    m_nonblank_above[i] = nonblank;
    if (!trim(m_code[i]).empty()) {
      nonblank = static_cast<int>(i) + 1;
    }
    if (!m_code[i].empty() && m_code[i][0] == '{') {
      open = static_cast<int>(i) + 1;
    }
    if (!m_code[i].empty() && m_code[i][0] == '}') {
      close = static_cast<int>(i) + 1;
    }
    m_function_open[i] = open;
    // A #define and the lines a trailing backslash continues it on (as
    // written, before the comments are taken out).
    const bool continues = i > 0 && !m_lines[i - 1].empty() && m_lines[i - 1].back() == '\\';
    m_macro[i] = continues ? m_macro[i - 1] : c_lines::directive(m_code[i]).first == "define";
  }
  close = 0;
  for (std::size_t i = count; i-- > 0;) {
    if (!m_code[i].empty() && m_code[i][0] == '}') {
      close = static_cast<int>(i) + 1;
    }
    m_function_close[i] = close;
  }
}

std::vector<EnclosingCondition> SourceText::conditions(int line) const {
  std::vector<EnclosingCondition> out;
  if (line < 1 || line > static_cast<int>(m_code.size())) {
    return out;
  }
  for (int node = m_directive_node[line - 1]; node >= 0; node = m_directives[node].parent) {
    out.push_back(m_directives[node].condition);
  }
  std::reverse(out.begin(), out.end());
  const std::size_t directives = out.size();
  // The statement right above (an `if (...)` without a brace governs the
  // next statement only), then each enclosing braced one.
  if (auto above = braceless_if_above(line)) {
    out.push_back(std::move(*above));
  }
  for (int node = m_brace_node[line - 1]; node >= 0; node = m_braces[node].parent) {
    out.push_back(m_braces[node].condition);
  }
  std::reverse(out.begin() + static_cast<std::ptrdiff_t>(directives), out.end());
  return out;
}

std::size_t SourceText::conditions_dropped(int line) const {
  if (line < 1 || line > static_cast<int>(m_code.size())) {
    return 0;
  }
  const auto past = [](std::size_t depth) {
    return depth > k_max_conditions ? depth - k_max_conditions : 0;
  };
  return past(m_if_depth[line - 1]) + past(m_if_braces[line - 1]);
}

SourceText::ConditionsKey SourceText::conditions_key(int line) const {
  if (line < 1 || line > static_cast<int>(m_code.size())) {
    return {-1, -1, 0};
  }
  const auto above = braceless_if_above(line);
  return {m_directive_node[line - 1], m_brace_node[line - 1], above ? above->line : 0};
}

// The statement right above LINE (blank lines skipped), when it is an
// `if (...)` without a brace whose condition tests a config. It looks at
// most ten lines up: a condition over more lines is not read.
std::optional<EnclosingCondition> SourceText::braceless_if_above(int line) const {
  const int above =
      line >= 1 && line <= static_cast<int>(m_code.size()) ? m_nonblank_above[line - 1] : 0;
  if (above < 1) {
    return std::nullopt;
  }
  const std::string_view head = trim(m_code[above - 1]);
  if (head.empty() || head.back() != ')') {
    return std::nullopt;
  }
  std::string text;
  int depth = 0;
  for (int first = above; first >= 1 && above - first <= 9; --first) {
    const std::string& code = m_code[first - 1];
    text = code + " " + text;
    depth += static_cast<int>(std::count(code.begin(), code.end(), '(')) -
             static_cast<int>(std::count(code.begin(), code.end(), ')'));
    if (depth >= 0) {
      if (const std::string condition = c_lines::if_condition(text); !condition.empty()) {
        if (!c_lines::names_config_test(condition)) {
          return std::nullopt;
        }
        return EnclosingCondition(EnclosingCondition::Kind::k_if_statement, first,
                                  capped(std::string(trim(m_lines[first - 1]))),
                                  evaluable(condition));
      }
      if (code.find_first_of(";{}") != std::string::npos) {
        return std::nullopt;
      }
    }
  }
  return std::nullopt;
}

bool SourceText::in_macro_definition(int line) const { return m_macro.at(line - 1) != 0; }

bool SourceText::holds_no_code(int line) const {
  const std::string_view code = trim(m_code.at(line - 1));
  if (code.empty() || code[0] == '#') {
    return true;
  }
  return std::all_of(code.begin(), code.end(), [](char c) {
    return c == '{' || c == '}' || c == ';' || c == ' ' || c == '\t';
  });
}

std::optional<SourceText::Function> SourceText::function_at(int line) const {
  if (line < 1 || line > static_cast<int>(m_code.size())) {
    return std::nullopt;
  }
  // The nearest column-0 '{' at or above LINE, with no column-0 '}'
  // between (LINE itself may be the closing brace), and the nearest
  // column-0 '}' at or below.
  const int first = m_function_open[line - 1];
  if (first == 0 || m_close_above[line - 1] > first) {
    return std::nullopt;
  }
  const int last = m_function_close[line - 1];
  if (last == 0) {
    return std::nullopt;
  }
  return Function{c_lines::function_name_above(m_code, first), first, last};
}

}  // namespace kseries::coverage
