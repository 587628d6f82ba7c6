#include "kernel/source_check.h"

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <set>

#include "core/error.h"
#include "core/text.h"
#include "git/libgit2.h"
#include "sys/files.h"

namespace kseries::kernel {

namespace fs = std::filesystem;

namespace {

// The largest .cmd file read: vmlinux's holds a long link command, an
// object's a few thousand dependencies; far below this.
constexpr std::size_t k_max_cmd_bytes = std::size_t{16} << 20;

bool under(const fs::path& path, const std::string& root_slash) {
  return path.string().compare(0, root_slash.size(), root_slash) == 0;
}

// `$(wildcard include/config/FOO)` markers out, then the words.
std::vector<std::string> dependency_words(std::string_view text) {
  std::string plain;
  plain.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (text.compare(i, 2, "$(") == 0) {
      const auto close = text.find(')', i);
      i = close == std::string_view::npos ? text.size() : close + 1;
      continue;
    }
    plain += text[i] == '\\' ? ' ' : text[i];
    ++i;
  }
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < plain.size()) {
    while (i < plain.size() && (plain[i] == ' ' || plain[i] == '\t')) {
      ++i;
    }
    std::size_t end = i;
    while (end < plain.size() && plain[end] != ' ' && plain[end] != '\t') {
      ++end;
    }
    if (end > i) {
      words.emplace_back(plain.substr(i, end - i));
    }
    i = end;
  }
  return words;
}

// The source and dependency files one .cmd file names.
void read_cmd_file(const std::string& text, std::vector<std::string>& words) {
  bool in_deps = false;
  for (const auto line : split_lines(text)) {
    if (!in_deps) {
      if (line.starts_with("source_")) {
        const auto assign = line.find(":=");
        if (assign != std::string_view::npos) {
          for (auto& word : dependency_words(line.substr(assign + 2))) {
            words.push_back(std::move(word));
          }
        }
        continue;
      }
      if (!line.starts_with("deps_")) {
        continue;
      }
      const auto assign = line.find(":=");
      if (assign == std::string_view::npos) {
        continue;
      }
      in_deps = true;
      for (auto& word : dependency_words(line.substr(assign + 2))) {
        words.push_back(std::move(word));
      }
      in_deps = line.ends_with("\\");
      continue;
    }
    for (auto& word : dependency_words(line)) {
      words.push_back(std::move(word));
    }
    in_deps = line.ends_with("\\");
  }
}

std::string hex(const git_oid& oid) { return git::to_hex(oid); }

}  // namespace

TreeSnapshot snapshot_tree(const fs::path& dir) {
  TreeSnapshot snapshot;
  struct timespec now {};
  ::clock_gettime(CLOCK_REALTIME, &now);
  snapshot.taken_ns = static_cast<std::int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec);
  if (ec) {
    throw infra_error("cannot read " + dir.string() + ": " + ec.message());
  }
  const std::string root = dir.string() + "/";
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) {
      throw infra_error("cannot read " + dir.string() + ": " + ec.message());
    }
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || S_ISDIR(st.st_mode)) {
      continue;  // gone meanwhile: the next snapshot says so
    }
    FileStat file;
    file.size = static_cast<std::uint64_t>(st.st_size);
    file.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    file.ctime_ns = static_cast<std::int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
    file.inode = st.st_ino;
    snapshot.files.emplace(it->path().string().substr(root.size()), file);
  }
  return snapshot;
}

std::vector<std::string> changed_paths(const TreeSnapshot& before_snapshot,
                                       const TreeSnapshot& after_snapshot, std::size_t limit) {
  const auto& before = before_snapshot.files;
  const auto& after = after_snapshot.files;
  std::vector<std::string> changed;
  auto a = before.begin();
  auto b = after.begin();
  while ((a != before.end() || b != after.end()) && changed.size() < limit) {
    if (b == after.end() || (a != before.end() && a->first < b->first)) {
      changed.push_back(a->first + " (removed)");
      ++a;
    } else if (a == before.end() || b->first < a->first) {
      changed.push_back(b->first + " (added)");
      ++b;
    } else {
      if (!(a->second == b->second)) {
        changed.push_back(a->first);
      }
      ++a;
      ++b;
    }
  }
  return changed;
}

