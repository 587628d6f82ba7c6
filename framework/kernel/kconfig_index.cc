#include "kernel/kconfig_index.h"

#include <regex>
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

void KconfigIndex::add_file(const std::string& text, const std::string& relative_path) {
  static const std::regex k_config(R"(^(menu)?config\s+([A-Za-z0-9_]+)\s*$)");
  static const std::regex k_if(R"(^if\s+(.+)$)");
  static const std::regex k_depends(R"(^\s+depends\s+on\s+(.+)$)");
  static const std::regex k_prompt(R"(^\s+((bool|tristate|string|int|hex)\s+".*|prompt\s+.*)$)");
  static const std::regex k_choice_prompt(R"(^\s+prompt\s+\"(.*)\".*$)");
  std::vector<std::string> if_stack;
  SymbolDefinition* current = nullptr;
  int open_choice = -1;        // the choice block we are in
  bool choice_header = false;  // its attribute lines, before the first member
  int line_no = 0;
  for (const auto raw : split_lines(text)) {
    ++line_no;
    const std::string line(raw);
    std::smatch m;
    if (!line.empty() && !std::isspace(static_cast<unsigned char>(line[0]))) {
      current = nullptr;
      choice_header = false;
      if (std::regex_match(line, m, k_config)) {
        auto& list = m_symbols[m[2].str()];
        list.push_back({relative_path, line_no, if_stack, false, -1});
        current = &list.back();
        if (open_choice >= 0) {
          current->choice = open_choice;
          m_choices[open_choice].members.push_back(m[2].str());
        }
      } else if (line == "choice" || starts_with(line, "choice ")) {
        m_choices.push_back({relative_path, line_no, "", if_stack, {}});
        open_choice = static_cast<int>(m_choices.size()) - 1;
        choice_header = true;
      } else if (starts_with(line, "endchoice")) {
        open_choice = -1;
      } else if (std::regex_match(line, m, k_if)) {
        if_stack.push_back(std::string(trim(m[1].str())));
      } else if (starts_with(line, "endif") && !if_stack.empty()) {
        if_stack.pop_back();
      }
      continue;
    }
    if (choice_header && open_choice >= 0) {
      auto& choice = m_choices[open_choice];
      if (std::regex_match(line, m, k_depends)) {
        choice.depends.push_back(std::string(trim(m[1].str())));
      } else if (std::regex_match(line, m, k_choice_prompt)) {
        choice.prompt = m[1].str();
      }
      continue;
    }
    if (current == nullptr) {
      continue;
    }
    if (std::regex_match(line, m, k_depends)) {
      current->depends.push_back(std::string(trim(m[1].str())));
    } else if (std::regex_match(line, m, k_prompt)) {
      current->has_prompt = true;
    }
  }
}

const std::vector<SymbolDefinition>& KconfigIndex::definitions(const std::string& symbol) const {
  static const std::vector<SymbolDefinition> k_none;
  auto it = m_symbols.find(symbol);
  return it == m_symbols.end() ? k_none : it->second;
}

namespace {

// Joins EXPRESSIONS with " && " into DEPENDS and adds every known symbol in
// them that the .config has at n to UNMET.
void collect_unmet(const std::vector<std::string>& expressions, const KconfigIndex& index,
                   const DotConfig& config, std::string& depends, std::set<std::string>& unmet) {
  static const std::regex k_identifier(R"([A-Z][A-Z0-9_]+)");
  for (const auto& expression : expressions) {
    depends += (depends.empty() ? "" : " && ") + expression;
    for (std::sregex_iterator it(expression.begin(), expression.end(), k_identifier), end;
         it != end; ++it) {
      if (index.knows(it->str()) && config_value(config, it->str()) == "n") {
        unmet.insert(it->str() + "=n");
      }
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
