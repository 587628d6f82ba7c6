#include "coverage/changed_lines.h"

#include <git2.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <random>

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
// added: past the added lines j with added[j].line - j <= k (a sequence
// that never falls, so a binary search finds where it ends).
std::optional<int> map_line(const FileChange& file, int old_line) {
  if (file.new_path.empty() ||
      std::binary_search(file.removed.begin(), file.removed.end(), old_line)) {
    return std::nullopt;
  }
  const auto removed_above =
      std::lower_bound(file.removed.begin(), file.removed.end(), old_line) - file.removed.begin();
  const int line = old_line - static_cast<int>(removed_above);
  std::size_t low = 0;
  std::size_t high = file.added.size();
  while (low < high) {
    const std::size_t mid = low + (high - low) / 2;
    if (file.added[mid].line - static_cast<int>(mid) <= line) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return line + static_cast<int>(low);
}

namespace {

// The lines of every file of the tree as the series edits them: per file
// a treap (a randomly balanced binary tree, ordered by position) of runs,
// each either lines no patch added (one node for a whole stretch of the
// file, split where a hunk lands in it) or one changed line. A hunk line
// costs one split and one merge, O(log n); nothing is renumbered, so a
// line is not touched again by the patches after it.
class LineTrees {
 public:
  // A file the series did not create: lines without end.
  static constexpr std::int64_t k_whole_file = std::int64_t{1} << 40;

  int run(std::int64_t count) { return make(count, -1); }
  int changed(int id) { return make(1, id); }

  // ROOT with FILE's hunks applied; the lines FILE adds get ids from
  // NEXT_ID on (in FILE's order).
  int apply(int root, const FileChange& file, int next_id) {
    std::size_t r = 0;
    std::size_t a = 0;
    std::int64_t removed = 0;
    std::int64_t added = 0;
    while (r < file.removed.size() || a < file.added.size()) {
      // Both in the sequence as edited so far, the changes above applied;
      // at one place a removal goes first (a rewritten line).
      const std::int64_t at_removal = r < file.removed.size()
                                          ? file.removed[r] - 1 + added - removed
                                          : std::numeric_limits<std::int64_t>::max();
      const std::int64_t at_addition =
          a < file.added.size() ? file.added[a].line - 1 : std::numeric_limits<std::int64_t>::max();
      int left = -1;
      int right = -1;
      if (at_removal <= at_addition) {
        split(root, at_removal, left, right);
        int gone = -1;
        split(right, 1, gone, right);
        root = merge(left, right);
        ++removed;
        ++r;
      } else {
        split(root, at_addition, left, right);
        root = merge(merge(left, changed(next_id++)), right);
        ++added;
        ++a;
      }
    }
    return root;
  }

  // Calls SEE(id, line) for each changed line of ROOT, line 1-based.
  template <typename See>
  void walk(int root, See see) const {
    std::vector<int> stack;
    std::int64_t line = 0;
    int node = root;
    while (node >= 0 || !stack.empty()) {
      while (node >= 0) {
        stack.push_back(node);
        node = m_nodes[node].left;
      }
      node = stack.back();
      stack.pop_back();
      if (m_nodes[node].id >= 0) {
        see(m_nodes[node].id, line + 1);
      }
      line += m_nodes[node].count;
      node = m_nodes[node].right;
    }
  }

 private:
  struct Node {
    int left = -1;
    int right = -1;
    std::uint32_t priority = 0;
    std::int64_t count = 0;  // lines of this node
    std::int64_t size = 0;   // lines of its subtree
    int id = -1;             // the changed line, -1 for a run
  };

  int make(std::int64_t count, int id) {
    m_nodes.push_back({-1, -1, static_cast<std::uint32_t>(m_random()), count, count, id});
    return static_cast<int>(m_nodes.size()) - 1;
  }
  std::int64_t size(int node) const { return node < 0 ? 0 : m_nodes[node].size; }
  void update(int node) {
    Node& n = m_nodes[node];
    n.size = size(n.left) + n.count + size(n.right);
  }

  // The first K lines of ROOT into LEFT, the rest into RIGHT; a run that
  // straddles K is cut in two.
  void split(int root, std::int64_t k, int& left, int& right) {
    if (root < 0) {
      left = right = -1;
      return;
    }
    const std::int64_t before = size(m_nodes[root].left);
    const std::int64_t count = m_nodes[root].count;
    if (k <= before) {
      int inner = -1;
      split(m_nodes[root].left, k, left, inner);
      m_nodes[root].left = inner;
      update(root);
      right = root;
    } else if (k >= before + count) {
      int inner = -1;
      split(m_nodes[root].right, k - before - count, inner, right);
      m_nodes[root].right = inner;
      update(root);
      left = root;
    } else {
      const std::int64_t keep = k - before;
      const int rest = run(count - keep);  // may reallocate m_nodes: index, not reference
      m_nodes[root].count = keep;
      const int after = m_nodes[root].right;
      m_nodes[root].right = -1;
      update(root);
      left = root;
      right = merge(rest, after);
    }
  }

  int merge(int left, int right) {
    if (left < 0) {
      return right;
    }
    if (right < 0) {
      return left;
    }
    if (m_nodes[left].priority > m_nodes[right].priority) {
      const int inner = merge(m_nodes[left].right, right);
      m_nodes[left].right = inner;
      update(left);
      return left;
    }
    const int inner = merge(left, m_nodes[right].left);
    m_nodes[right].left = inner;
    update(right);
    return right;
  }

  std::vector<Node> m_nodes;
  std::mt19937 m_random{0x6b736572};  // fixed: the same series, the same shape
};

}  // namespace

std::vector<ChangedLine> changed_lines(const std::vector<PatchChange>& patches) {
  std::vector<ChangedLine> lines;
  LineTrees trees;
  std::map<std::string, int> files;  // path -> its tree, for the files edited so far
  for (std::size_t p = 0; p < patches.size(); ++p) {
    // All of a patch's files are taken out before any is put back: a
    // patch may rename a to b and b to a.
    std::vector<std::pair<const FileChange*, int>> taken;
    for (const auto& file : patches[p]) {
      int root = -1;  // a new file: empty
      if (!file.old_path.empty()) {
        const auto it = files.find(file.old_path);
        if (it != files.end()) {
          root = it->second;
          files.erase(it);
        } else {
          root = trees.run(LineTrees::k_whole_file);
        }
      }
      taken.emplace_back(&file, root);
    }
    for (const auto& [file, root] : taken) {
      const int first_id = static_cast<int>(lines.size());
      for (const auto& added : file->added) {
        lines.push_back({p, added.text, added.modifies, std::nullopt});
      }
      const int edited = trees.apply(root, *file, first_id);
      if (!file->new_path.empty()) {
        files[file->new_path] = edited;  // a deleted file's lines end with it
      }
    }
  }
  for (const auto& [path, root] : files) {
    trees.walk(root, [&, &path = path](int id, std::int64_t line) {
      lines[static_cast<std::size_t>(id)].at = Position{path, static_cast<int>(line)};
    });
  }
  return lines;
}

std::vector<const ChangedLine*> present_lines(const std::vector<ChangedLine>& lines) {
  std::vector<const ChangedLine*> present;
  for (const auto& line : lines) {
    if (line.at) {
      present.push_back(&line);
    }
  }
  return present;
}

}  // namespace kseries::coverage