std::vector<std::string> racy_paths(const TreeSnapshot& before, const TreeSnapshot& after) {
  constexpr std::int64_t k_tick_ns = 50'000'000;
  std::vector<std::string> racy;
  for (const auto& [path, stat] : after.files) {
    const auto was = before.files.find(path);
    if (was != before.files.end() && was->second == stat &&
        stat.mtime_ns >= before.taken_ns - k_tick_ns) {
      racy.push_back(path);
    }
  }
  return racy;
}

std::vector<std::string> files_make_read(const fs::path& build_dir, const fs::path& src_dir) {
  const fs::path src = fs::weakly_canonical(src_dir);
  const std::string src_slash = src.string() + "/";
  const fs::path objtree = fs::weakly_canonical(build_dir);
  std::set<std::string> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(build_dir, ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() < 6 || name.front() != '.' || !name.ends_with(".cmd") ||
        !it->is_regular_file(ec)) {
      continue;
    }
    std::vector<std::string> words;
    read_cmd_file(read_file(it->path(), k_max_cmd_bytes), words);
    for (const auto& word : words) {
      if (word.empty() || word.back() == ':') {
        continue;
      }
      const fs::path path =
          (word.front() == '/' ? fs::path(word) : objtree / word).lexically_normal();
      if (under(path, src_slash)) {
        files.insert(path.string().substr(src_slash.size()));
      }
    }
  }
  if (ec) {
    throw infra_error("cannot read " + build_dir.string() + ": " + ec.message());
  }
  return {files.begin(), files.end()};
}

std::string blob_id_of_file(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    return "";
  }
  git_oid oid;
  if (S_ISLNK(st.st_mode)) {
    // git stores a symlink as a blob of its target's name.
    std::string target(static_cast<std::size_t>(st.st_size) + 1, '\0');
    const auto n = ::readlink(path.c_str(), target.data(), target.size());
    if (n < 0) {
      return "";
    }
    git::check(git_odb_hash(&oid, target.data(), static_cast<std::size_t>(n), GIT_OBJECT_BLOB),
               "cannot hash " + path.string());
    return hex(oid);
  }
  if (git_odb_hashfile(&oid, path.c_str(), GIT_OBJECT_BLOB) != 0) {
    return "";
  }
  return hex(oid);
}

SourceCheck check_sources(const git::Store& store, const git_oid& commit, const fs::path& src_dir,
                          const std::vector<std::string>& paths,
                          const std::map<std::string, std::string>& overrides) {
  SourceCheck check;
  git::TreePtr tree = store.commit_tree(commit);
  std::vector<std::string> sorted = paths;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  for (const auto& path : sorted) {
    const std::string have = blob_id_of_file(src_dir / path);
    std::string want;
    if (const auto patched = overrides.find(path); patched != overrides.end()) {
      want = patched->second;
    } else {
      git_tree_entry* raw = nullptr;
      if (git_tree_entry_bypath(&raw, tree.get(), path.c_str()) == 0) {
        if (git_tree_entry_type(raw) == GIT_OBJECT_BLOB) {
          want = hex(*git_tree_entry_id(raw));
        }
        git_tree_entry_free(raw);
      }
    }
    check.files.emplace_back(path, have);
    if (have != want) {
      check.mismatches.push_back(
          path + ": " + (have.empty() ? "missing" : "holds blob " + have.substr(0, 12)) + ", " +
          (want.empty() ? "which the commit does not have"
                        : "the commit has " + want.substr(0, 12)));
    }
  }
  return check;
}

std::string manifest_text(const SourceCheck& check) {
  std::string text;
  for (const auto& [path, blob] : check.files) {
    text += path + "\t" + blob + "\n";
  }
  return text;
}

std::vector<std::pair<std::string, std::string>> parse_manifest(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto line : split_lines(text)) {
    const auto tab = line.find('\t');
    if (tab == std::string_view::npos || tab == 0) {
      continue;
    }
    files.emplace_back(std::string(line.substr(0, tab)), std::string(line.substr(tab + 1)));
  }
  return files;
}

}  // namespace kseries::kernel
