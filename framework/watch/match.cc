#include "watch/match.h"

#include <algorithm>
#include <set>

#include "core/error.h"
#include "core/text.h"

namespace kseries::watch {

namespace {

bool contains_lower(const std::string& text, const std::string& part) {
  return to_lower(text).find(to_lower(part)) != std::string::npos;
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  std::string current;
  for (const char c : text + ",") {
    if (c == ',') {
      if (!trim(current).empty()) {
        out.emplace_back(trim(current));
      }
      current.clear();
    } else {
      current += c;
    }
  }
  return out;
}

}  // namespace

Match parse_match(const std::string& text) {
  Match match;
  match.text = text;
  std::string value = text;
  for (const auto& [prefix, kind] :
       std::vector<std::pair<std::string, MatchKind>>{{"subject:", MatchKind::k_subject},
                                                      {"file:", MatchKind::k_file},
                                                      {"change-id:", MatchKind::k_change_id}}) {
    if (starts_with(text, prefix)) {
      match.kind = kind;
      value = text.substr(prefix.size());
    }
  }
  match.values =
      match.kind == MatchKind::k_subject ? std::vector<std::string>{value} : split_commas(value);
  if (match.values.empty() || trim(match.values.front()).empty()) {
    throw usage_error("--match '" + text +
                      "': nothing to match (subject:TEXT, file:PATH, "
                      "change-id:ID[,ID...])");
  }
  return match;
}

bool title_may_match(const std::vector<Match>& matches, const std::string& title) {
  if (matches.empty()) {
    return true;
  }
  return std::any_of(matches.begin(), matches.end(), [&](const Match& m) {
    return m.kind != MatchKind::k_subject || contains_lower(title, m.values.front());
  });
}

std::vector<std::string> touched_files(const Series& series) {
  std::set<std::string> files;
  for (const auto& patch : series.patches) {
    for (const auto line : split_lines(patch.diff)) {
      if (!starts_with(line, "diff --git a/")) {
        continue;
      }
      const std::string rest(line.substr(13));
      const auto b = rest.find(" b/");
      if (b != std::string::npos) {
        files.insert(rest.substr(0, b));
        files.insert(rest.substr(b + 3));
      }
    }
  }
  return {files.begin(), files.end()};
}

bool series_matches(const std::vector<Match>& matches, const Series& series, std::string& why) {
  if (matches.empty()) {
    why = "no --match: every series";
    return true;
  }
  const std::string title =
      series.cover ? series.cover->raw_subject : series.patches.front().raw_subject;
  const auto files = touched_files(series);
  for (const auto& match : matches) {
    for (const auto& value : match.values) {
      switch (match.kind) {
        case MatchKind::k_subject:
          if (contains_lower(title, value)) {
            why = "--match " + match.text;
            return true;
          }
          break;
        case MatchKind::k_file:
          for (const auto& file : files) {
            const bool below = !value.empty() && value.back() == '/' && starts_with(file, value);
            if (file == value || below) {
              why = "--match " + match.text + " (" + file + ")";
              return true;
            }
          }
          break;
        case MatchKind::k_change_id:
          if (series.change_id && *series.change_id == value) {
            why = "--match " + match.text;
            return true;
          }
          break;
      }
    }
  }
  why = "matches none of the --match expressions";
  return false;
}

}  // namespace kseries::watch
