#include "kernel/kconfig_index.h"

#include <optional>
#include <set>

#include "core/text.h"
#include "sys/files.h"

namespace kseries::kernel {

namespace fs = std::filesystem;

KconfigIndex KconfigIndex::scan(const fs::path& source_tree) {
  KconfigIndex index;
  for (auto it = fs::recursive_directory_iterator(source_tree,
                                                  fs::directory_options::skip_permission_denied);
       it != fs::recursive_directory_iterator(); ++it) {
    const std::string name = it->path().filename().string();
    if (it->is_directory() && (name == ".git" || name == "Documentation")) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && starts_with(name, "Kconfig")) {
      index.add_file(read_file(it->path()), fs::relative(it->path(), source_tree).string());
    }
  }
  return index;
}

namespace {

// Plain code, no std::regex: Kconfig text comes from the tree under test (a
// patch may add a line of any length), and libstdc++'s regex recursed per
// character of "(.+)" and overflowed the stack on a long line. Each reader
// below looks at a line once, left to right, and accepts what the regular
// expression in its comment accepted.

// \s as std::regex reads it in the "C" locale.
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// Skips white space at `pos`; true when there was some.
bool skip_spaces(std::string_view line, std::size_t& pos) {
  const std::size_t begin = pos;
  while (pos < line.size() && is_space(line[pos])) {
    ++pos;
  }
  return pos > begin;
}

// `word` at `pos`, then at least one white space character (skipped).
bool word_then_space(std::string_view line, std::size_t& pos, std::string_view word) {
  if (line.substr(pos, word.size()) != word) {
    return false;
  }
  pos += word.size();
  return skip_spaces(line, pos);
}

// The rest of a line after "<word>\s+" when something follows ("(.+)$"),
// trimmed; nullopt when the line does not go on.
std::optional<std::string> rest_after(std::string_view line, std::size_t pos,
                                      std::string_view word) {
  if (line.substr(pos, word.size()) != word || pos + word.size() + 1 >= line.size() ||
      !is_space(line[pos + word.size()])) {
    return std::nullopt;
  }
  return std::string(trim(line.substr(pos + word.size())));
}

bool symbol_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// "^(menu)?config\s+([A-Za-z0-9_]+)\s*$": the symbol.
std::optional<std::string> config_symbol(std::string_view line) {
  std::size_t pos = starts_with(line, "menu") ? 4 : 0;
  if (!word_then_space(line, pos, "config")) {
    return std::nullopt;
  }
  const std::size_t begin = pos;
  while (pos < line.size() && symbol_char(line[pos])) {
    ++pos;
  }
  const std::size_t end = pos;
  skip_spaces(line, pos);
  if (end == begin || pos != line.size()) {
    return std::nullopt;
  }
  return std::string(line.substr(begin, end - begin));
}

// "^\s+depends\s+on\s+(.+)$": the expression, trimmed.
std::optional<std::string> depends_on(std::string_view line) {
  std::size_t pos = 0;
  if (!skip_spaces(line, pos) || !word_then_space(line, pos, "depends")) {
    return std::nullopt;
  }
  return rest_after(line, pos, "on");
}

// "^\s+((bool|tristate|string|int|hex)\s+\".*|prompt\s+.*)$".
bool is_prompt(std::string_view line) {
  std::size_t pos = 0;
  if (!skip_spaces(line, pos)) {
    return false;
  }
  for (const std::string_view type : {"bool", "tristate", "string", "int", "hex"}) {
    std::size_t at = pos;
    if (word_then_space(line, at, type)) {
      return at < line.size() && line[at] == '"';
    }
  }
  return word_then_space(line, pos, "prompt");
}

// "^\s+prompt\s+\"(.*)\".*$": the text between the first quote and the last.
std::optional<std::string> choice_prompt(std::string_view line) {
  std::size_t pos = 0;
  if (!skip_spaces(line, pos) || !word_then_space(line, pos, "prompt") || pos >= line.size() ||
      line[pos] != '"') {
    return std::nullopt;
  }
  const std::size_t last = line.rfind('"');
  if (last == pos) {
    return std::nullopt;
  }
  return std::string(line.substr(pos + 1, last - pos - 1));
}

// "^\s+select\s+([A-Za-z0-9_]+)(\s+if\s+(.+))?\s*$": the symbol and
// the condition ("" when none).
std::optional<std::pair<std::string, std::string>> select_line(std::string_view line) {
  line = line.substr(0, line.find('#'));  // a trailing comment
  std::size_t pos = 0;
  if (!skip_spaces(line, pos) || !word_then_space(line, pos, "select")) {
    return std::nullopt;
  }
  const std::size_t begin = pos;
  while (pos < line.size() && symbol_char(line[pos])) {
    ++pos;
  }
  if (pos == begin) {
    return std::nullopt;
  }
  std::string symbol(line.substr(begin, pos - begin));
  skip_spaces(line, pos);
  if (pos == line.size()) {
    return std::make_pair(std::move(symbol), std::string());
  }
  auto condition = rest_after(line, pos, "if");
  if (!condition) {
    return std::nullopt;  // a trailing comment or something this reader does not know
  }
  return std::make_pair(std::move(symbol), std::move(*condition));
}

}  // namespace

