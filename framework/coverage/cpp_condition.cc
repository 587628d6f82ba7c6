#include "coverage/cpp_condition.h"

#include <cctype>
#include <charconv>
#include <vector>

namespace kseries::coverage {

namespace {

// A value: a number, or unknown.
using Value = std::optional<long>;

std::vector<std::string> tokens_of(std::string_view text) {
  std::vector<std::string> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t j = i;
      while (j < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) {
        ++j;
      }
      tokens.emplace_back(text.substr(i, j - i));
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t j = i;
      while (j < text.size() && std::isalnum(static_cast<unsigned char>(text[j]))) {
        ++j;
      }
      tokens.emplace_back(text.substr(i, j - i));
      i = j;
    } else if (i + 1 < text.size() && (text.substr(i, 2) == "&&" || text.substr(i, 2) == "||" ||
                                       text.substr(i, 2) == "==" || text.substr(i, 2) == "!=" ||
                                       text.substr(i, 2) == "<=" || text.substr(i, 2) == ">=")) {
      tokens.emplace_back(text.substr(i, 2));
      i += 2;
    } else {
      tokens.emplace_back(1, c);
      ++i;
    }
  }
  return tokens;
}

class Parser {
 public:
  Parser(std::vector<std::string> tokens, const ConditionEnvironment& env, ConditionValue& out)
      : m_tokens(std::move(tokens)), m_env(env), m_out(out) {}

  Value parse() {
    const Value value = parse_or(0);
    return m_pos == m_tokens.size() ? value : std::nullopt;
  }

 private:
  static constexpr int k_max_depth = 200;

  const std::string& peek() const {
    static const std::string end;
    return m_pos < m_tokens.size() ? m_tokens[m_pos] : end;
  }
  bool take(const std::string& token) {
    if (peek() == token) {
      ++m_pos;
      return true;
    }
    return false;
  }

  Value parse_or(int depth) {
    Value left = parse_and(depth);
    while (take("||")) {
      const Value right = parse_and(depth);
      if ((left && *left) || (right && *right)) {
        left = 1;
      } else if (left && right) {
        left = 0;
      } else {
        left = std::nullopt;
      }
    }
    return left;
  }

  Value parse_and(int depth) {
    Value left = parse_compare(depth);
    while (take("&&")) {
      const Value right = parse_compare(depth);
      if ((left && !*left) || (right && !*right)) {
        left = 0;
      } else if (left && right) {
        left = 1;
      } else {
        left = std::nullopt;
      }
    }
    return left;
  }

  Value parse_compare(int depth) {
    Value left = parse_unary(depth);
    for (;;) {
      const std::string op = peek();
      if (op != "==" && op != "!=" && op != "<" && op != ">" && op != "<=" && op != ">=") {
        return left;
      }
      ++m_pos;
      const Value right = parse_unary(depth);
      if (!left || !right) {
        left = std::nullopt;
      } else if (op == "==") {
        left = *left == *right;
      } else if (op == "!=") {
        left = *left != *right;
      } else if (op == "<") {
        left = *left < *right;
      } else if (op == ">") {
        left = *left > *right;
      } else if (op == "<=") {
        left = *left <= *right;
      } else {
        left = *left >= *right;
      }
    }
  }

  Value parse_unary(int depth) {
    if (depth > k_max_depth) {
      m_pos = m_tokens.size();
      return std::nullopt;
    }
    if (take("!")) {
      const Value value = parse_unary(depth + 1);
      return value ? Value(*value == 0) : std::nullopt;
    }
    return parse_primary(depth);
  }

