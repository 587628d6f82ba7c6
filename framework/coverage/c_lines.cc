#include "coverage/c_lines.h"

#include <cctype>

#include "core/text.h"

namespace kseries::coverage::c_lines {

// LINES without their comments (a block comment may span lines); string and
// character literals are kept, as they are.
std::vector<std::string> strip_comments(const std::vector<std::string>& lines) {
  std::vector<std::string> code;
  bool in_comment = false;
  for (const auto& line : lines) {
    std::string out;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (in_comment) {
        if (line.compare(i, 2, "*/") == 0) {
          in_comment = false;
          ++i;
          out += ' ';
        }
      } else if (line.compare(i, 2, "/*") == 0) {
        in_comment = true;
        ++i;
      } else if (line.compare(i, 2, "//") == 0) {
        break;
      } else if (line[i] == '"' || line[i] == '\'') {
        const char quote = line[i];
        out += line[i++];
        while (i < line.size() && line[i] != quote) {
          if (line[i] == '\\' && i + 1 < line.size()) {
            out += line[i++];
          }
          out += line[i++];
        }
        if (i < line.size()) {
          out += line[i];
        }
      } else {
        out += line[i];
      }
    }
    code.push_back(std::move(out));
  }
  return code;
}

// "#  ifdef X" -> {"ifdef", "X"}; {"", ""} when LINE is no directive.
std::pair<std::string, std::string> directive(std::string_view line) {
  line = trim(line);
  if (line.empty() || line[0] != '#') {
    return {};
  }
  line = trim(line.substr(1));
  std::size_t end = 0;
  while (end < line.size() && std::isalpha(static_cast<unsigned char>(line[end]))) {
    ++end;
  }
  return {std::string(line.substr(0, end)), std::string(trim(line.substr(end)))};
}

std::string first_word(std::string_view text) {
  const auto words = split_words(text);
  return words.empty() ? std::string() : words.front();
}

std::string negate(const std::string& expression) { return "!(" + expression + ")"; }

std::string Block::expression() const {
  std::string out;
  for (const auto& branch : earlier) {
    out += (out.empty() ? "" : " && ") + negate(branch);
  }
  if (!current.empty()) {
    out += (out.empty() ? "" : " && ") + std::string("(") + current + ")";
  }
  return out.empty() ? "1" : out;
}

bool names_config_test(std::string_view text) {
  for (const char* test : {"IS_ENABLED(", "IS_BUILTIN(", "IS_MODULE(", "IS_REACHABLE("}) {
    if (text.find(test) != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

// The condition of the `if (...)` that TEXT starts with (after "} else "),
// or "" when TEXT is no if statement.
std::string if_condition(std::string_view text) {
  text = trim(text);
  if (starts_with(text, "}")) {
    text = trim(text.substr(1));
  }
  if (starts_with(text, "else")) {
    text = trim(text.substr(4));
  }
  if (!starts_with(text, "if") || text.size() < 3 ||
      (text[2] != '(' && text[2] != ' ' && text[2] != '\t')) {
    return "";
  }
  const auto open = text.find('(');
  int depth = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    if (text[i] == '(') {
      ++depth;
    } else if (text[i] == ')' && --depth == 0) {
      // One space for each run of white space (a condition over lines).
      std::string condition;
      for (const char c : text.substr(open + 1, i - open - 1)) {
        const bool space = c == ' ' || c == '\t';
        if (!space || (!condition.empty() && condition.back() != ' ')) {
          condition += space ? ' ' : c;
        }
      }
      return condition;
    }
  }
  return "";
}

std::string function_name_above(const std::vector<std::string>& code, int open) {
  for (int n = open - 1; n >= 1 && n >= open - 4; --n) {
    const std::string& text = code[n - 1];
    const auto paren = text.find('(');
    if (paren == std::string::npos) {
      continue;
    }
    std::size_t end = paren;
    while (end > 0 && text[end - 1] == ' ') {
      --end;
    }
    std::size_t begin = end;
    while (begin > 0 &&
           (std::isalnum(static_cast<unsigned char>(text[begin - 1])) || text[begin - 1] == '_')) {
      --begin;
    }
    return text.substr(begin, end - begin);
  }
  return "";
}

}  // namespace kseries::coverage::c_lines
