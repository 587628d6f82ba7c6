#include "git/branch_series.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

#include "core/error.h"
#include "core/text.h"
#include "series/revision_identity.h"
#include "sys/files.h"

namespace kseries::git {

namespace fs = std::filesystem;

namespace {

// b4 0.12 (ez.py MAGIC_MARKER): the line between the cover text and the
// tracking JSON in the cover-letter commit.
constexpr std::string_view k_b4_marker = "--- b4-submit-tracking ---";

class Git {
 public:
  Git(ProcessRunner& runner, fs::path repo) : m_runner(runner), m_repo(std::move(repo)) {}

  std::string run(std::vector<std::string> args) {
    ProcessSpec spec;
    spec.argv = {"git", "-C", m_repo.string()};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    // The user's ~/.gitconfig may set format.* (signature, cover letters,
    // threading): the series must not depend on it.
    spec.env = {{"GIT_CONFIG_NOSYSTEM", "1"},
                {"GIT_CONFIG_GLOBAL", "/dev/null"},
                {"GIT_OPTIONAL_LOCKS", "0"},
                {"GIT_PAGER", "cat"},
                {"LC_ALL", "C"}};
    spec.timeout = std::chrono::minutes(2);
    const auto result = m_runner.run(spec);
    if (!result.ok()) {
      throw usage_error(format_command(spec.argv) + ": " + result.describe() + ": " +
                        std::string(trim(result.err)).substr(0, 400));
    }
    return result.out;
  }

  std::string commit(const std::string& rev) {
    return std::string(
        trim(run({"rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}"})));
  }

 private:
  ProcessRunner& m_runner;
  fs::path m_repo;
};

std::string name_safe(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const bool keep =
        std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    out += keep ? c : '-';
  }
  while (!out.empty() && (out.front() == '.' || out.front() == '-')) {
    out.erase(out.begin());
  }
  return out.empty() ? "series" : out.substr(0, 80);
}

struct Cover {
  std::string commit;
  std::string author;  // "Name <email>"
  std::string date;    // RFC 2822
  std::string subject;
  std::string body;  // the text above b4's marker, below the subject
  int revision = 1;
  std::optional<std::string> change_id;
  std::vector<std::string> prefixes;
};

// The b4 cover commit: the newest commit at or below TOP whose message
// holds the marker (b4's own find_cover_commit()), among the newest
// k_max_branch_commits (a plain branch of a kernel tree has no marker: git
// log --grep alone would read its whole history to say so).
std::optional<Cover> find_cover(Git& git, const std::string& top) {
  const std::string log = git.run(
      {"log", "--format=%H%x00%B%x01", "--max-count=" + std::to_string(k_max_branch_commits), top});
  const std::string marker_line = "\n" + std::string(k_b4_marker) + "\n";
  std::string found;
  for (std::size_t start = 0; start < log.size() && found.empty();) {
    const auto end = std::min(log.find('\x01', start), log.size());
    const std::string_view record(log.data() + start, end - start);
    const auto nul = record.find('\0');
    if (nul != std::string_view::npos &&
        record.substr(nul).find(marker_line) != std::string_view::npos) {
      found = std::string(trim(record.substr(0, nul)));
    }
    start = end + 1;
  }
  if (found.empty()) {
    return std::nullopt;
  }
  Cover cover;
  cover.commit = found;
  const std::string meta = git.run({"show", "-s", "--format=%an <%ae>%x00%aD%x00%B", found});
  const auto first = meta.find('\0');
  const auto second = meta.find('\0', first + 1);
  if (first == std::string::npos || second == std::string::npos) {
    throw infra_error("git show " + found + ": unexpected output");
  }
  cover.author = meta.substr(0, first);
  cover.date = meta.substr(first + 1, second - first - 1);
  const std::string message = meta.substr(second + 1);
  const auto marker = message.find(k_b4_marker);
  const std::string text = message.substr(0, marker);
  const auto newline = text.find('\n');
  cover.subject = std::string(trim(text.substr(0, newline)));
  // b4 drops the cover's '#' lines (its editing notes) when it sends it.
  const std::string below = newline == std::string::npos ? "" : text.substr(newline + 1);
  std::string body;
  for (const auto line : split_lines(below)) {
    if (!starts_with(line, "#")) {
      body += std::string(line) + "\n";
    }
  }
  cover.body = std::string(trim(body));
  const auto brace = message.find('{', marker);
  if (brace != std::string::npos) {
    const auto tracking = nlohmann::json::parse(message.substr(brace), nullptr, false);
    if (tracking.is_object() && tracking.contains("series") && tracking["series"].is_object()) {
      const auto& series = tracking["series"];
      if (series.contains("revision") && series["revision"].is_number_integer()) {
        cover.revision = std::clamp(series["revision"].get<int>(), 1, 999);
      }
      // Written into the cover letter's trailer: only what b4 itself
      // writes ("a newline" would start a header or a message of its own).
      if (series.contains("change-id") && series["change-id"].is_string() &&
          valid_change_id(series["change-id"].get<std::string>())) {
        cover.change_id = series["change-id"].get<std::string>();
      }
      if (series.contains("prefixes") && series["prefixes"].is_array()) {
        for (const auto& prefix : series["prefixes"]) {
          if (prefix.is_string() && prefix.get<std::string>().size() < 40) {
            cover.prefixes.push_back(prefix.get<std::string>());
          }
        }
      }
    }
  }
  return cover;
}

std::string subject_prefix(const Cover* cover, int revision) {
  std::string prefix = "PATCH";
  if (cover) {
    for (const auto& word : cover->prefixes) {
      prefix = name_safe(word) == word ? word + " " + prefix : prefix;
    }
  }
  return revision > 1 ? prefix + " v" + std::to_string(revision) : prefix;
}

}  // namespace

