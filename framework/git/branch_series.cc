#include "git/branch_series.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <map>

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
  const fs::path& repo() const { return m_repo; }

  std::string run(std::vector<std::string> args) {
    const ProcessSpec spec = make(std::move(args));
    const auto result = m_runner.run(spec);
    if (!result.ok()) {
      throw failed(spec, result);
    }
    return result.out;
  }

  // Whether git ran and said yes (exit 0) or no (exit 1); throws otherwise.
  bool test(std::vector<std::string> args) {
    const ProcessSpec spec = make(std::move(args));
    const auto result = m_runner.run(spec);
    if (result.end == ProcessEnd::k_exited && (result.exit_code == 0 || result.exit_code == 1)) {
      return result.exit_code == 0;
    }
    throw failed(spec, result);
  }

  std::string commit(const std::string& rev) {
    return std::string(
        trim(run({"rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}"})));
  }

 private:
  ProcessSpec make(std::vector<std::string> args) const {
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
    return spec;
  }

  static Error failed(const ProcessSpec& spec, const ProcessResult& result) {
    return usage_error(format_command(spec.argv) + ": " + result.describe() + ": " +
                       std::string(trim(result.err)).substr(0, 400));
  }

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

// b4's change-id (ez.py: "<date>-<slug>-<hash>"): a short word of
// letters, digits, '.', '_' and '-'; anything else in the tracking data is
// not one (and must not reach the cover letter's text).
bool is_change_id(std::string_view text) {
  return !text.empty() && text.size() <= 128 && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
}

// A body line that would read as the start of a message ("From <hash> ...",
// how the mbox is split) is quoted as mboxrd does: one '>' more.
std::string mbox_quoted(std::string_view line) {
  const auto text = line.find_first_not_of('>');
  return text != std::string_view::npos && line.substr(text).rfind("From ", 0) == 0
             ? ">" + std::string(line)
             : std::string(line);
}

int count_commits(Git& git, std::vector<std::string> args) {
  args.insert(args.begin(), {"rev-list", "--count"});
  return std::stoi(std::string(trim(git.run(std::move(args)))));
}

struct ChainCommit {
  std::string commit;
  std::vector<std::string> parents;
};

// RANGE's commits on its top's first-parent line, oldest first.
std::vector<ChainCommit> first_parent_chain(Git& git, const std::string& range) {
  std::vector<ChainCommit> chain;
  const std::string text = git.run({"rev-list", "--first-parent", "--reverse", "--parents",
                                    "--max-count=" + std::to_string(k_max_branch_commits + 1),
                                    "--end-of-options", range});
  for (const auto line : split_lines(text)) {
    auto words = split_words(line);
    if (words.empty()) {
      continue;
    }
    ChainCommit commit{words.front(), {words.begin() + 1, words.end()}};
    chain.push_back(std::move(commit));
  }
  return chain;
}