void KconfigIndex::add_file(const std::string& text, const std::string& relative_path) {
  std::vector<std::string> if_stack;
  SymbolDefinition* current = nullptr;
  std::string current_symbol;
  int open_choice = -1;        // the choice block we are in
  bool choice_header = false;  // its attribute lines, before the first member
  int line_no = 0;
  for (const auto line : split_lines(text)) {
    ++line_no;
    if (!line.empty() && !std::isspace(static_cast<unsigned char>(line[0]))) {
      current = nullptr;
      choice_header = false;
      if (const auto symbol = config_symbol(line)) {
        auto& list = m_symbols[*symbol];
        list.push_back({relative_path, line_no, if_stack, false, -1});
        current = &list.back();
        current_symbol = *symbol;
        if (open_choice >= 0) {
          current->choice = open_choice;
          m_choices[open_choice].members.push_back(*symbol);
        }
      } else if (line == "choice" || starts_with(line, "choice ")) {
        m_choices.push_back({relative_path, line_no, "", if_stack, {}});
        open_choice = static_cast<int>(m_choices.size()) - 1;
        choice_header = true;
      } else if (starts_with(line, "endchoice")) {
        open_choice = -1;
      } else if (const auto condition = rest_after(line, 0, "if")) {
        if_stack.push_back(*condition);
      } else if (starts_with(line, "endif") && !if_stack.empty()) {
        if_stack.pop_back();
      }
      continue;
    }
    if (choice_header && open_choice >= 0) {
      auto& choice = m_choices[open_choice];
      if (auto depends = depends_on(line)) {
        choice.depends.push_back(std::move(*depends));
      } else if (auto prompt = choice_prompt(line)) {
        choice.prompt = std::move(*prompt);
      }
      continue;
    }
    if (current == nullptr) {
      continue;
    }
    if (auto depends = depends_on(line)) {
      current->depends.push_back(std::move(*depends));
    } else if (auto selected = select_line(line)) {
      m_selects[selected->first].push_back(
          {current_symbol, relative_path, line_no, std::move(selected->second)});
    } else if (is_prompt(line)) {
      current->has_prompt = true;
    }
  }
}

const std::vector<SymbolDefinition>& KconfigIndex::definitions(const std::string& symbol) const {
  static const std::vector<SymbolDefinition> k_none;
  auto it = m_symbols.find(symbol);
  return it == m_symbols.end() ? k_none : it->second;
}

const std::vector<SelectSite>& KconfigIndex::selected_by(const std::string& symbol) const {
  static const std::vector<SelectSite> k_none;
  auto it = m_selects.find(symbol);
  return it == m_selects.end() ? k_none : it->second;
}

namespace {

// Joins EXPRESSIONS with " && " into DEPENDS and adds every known symbol in
// them that the .config has at n to UNMET.
void collect_unmet(const std::vector<std::string>& expressions, const KconfigIndex& index,
                   const DotConfig& config, std::string& depends, std::set<std::string>& unmet) {
  const auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
  const auto tail = [&](char c) { return upper(c) || (c >= '0' && c <= '9') || c == '_'; };
  for (const auto& expression : expressions) {
    depends += (depends.empty() ? "" : " && ") + expression;
    // Every "[A-Z][A-Z0-9_]+", leftmost first, as std::regex_search found them.
    for (std::size_t i = 0; i < expression.size();) {
      if (!upper(expression[i]) || i + 1 >= expression.size() || !tail(expression[i + 1])) {
        ++i;
        continue;
      }
      std::size_t end = i + 1;
      while (end < expression.size() && tail(expression[end])) {
        ++end;
      }
      const std::string symbol = expression.substr(i, end - i);
      if (index.knows(symbol) && config_value(config, symbol) == "n") {
        unmet.insert(symbol + "=n");
      }
      i = end;
    }
  }
}

// "; unmet: A=n B=n", or nothing.
std::string unmet_text(const std::set<std::string>& unmet) {
  std::string text;
  for (const auto& symbol : unmet) {
    text += (text.empty() ? "; unmet: " : " ") + symbol;
  }
  return text;
}

}  // namespace

std::string explain_dropped(const Dropped& dropped, const KconfigIndex& index,
                            const DotConfig& config) {
  const auto& request = dropped.request;
  std::string text = "CONFIG_" + request.symbol + "=" + request.value + " (" +
                     request.file.filename().string() + ":" + std::to_string(request.line) +
                     ") is " + dropped.actual;
  const auto& definitions = index.definitions(request.symbol);
  if (definitions.empty()) {
    return text + ": no Kconfig file defines it";
  }
  std::set<std::string> unmet;
  std::string depends;
  for (const auto& definition : definitions) {
    collect_unmet(definition.depends, index, config, depends, unmet);
  }
  const auto& first = definitions.front();
  text += ": " + first.file + ":" + std::to_string(first.line);
  if (!depends.empty()) {
    text += " depends on " + depends;
  }
  text += unmet_text(unmet);
  if (first.choice >= 0) {
    const ChoiceDefinition& choice = index.choice(first.choice);
    text += "; it is a member of the choice at " + choice.file + ":" + std::to_string(choice.line) +
            (choice.prompt.empty() ? "" : " (\"" + choice.prompt + "\")");
    std::set<std::string> choice_unmet;
    std::string choice_depends;
    collect_unmet(choice.depends, index, config, choice_depends, choice_unmet);
    if (!choice_depends.empty()) {
      text += ", which depends on " + choice_depends;
    }
    if (!choice_unmet.empty()) {
      text += unmet_text(choice_unmet) +
              " (the choice is not offered; its default member, if any, is implied)";
    }
    for (const auto& member : choice.members) {
      if (member != request.symbol && config_value(config, member) == "y") {
        text += "; chosen instead: CONFIG_" + member + "=y";
      }
    }
  }
  if (!first.has_prompt) {
    text += "; it has no prompt (only a select or its default sets it)";
  }
  return text;
}

}  // namespace kseries::kernel