  // NAME in "defined(NAME)", "IS_ENABLED(NAME)"; "" if malformed.
  std::string macro_argument(bool parenthesised_only) {
    const bool open = take("(");
    if (!open && parenthesised_only) {
      return "";
    }
    std::string name = peek();
    if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) {
      return "";
    }
    ++m_pos;
    if (open && !take(")")) {
      return "";
    }
    return name;
  }

  // How NAME stands in .config: "y", "m", a value, "" unset; for a
  // CONFIG_X_MODULE name, "y" when X is m.
  std::string config_value(const std::string& name) {
    const std::string symbol = name.substr(7);
    m_out.symbols.insert(symbol);
    return m_env.config ? m_env.config(symbol) : "";
  }

  std::optional<bool> is_defined(const std::string& name) {
    if (starts_with_config(name)) {
      const std::string value = config_value(name);
      return !value.empty() && value != "m";
    }
    m_out.macros.insert(name);
    return m_env.defined ? m_env.defined(name) : std::nullopt;
  }

  static bool starts_with_config(const std::string& name) {
    return name.size() > 7 && name.compare(0, 7, "CONFIG_") == 0;
  }

  Value parse_primary(int depth) {
    if (take("(")) {
      const Value value = parse_or(depth + 1);
      return take(")") ? value : std::nullopt;
    }
    const std::string token = peek();
    if (token.empty()) {
      return std::nullopt;
    }
    ++m_pos;
    if (token == "defined") {
      const std::string name = macro_argument(false);
      if (name.empty()) {
        return std::nullopt;
      }
      const auto defined = is_defined(name);
      return defined ? Value(*defined) : std::nullopt;
    }
    if (token == "IS_ENABLED" || token == "IS_BUILTIN" || token == "IS_MODULE" ||
        token == "IS_REACHABLE") {
      const std::string name = macro_argument(true);
      if (!starts_with_config(name)) {
        return std::nullopt;
      }
      const std::string value = config_value(name);
      if (token == "IS_BUILTIN") {
        return value == "y";
      }
      if (token == "IS_MODULE") {
        return value == "m";
      }
      return value == "y" || value == "m";
    }
    if (std::isdigit(static_cast<unsigned char>(token[0]))) {
      long value = 0;
      std::string digits = token;
      while (!digits.empty() && (digits.back() == 'u' || digits.back() == 'U' ||
                                 digits.back() == 'l' || digits.back() == 'L')) {
        digits.pop_back();
      }
      const int base = digits.size() > 2 && (digits[1] == 'x' || digits[1] == 'X') ? 16 : 10;
      const char* begin = digits.data() + (base == 16 ? 2 : 0);
      const auto [end, ec] = std::from_chars(begin, digits.data() + digits.size(), value, base);
      return ec == std::errc() && end == digits.data() + digits.size() ? Value(value)
                                                                       : std::nullopt;
    }
    if (std::isalpha(static_cast<unsigned char>(token[0])) || token[0] == '_') {
      if (peek() == "(") {  // a function or function-like macro: skip its arguments
        int nesting = 0;
        do {
          if (peek() == "(") {
            ++nesting;
          } else if (peek() == ")") {
            --nesting;
          }
          ++m_pos;
        } while (nesting > 0 && m_pos < m_tokens.size());
        return std::nullopt;
      }
      if (starts_with_config(token)) {
        const std::string value = config_value(token);
        if (value.empty() || value == "m") {
          return 0;  // an undefined name is 0 in #if
        }
        if (value == "y") {
          return 1;
        }
        long number = 0;
        const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
        return ec == std::errc() && end == value.data() + value.size() ? Value(number)
                                                                       : std::nullopt;
      }
      m_out.macros.insert(token);
      return std::nullopt;
    }
    return std::nullopt;  // an operator this reader does not know
  }

  std::vector<std::string> m_tokens;
  const ConditionEnvironment& m_env;
  ConditionValue& m_out;
  std::size_t m_pos = 0;
};

// EXPRESSION without its comments (a directive may carry one).
std::string without_comments(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "/*") == 0) {
      const auto end = text.find("*/", i + 2);
      if (end == std::string_view::npos) {
        break;
      }
      out += ' ';
      i = end + 1;
    } else if (text.compare(i, 2, "//") == 0) {
      break;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace

ConditionValue evaluate_condition(std::string_view expression, const ConditionEnvironment& env) {
  ConditionValue out;
  Parser parser(tokens_of(without_comments(expression)), env, out);
  const Value value = parser.parse();
  if (value) {
    out.value = *value != 0;
  }
  return out;
}

}  // namespace kseries::coverage
