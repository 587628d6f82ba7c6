#include "git/checkout.h"

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "core/error.h"
#include "core/text.h"
#include "sys/files.h"

namespace kseries::git {

namespace fs = std::filesystem;

namespace {

void write_blob(git_repository* repo, const git_diff_file& file, const fs::path& target) {
  git_blob* raw = nullptr;
  check(git_blob_lookup(&raw, repo, &file.id), std::string("cannot read blob for ") + file.path);
  BlobPtr blob(raw);
  const auto* data = static_cast<const char*>(git_blob_rawcontent(raw));
  const auto size = static_cast<size_t>(git_blob_rawsize(raw));
  fs::create_directories(target.parent_path());
  std::error_code ec;
  fs::remove(target, ec);  // a symlink or a file of another mode
  if (file.mode == GIT_FILEMODE_LINK) {
    if (::symlink(std::string(data, size).c_str(), target.c_str()) != 0) {
      throw infra_error("cannot create symlink " + target.string());
    }
    return;
  }
  write_file(target, std::string_view(data, size));
  if (file.mode == GIT_FILEMODE_BLOB_EXECUTABLE) {
    ::chmod(target.c_str(), 0755);
  }
}

void remove_and_prune(const fs::path& root, const fs::path& target) {
  std::error_code ec;
  fs::remove(target, ec);
  for (fs::path dir = target.parent_path(); dir != root && fs::is_empty(dir, ec);
       dir = dir.parent_path()) {
    fs::remove(dir, ec);
  }
}

}  // namespace

SourceTree::SourceTree(fs::path dir, fs::path state_file)
    : m_dir(std::move(dir)), m_state_file(std::move(state_file)) {}

std::optional<git_oid> SourceTree::current() const {
  if (!fs::exists(m_state_file) || !fs::is_directory(m_dir)) {
    return std::nullopt;
  }
  const std::string state(trim(read_file(m_state_file)));
  git_oid oid;
  if (state.size() != GIT_OID_HEXSZ || git_oid_fromstrn(&oid, state.data(), state.size()) < 0) {
    return std::nullopt;
  }
  return oid;
}

std::size_t SourceTree::move_to(Store& store, const git_oid& commit) {
  // "updating FROM TO" while a move is under way: finish it next time.
  std::string pending_from;
  std::string pending_to;
  if (fs::exists(m_state_file)) {
    std::istringstream state(read_file(m_state_file));
    std::string word;
    state >> word;
    if (word == "updating") {
      state >> pending_from >> pending_to;
    }
  }
  if (!pending_from.empty() && fs::is_directory(m_dir)) {
    try {
      apply_tree_diff(store, from_hex(pending_from), from_hex(pending_to));
      write_file(m_state_file, pending_to + "\n");
    } catch (const Error&) {
      // The move cannot be finished (its commit cannot be written here: a
      // name longer than the file system takes): replaying it failed every
      // later build of this target, for any series. Start over instead.
      std::error_code ec;
      fs::remove(m_state_file, ec);
    }
  }
  const auto now = current();
  if (now && git_oid_equal(&*now, &commit)) {
    return 0;
  }
  if (!now) {
    return full_checkout(store, commit);
  }
  write_file(m_state_file, "updating " + to_hex(*now) + " " + to_hex(commit) + "\n");
  const std::size_t changed = apply_tree_diff(store, *now, commit);
  write_file(m_state_file, to_hex(commit) + "\n");
  return changed;
}

std::size_t SourceTree::full_checkout(Store& store, const git_oid& commit) {
  std::error_code ec;
  fs::remove_all(m_dir, ec);
  fs::create_directories(m_dir);
  fs::create_directories(m_state_file.parent_path());
  write_file(m_state_file, "checking-out " + to_hex(commit) + "\n");
  TreePtr tree = store.commit_tree(commit);
  git_checkout_options options = GIT_CHECKOUT_OPTIONS_INIT;
  options.checkout_strategy = GIT_CHECKOUT_FORCE | GIT_CHECKOUT_DONT_UPDATE_INDEX;
  const std::string target = m_dir.string();
  options.target_directory = target.c_str();
  std::size_t files = 0;
  options.notify_flags = GIT_CHECKOUT_NOTIFY_NONE;
  options.progress_cb = [](const char*, size_t completed, size_t, void* payload) {
    *static_cast<std::size_t*>(payload) = completed;
  };
  options.progress_payload = &files;
  check(git_checkout_tree(store.repo(), reinterpret_cast<const git_object*>(tree.get()), &options),
        "cannot check out " + to_hex(commit) + " into " + target);
  write_file(m_state_file, to_hex(commit) + "\n");
  return files;
}

std::size_t SourceTree::apply_tree_diff(Store& store, const git_oid& from, const git_oid& to) {
  TreePtr old_tree = store.commit_tree(from);
  TreePtr new_tree = store.commit_tree(to);
  git_diff* raw = nullptr;
  git_diff_options options = GIT_DIFF_OPTIONS_INIT;
  check(git_diff_tree_to_tree(&raw, store.repo(), old_tree.get(), new_tree.get(), &options),
        "cannot compare " + to_hex(from) + " and " + to_hex(to));
  DiffPtr diff(raw);
  const std::size_t count = git_diff_num_deltas(raw);
  for (std::size_t i = 0; i < count; ++i) {
    const git_diff_delta* delta = git_diff_get_delta(raw, i);
    if (delta->status == GIT_DELTA_DELETED) {
      remove_and_prune(m_dir, m_dir / delta->old_file.path);
    } else {
      // Without rename detection old and new paths are the same; a type
      // change (file <-> symlink) is handled by write_blob's remove.
      write_blob(store.repo(), delta->new_file, m_dir / delta->new_file.path);
    }
  }
  return count;
}

}  // namespace kseries::git
