#include "coverage/macro_index.h"

#include "core/error.h"
#include "core/text.h"
#include "sys/files.h"

namespace kseries::coverage {

namespace fs = std::filesystem;

void MacroIndex::add(const std::string& name, MacroDefinition definition) {
  m_definitions[name].push_back(std::move(definition));
}

const std::vector<MacroDefinition>* MacroIndex::find(const std::string& name) const {
  const auto it = m_definitions.find(name);
  return it == m_definitions.end() ? nullptr : &it->second;
}

namespace {

// The name a "#define NAME..." line defines, "" for any other line.
std::string defined_name(std::string_view line) {
  line = trim(line);
  if (!starts_with(line, "#")) {
    return "";
  }
  line = trim(line.substr(1));
  if (!starts_with(line, "define") || line.size() < 7 || (line[6] != ' ' && line[6] != '\t')) {
    return "";
  }
  line = trim(line.substr(6));
  std::size_t end = 0;
  while (end < line.size() &&
         (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '_')) {
    ++end;
  }
  return std::string(line.substr(0, end));
}

// The most of one header read for its #defines: far above any header of
// the kernel's include/ (v6.12: under 1 MiB); a larger one is skipped.
constexpr std::size_t k_max_header_bytes = std::size_t{32} << 20;

void scan_file(const fs::path& tree, const std::string& relative,
               const std::set<std::string>& names, MacroIndex& index) {
  std::string text;
  try {
    text = read_file(tree / relative, k_max_header_bytes);
  } catch (const Error&) {
    return;  // unreadable or over the cap: no definitions from it
  }
  index.add_text(relative, text, names);
}

// Whether TEXT names any of NAMES as an identifier: one pass over TEXT.
bool mentions_any(std::string_view text, const std::set<std::string>& names) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (!std::isalpha(c) && c != '_') {
      ++i;
      continue;
    }
    std::size_t end = i + 1;
    while (end < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) {
      ++end;
    }
    if (names.count(std::string(text.substr(i, end - i)))) {
      return true;
    }
    i = end;
  }
  return false;
}

}  // namespace

void MacroIndex::add_text(const std::string& relative, std::string_view text,
                          const std::set<std::string>& names) {
  if (names.empty() || !mentions_any(text, names)) {
    return;
  }
  const SourceText source(text);
  for (int n = 1; n <= static_cast<int>(source.size()); ++n) {
    const std::string name = defined_name(source.line(n));
    if (!name.empty() && names.count(name)) {
      auto& definitions = m_definitions[name];
      if (definitions.size() < k_max_definitions) {
        definitions.push_back({relative, n, source.conditions(n)});
      }
    }
  }
}

void MacroIndex::scan(const fs::path& tree, const std::set<std::string>& names,
                      const std::set<std::string>& skip) {
  if (names.empty()) {
    return;
  }
  const std::set<std::string>& seen = skip;
  std::vector<fs::path> roots = {tree / "include"};
  std::error_code ec;
  for (const auto& arch : fs::directory_iterator(tree / "arch", ec)) {
    roots.push_back(arch.path() / "include");
  }
  for (const auto& root : roots) {
    for (auto it = fs::recursive_directory_iterator(root, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_regular_file() && it->path().extension() == ".h") {
        const std::string relative = it->path().lexically_relative(tree).string();
        if (!seen.count(relative)) {
          scan_file(tree, relative, names, *this);
        }
      }
    }
  }
}

}  // namespace kseries::coverage
