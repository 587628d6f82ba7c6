#include "coverage/changed_lines.h"

#include <git2.h>

#include <algorithm>

#include "core/error.h"
#include "git/libgit2.h"

namespace kseries::coverage {

namespace {

std::string delta_path(const git_diff_file& file, bool exists) {
  return exists && file.path ? std::string(file.path) : std::string();
}

// The hunk's lines into FILE; a '+' line modifies when its change block
// (the -/+ lines between two context lines) removes something too.
void read_hunk(git_patch* patch, std::size_t hunk, FileChange& file) {
  const int count = git_patch_num_lines_in_hunk(patch, hunk);
  std::size_t block_start = file.added.size();
  bool block_removes = false;
  auto close_block = [&] {
    for (std::size_t i = block_start; i < file.added.size(); ++i) {
      file.added[i].modifies = block_removes;
    }
    block_start = file.added.size();
    block_removes = false;
  };
  for (int i = 0; i < count; ++i) {
    const git_diff_line* line = nullptr;
    git::check(git_patch_get_line_in_hunk(&line, patch, hunk, static_cast<std::size_t>(i)),
               "cannot read a hunk line");
    if (line->origin == GIT_DIFF_LINE_DELETION) {
      file.removed.push_back(line->old_lineno);
      block_removes = true;
    } else if (line->origin == GIT_DIFF_LINE_ADDITION) {
      std::string text(line->content, line->content_len);
      if (!text.empty() && text.back() == '\n') {
        text.pop_back();
      }
      file.added.push_back({line->new_lineno, std::move(text), false});
    } else if (line->origin == GIT_DIFF_LINE_CONTEXT) {
      close_block();
    }
  }
  close_block();
}

}  // namespace

PatchChange read_patch_change(std::string_view diff, const std::string& what) {
  git_diff* raw = nullptr;
  if (git_diff_from_buffer(&raw, diff.data(), diff.size()) < 0) {
    throw usage_error(what + ": the diff does not parse (" + git::last_error_message() + ")");
  }
  const git::DiffPtr parsed(raw);
  PatchChange change;
  const std::size_t deltas = git_diff_num_deltas(parsed.get());
  for (std::size_t d = 0; d < deltas; ++d) {
    git_patch* raw_patch = nullptr;
    git::check(git_patch_from_diff(&raw_patch, parsed.get(), d), what + ": cannot read a file");
    const git::PatchPtr patch(raw_patch);
    const git_diff_delta* delta = git_patch_get_delta(patch.get());
    FileChange file;
    file.old_path = delta_path(delta->old_file, delta->status != GIT_DELTA_ADDED);
    file.new_path = delta_path(delta->new_file, delta->status != GIT_DELTA_DELETED);
    for (std::size_t h = 0; h < git_patch_num_hunks(patch.get()); ++h) {
      read_hunk(patch.get(), h, file);
    }
    std::sort(file.removed.begin(), file.removed.end());
    std::sort(file.added.begin(), file.added.end(),
              [](const auto& a, const auto& b) { return a.line < b.line; });
    change.push_back(std::move(file));
  }
  return change;
}

// A surviving old line is the k-th surviving line (k = its number less the
// removed lines above it), and the k-th line of the new file that no hunk
// added: count the added lines up to there.
std::optional<int> map_line(const FileChange& file, int old_line) {
  if (file.new_path.empty() ||
      std::binary_search(file.removed.begin(), file.removed.end(), old_line)) {
    return std::nullopt;
  }
  const auto removed_above =
      std::lower_bound(file.removed.begin(), file.removed.end(), old_line) - file.removed.begin();
  int line = old_line - static_cast<int>(removed_above);
  for (const auto& added : file.added) {
    if (added.line > line) {
      break;
    }
    ++line;
  }
  return line;
}

namespace {

// POSITION after PATCH: unchanged if the patch leaves its file alone.
std::optional<Position> follow(const PatchChange& patch, const Position& position) {
  for (const auto& file : patch) {
    if (file.old_path == position.path) {
      const auto line = map_line(file, position.line);
      if (!line) {
        return std::nullopt;
      }
      return Position{file.new_path, *line};
    }
  }
  return position;
}

}  // namespace

std::vector<ChangedLine> changed_lines(const std::vector<PatchChange>& patches) {
  std::vector<ChangedLine> lines;
  for (std::size_t p = 0; p < patches.size(); ++p) {
    for (auto& line : lines) {
      const auto& before = line.at[p - 1];
      line.at.push_back(before ? follow(patches[p], *before) : std::nullopt);
    }
    for (const auto& file : patches[p]) {
      for (const auto& added : file.added) {
        ChangedLine line;
        line.patch = p;
        line.text = added.text;
        line.modifies = added.modifies;
        line.at.assign(p, std::nullopt);
        line.at.push_back(Position{file.new_path, added.line});
        lines.push_back(std::move(line));
      }
    }
  }
  return lines;
}

std::vector<const ChangedLine*> lines_at_prefix(const std::vector<ChangedLine>& lines,
                                                std::size_t k) {
  std::vector<const ChangedLine*> present;
  for (const auto& line : lines) {
    if (k >= 1 && k <= line.at.size() && line.at[k - 1]) {
      present.push_back(&line);
    }
  }
  return present;
}

}  // namespace kseries::coverage