// FILES (what format-patch --first-parent wrote, in DIR) with a patch for
// each merge of CHAIN at its place: the merge's message as format-patch
// writes one, and its diff against its first parent. A merge that changed
// nothing there gets none.
std::vector<std::string> with_merges(Git& git, const std::vector<ChainCommit>& chain,
                                     const std::vector<std::string>& files, const fs::path& dir,
                                     const std::string& prefix) {
  std::map<std::string, std::string> by_commit;  // commit -> its file
  for (const auto& file : files) {
    const std::string text = read_file(dir / file, std::size_t{64} << 20);
    // "From <40 hex> Mon Sep 17 00:00:00 2001": the commit it was made from.
    if (text.size() > 45 && starts_with(text, "From ")) {
      by_commit[text.substr(5, 40)] = file;
    }
  }
  std::vector<std::string> ordered;
  for (std::size_t i = 0; i < chain.size(); ++i) {
    const auto& commit = chain[i];
    if (const auto it = by_commit.find(commit.commit); it != by_commit.end()) {
      ordered.push_back(it->second);
      continue;
    }
    if (commit.parents.size() < 2) {
      continue;  // an empty commit: format-patch leaves it out, it changes nothing
    }
    const std::string diff =
        git.run({"diff", "--binary", "--full-index", "--no-color", "--no-ext-diff", "--no-textconv",
                 commit.parents[0], commit.commit, "--"});
    if (trim(diff).empty()) {
      continue;
    }
    std::string head = git.run({"show", "-s", "--format=email", commit.commit});
    const std::string plain = "\nSubject: [PATCH] ";
    if (const auto at = head.find(plain); at != std::string::npos) {
      head.replace(at, plain.size(), "\nSubject: [" + prefix + "] ");
    }
    std::string message;
    for (const auto line : split_lines(head)) {
      message += (message.empty() ? std::string(line) : mbox_quoted(line)) + "\n";
    }
    const std::string name = "merge-" + commit.commit + ".patch";
    write_file(dir / name, message + "---\n" + diff);
    ordered.push_back(name);
  }
  return ordered;
}

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
      body += mbox_quoted(line) + "\n";
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
      if (series.contains("change-id") && series["change-id"].is_string() &&
          is_change_id(series["change-id"].get<std::string>())) {
        // Unchecked, a newline in it would start a header (or a message)
        // of its own in the cover letter written below.
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

// Where a branch's series starts: a range's bottom, or the b4 cover-letter
// commit below TOP (its revision and change-id with it).
struct Ends {
  std::optional<Cover> cover;
  std::string name;
  std::string bottom;  // the commit the patches start above
};

Ends find_ends(Git& git, const SeriesSpec& spec, const std::string& top, BranchSeries& series) {
  Ends ends;
  if (spec.kind == SeriesSpecKind::k_range) {
    series.base = git.commit(spec.bottom);
    if (series.base.empty()) {
      throw usage_error("--series " + spec.text + ": " + git.repo().string() +
                        " has no revision '" + spec.bottom + "'");
    }
    ends.bottom = series.base;
    ends.name = name_safe(spec.top);
    return ends;
  }
  ends.cover = find_cover(git, top);
  if (!ends.cover) {
    throw usage_error("--series " + spec.text + ": no b4 cover-letter commit ('" +
                      std::string(k_b4_marker) + "') below " + spec.top +
                      ": give a range instead (BASE.." + spec.top + ")");
  }
  series.base = git.commit(ends.cover->commit + "^");
  ends.bottom = ends.cover->commit;
  series.revision = ends.cover->revision;
  series.change_id = ends.cover->change_id;
  ends.name = name_safe(starts_with(spec.top, "b4/") ? spec.top.substr(3) : spec.top);
  return ends;
}

// The commits BOTTOM..TOP as patches: with merges, TOP's first-parent line
// (CHAIN); refused when the patches would not make TOP's tree, or when there
// are none or more than a series has. Returns their count.
int check_range(Git& git, const SeriesSpec& spec, const std::string& bottom, const std::string& top,
                int merges, std::vector<ChainCommit>& chain) {
  const std::string range = bottom + ".." + top;
  if (merges > 0) {
    chain = first_parent_chain(git, range);
    const bool whole = chain.size() <= static_cast<std::size_t>(k_max_branch_commits);
    if (whole &&
        (chain.empty() || chain.front().parents.empty() || chain.front().parents[0] != bottom)) {
      throw usage_error("--series " + spec.text + ": the range holds " + std::to_string(merges) +
                        " merge(s) and " + bottom.substr(0, 12) +
                        " is not on the first-parent line of " + top.substr(0, 12) +
                        ": its patches would not make " + top.substr(0, 12) +
                        "'s tree; give a base on that line (a commit of " +
                        format_command({"git", "log", "--first-parent", spec.top}) + ")");
    }
  } else if (!git.test({"merge-base", "--is-ancestor", bottom, top})) {
    throw usage_error(
        "--series " + spec.text + ": " + bottom.substr(0, 12) + " is not an ancestor of " +
        top.substr(0, 12) + ": its patches would go onto a tree " + top.substr(0, 12) +
        " never had; give the fork point (" +
        format_command({"git", "merge-base", spec.bottom, spec.top}) + ") as the base");
  }
  const int count =
      merges > 0 ? static_cast<int>(chain.size()) : count_commits(git, {"--no-merges", range});
  if (count == 0) {
    throw usage_error("--series " + spec.text + ": no commits between " + bottom.substr(0, 12) +
                      " and " + top.substr(0, 12));
  }
  if (count > k_max_branch_commits) {
    throw usage_error("--series " + spec.text + ": " + std::to_string(count) +
                      " commits, more than a series has (" + std::to_string(k_max_branch_commits) +
                      ")");
  }
  return count;
}

// git format-patch of RANGE into PARTIAL: the patch files' names, in order.
// Numbered m/n when every commit is a patch git writes; with merges the
// series file alone gives the order (git cannot number the merges' patches).
std::vector<std::string> format_patches(Git& git, const Ends& ends, const BranchSeries& series,
                                        const std::vector<ChainCommit>& chain,
                                        const std::string& range, const fs::path& partial) {
  const std::string prefix = subject_prefix(ends.cover ? &*ends.cover : nullptr, series.revision);
  std::vector<std::string> format_patch = {
      "format-patch", "--no-cover-letter",         "--no-thread", "--no-signature", "--no-notes",
      "--no-attach",  "--subject-prefix=" + prefix};
  if (series.merges > 0) {
    format_patch.insert(format_patch.end(), {"--no-numbered", "--first-parent"});
  } else {
    format_patch.push_back("--numbered");
  }
  format_patch.insert(format_patch.end(), {ends.cover ? "--no-base" : "--base=" + series.base, "-o",
                                           partial.string(), "--end-of-options", range});
  const std::string listing = git.run(format_patch);
  std::vector<std::string> files;
  for (const auto line : split_lines(listing)) {
    if (!trim(line).empty()) {
      files.push_back(fs::path(std::string(trim(line))).filename().string());
    }
  }
  if (series.merges > 0) {
    files = with_merges(git, chain, files, partial, prefix);
  }
  return files;
}

// PARTIAL's cover letter (from the b4 cover commit) and its series file.
void write_listing(const fs::path& partial, const std::optional<Cover>& cover,
                   const BranchSeries& series, const std::vector<std::string>& files) {
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
  const Ends ends = find_ends(git, spec, top, series);
  // A merge in the range: git format-patch leaves merges out, and with
  // them what a merge itself changed (a conflict's resolution), so the
  // patches would build a tree TOP never had. Each commit of TOP's
  // first-parent line becomes one patch instead (a merge: its diff against
  // its first parent), which applied in order on BOTTOM gives TOP's tree.
  const std::string range = ends.bottom + ".." + top;
  const int merges = count_commits(git, {"--merges", range});
  std::vector<ChainCommit> chain;
  check_range(git, spec, ends.bottom, top, merges, chain);
  series.merges = static_cast<std::size_t>(merges);
  // "-2": the directories written before merges became patches are not reused.
  const fs::path key = out_root / (top.substr(0, 16) + "-" + series.base.substr(0, 16) + "-2");
  series.dir = key / ends.name / ("v" + std::to_string(series.revision));
  if (fs::is_regular_file(series.dir / "series")) {
    // Written before, complete (the series file comes last).
    const std::string listing = read_file(series.dir / "series");
    for (const auto line : split_lines(listing)) {
      series.patches += !trim(line).empty() && line != "0000-cover-letter.patch" ? 1 : 0;
    }
    return series;
  }
  const fs::path partial = key / (ends.name + ".partial");
  fs::remove_all(partial);
  fs::create_directories(partial);
  const auto files = format_patches(git, ends, series, chain, range, partial);
  if (files.empty()) {
    throw usage_error("--series " + spec.text +
                      ": git format-patch wrote no patch (only "
                      "empty or merge commits between " +
                      ends.bottom.substr(0, 12) + " and " + top.substr(0, 12) + ")");
  }
  series.patches = files.size();
  write_listing(partial, ends.cover, series, files);
  fs::create_directories(series.dir.parent_path());
  fs::remove_all(series.dir);
  fs::rename(partial, series.dir);
  return series;
}

}  // namespace kseries::git