BranchSeries write_branch_series(ProcessRunner& runner, const fs::path& repo,
                                 const SeriesSpec& spec, const fs::path& out_root) {
  Git git(runner, repo);
  const std::string top = git.commit(spec.top);
  if (top.empty()) {
    throw usage_error("--series " + spec.text + ": " + repo.string() + " has no revision '" +
                      spec.top + "'");
  }
  BranchSeries series;
  std::optional<Cover> cover;
  std::string name;
  std::string bottom;  // the commit the patches start above
  if (spec.kind == SeriesSpecKind::k_range) {
    series.base = git.commit(spec.bottom);
    if (series.base.empty()) {
      throw usage_error("--series " + spec.text + ": " + repo.string() + " has no revision '" +
                        spec.bottom + "'");
    }
    bottom = series.base;
    name = name_safe(spec.top);
  } else {
    cover = find_cover(git, top);
    if (!cover) {
      throw usage_error("--series " + spec.text + ": no b4 cover-letter commit ('" +
                        std::string(k_b4_marker) + "') below " + spec.top +
                        ": give a range instead (BASE.." + spec.top + ")");
    }
    series.base = git.commit(cover->commit + "^");
    bottom = cover->commit;
    series.revision = cover->revision;
    series.change_id = cover->change_id;
    name = name_safe(starts_with(spec.top, "b4/") ? spec.top.substr(3) : spec.top);
  }
  const int count = std::stoi(
      std::string(trim(git.run({"rev-list", "--count", "--no-merges", bottom + ".." + top}))));
  if (count == 0) {
    throw usage_error("--series " + spec.text + ": no commits between " + bottom.substr(0, 12) +
                      " and " + top.substr(0, 12));
  }
  if (count > k_max_branch_commits) {
    throw usage_error("--series " + spec.text + ": " + std::to_string(count) +
                      " commits, more than a series has (" + std::to_string(k_max_branch_commits) +
                      ")");
  }
  const fs::path key = out_root / (top.substr(0, 16) + "-" + series.base.substr(0, 16));
  series.dir = key / name / ("v" + std::to_string(series.revision));
  if (fs::is_regular_file(series.dir / "series")) {
    // Written before, complete (the series file comes last).
    const std::string listing = read_file(series.dir / "series");
    for (const auto line : split_lines(listing)) {
      series.patches += !trim(line).empty() && line != "0000-cover-letter.patch" ? 1 : 0;
    }
    return series;
  }
  const fs::path partial = key / (name + ".partial");
  fs::remove_all(partial);
  fs::create_directories(partial);
  const std::string listing =
      git.run({"format-patch", "--no-cover-letter", "--no-thread", "--numbered", "--no-signature",
               "--no-notes", "--no-attach",
               "--subject-prefix=" + subject_prefix(cover ? &*cover : nullptr, series.revision),
               cover ? "--no-base" : "--base=" + series.base, "-o", partial.string(),
               "--end-of-options", bottom + ".." + top});
  std::vector<std::string> files;
  for (const auto line : split_lines(listing)) {
    if (!trim(line).empty()) {
      files.push_back(fs::path(std::string(trim(line))).filename().string());
    }
  }
  if (files.empty()) {
    throw usage_error("--series " + spec.text +
                      ": git format-patch wrote no patch (only "
                      "empty or merge commits between " +
                      bottom.substr(0, 12) + " and " + top.substr(0, 12) + ")");
  }
  series.patches = files.size();
  std::string series_file;
  if (cover) {
    std::string text =
        "From " + cover->commit + " Mon Sep 17 00:00:00 2001\nFrom: " + cover->author +
        "\nDate: " + cover->date + "\nSubject: [" + subject_prefix(&*cover, series.revision) +
        " 0/" + std::to_string(files.size()) + "] " + cover->subject + "\n\n" + cover->body +
        "\n\n---\nbase-commit: " + series.base + "\n";
    if (cover->change_id) {
      text += "change-id: " + *cover->change_id + "\n";
    }
    write_file(partial / "0000-cover-letter.patch", text);
    series_file += "0000-cover-letter.patch\n";
  }
  for (const auto& file : files) {
    series_file += file + "\n";
  }
  write_file(partial / "series", series_file);
  fs::create_directories(series.dir.parent_path());
  fs::remove_all(series.dir);
  fs::rename(partial, series.dir);
  return series;
}

}  // namespace kseries::git
