#include "session/new_path.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "core/text.h"
#include "coverage/source_context.h"
#include "git/libgit2.h"
#include "git/tree_patch.h"

namespace kseries::session {

namespace {

using Function = coverage::SourceText::Function;

// Every function body of TEXT, by name (kernel style: column-0 braces).
std::map<std::string, Function> functions_of(const coverage::SourceText& source) {
  std::map<std::string, Function> functions;
  for (int line = 1; line <= static_cast<int>(source.size());) {
    const auto function = source.function_at(line);
    if (!function || function->name.empty()) {
      ++line;
      continue;
    }
    functions.emplace(function->name, *function);
    line = function->last + 1;
  }
  return functions;
}

// The identifiers of LINES that are followed by '(' (calls, and macros used
// like calls).
std::set<std::string> called_names(const coverage::SourceText& source, const Function& function) {
  std::set<std::string> names;
  for (int n = function.first; n <= function.last; ++n) {
    const std::string& text = source.line(n);
    for (std::size_t i = 0; i < text.size();) {
      if (!(std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_')) {
        ++i;
        continue;
      }
      std::size_t end = i;
      while (end < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) {
        ++end;
      }
      std::size_t next = end;
      while (next < text.size() && text[next] == ' ') {
        ++next;
      }
      if (next < text.size() && text[next] == '(') {
        names.insert(text.substr(i, end - i));
      }
      i = end;
    }
  }
  return names;
}

// Whether a line a diff adds or removes holds code: not blank, not only a
// comment (a line of one, or the inside of a block comment), not only braces
// and semicolons. A change to comments alone changes no work.
bool holds_code(std::string_view line) {
  const auto text = trim(line);
  if (text.empty() || text.starts_with("//") || text.starts_with("/*") || text.starts_with("*")) {
    return false;
  }
  return text.find_first_not_of("{};") != std::string_view::npos;
}

// Old-side lines of FILE that the diff FROM..TO changes (a pure insertion
// marks the lines on both sides of it); hunks that change no code line are
// left out.
std::vector<int> changed_lines(const git::Store& store, const git_oid& from, const git_oid& to,
                               const std::string& file) {
  git::TreePtr old_tree = store.commit_tree(from);
  git::TreePtr new_tree = store.commit_tree(to);
  git_diff_options options = GIT_DIFF_OPTIONS_INIT;
  char* spec = const_cast<char*>(file.c_str());
  options.pathspec = {&spec, 1};
  options.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH;
  options.context_lines = 0;
  git_diff* raw = nullptr;
  git::check(git_diff_tree_to_tree(&raw, store.repo(), old_tree.get(), new_tree.get(), &options),
             "cannot compare " + file);
  git::DiffPtr diff(raw);
  std::vector<int> lines;
  for (std::size_t d = 0; d < git_diff_num_deltas(raw); ++d) {
    git_patch* patch_raw = nullptr;
    git::check(git_patch_from_diff(&patch_raw, raw, d), "cannot read the diff of " + file);
    std::unique_ptr<git_patch, void (*)(git_patch*)> patch(patch_raw, git_patch_free);
    for (std::size_t h = 0; h < git_patch_num_hunks(patch.get()); ++h) {
      const git_diff_hunk* hunk = nullptr;
      std::size_t count = 0;
      git::check(git_patch_get_hunk(&hunk, &count, patch.get(), h), "cannot read a hunk");
      bool code = false;
      for (std::size_t l = 0; l < count && !code; ++l) {
        const git_diff_line* line = nullptr;
        if (git_patch_get_line_in_hunk(&line, patch.get(), h, l) == 0 &&
            (line->origin == GIT_DIFF_LINE_ADDITION || line->origin == GIT_DIFF_LINE_DELETION)) {
          code = holds_code(std::string_view(line->content, line->content_len));
        }
      }
      if (!code) {
        continue;
      }
      if (hunk->old_lines == 0) {
        lines.push_back(hunk->old_start);
        lines.push_back(hunk->old_start + 1);
      }
      for (int n = 0; n < hunk->old_lines; ++n) {
        lines.push_back(hunk->old_start + n);
      }
    }
  }
  return lines;
}

}  // namespace

std::string NewPath::files() const {
  std::string text;
  for (const auto& entry : changed) {
    text += (text.empty() ? "" : ", ") + entry;
  }
  return text;
}

std::vector<std::string> changed_functions(const std::string& text, const std::string& root,
                                           const std::vector<int>& changed_lines) {
  const coverage::SourceText source(text);
  const auto functions = functions_of(source);
  // The functions ROOT reaches within the file.
  std::set<std::string> reached;
  std::vector<std::string> todo{root};
  while (!todo.empty()) {
    const std::string name = todo.back();
    todo.pop_back();
    const auto found = functions.find(name);
    if (found == functions.end() || !reached.insert(name).second) {
      continue;
    }
    for (const auto& called : called_names(source, found->second)) {
      if (functions.count(called) && !reached.count(called)) {
        todo.push_back(called);
      }
    }
  }
  std::set<std::string> changed;
  for (const auto& name : reached) {
    const Function& f = functions.at(name);
    // The function's lines from its signature: the line above the brace
    // that names it (a signature takes at most a few lines).
    int first = f.first;
    for (int n = f.first - 1; n >= 1 && n >= f.first - 4; --n) {
      if (source.line(n).find(name + "(") != std::string::npos ||
          source.line(n).find(name + " (") != std::string::npos) {
        first = n;
        break;
      }
    }
    for (const int line : changed_lines) {
      if (line >= first && line <= f.last) {
        changed.insert(name);
      }
    }
  }
  return {changed.begin(), changed.end()};
}

std::vector<std::string> changed_path(git::Store& store, const git_oid& from, const git_oid& to,
                                      const std::vector<std::string>& path) {
  std::vector<std::string> entries;
  for (const auto& entry : path) {
    const auto colon = entry.find(':');
    const std::string file = entry.substr(0, colon);
    const auto lines = changed_lines(store, from, to, file);
    if (lines.empty()) {
      continue;
    }
    if (colon == std::string::npos) {
      entries.push_back(entry);
      continue;
    }
    const auto text = git::file_at(store, from, file);
    const auto functions = changed_functions(text.value_or(""), entry.substr(colon + 1), lines);
    if (functions.empty()) {
      continue;
    }
    std::string names;
    for (const auto& name : functions) {
      names += (names.empty() ? "" : ", ") + name;
    }
    entries.push_back(entry + " (" + names + ")");
  }
  return entries;
}

NewPath new_path_for(const kernel::Target& target, std::vector<std::string> changed) {
  NewPath path;
  path.changed = std::move(changed);
  const auto& features = target.features;
  path.slow_path_by_contract =
      std::find(features.begin(), features.end(), "sanitizer") != features.end();
  return path;
}

}  // namespace kseries::session
