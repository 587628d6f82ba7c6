#pragma once
// The work directory's bare repository: base trees, applied series, and
// (through alternates) read-only access to a user's kernel repository, which
// kseries never writes to.

#include <filesystem>
#include <optional>
#include <string>

#include "git/libgit2.h"

namespace kseries::git {

class ObjectBuffer;

class Store {
 public:
  // Opens the bare repository at `path`, creating it if missing. Safe when
  // several processes create it at once: each builds one beside it and
  // renames it into place; the losers open the winner's.
  explicit Store(const std::filesystem::path& path);

  git_repository* repo() const { return m_repo.get(); }
  const std::filesystem::path& path() const { return m_path; }

  // Makes the objects of the repository at `other` (a work tree or a bare
  // repository) readable here through objects/info/alternates, without
  // copying them and without writing anything in `other`. Returns the id of
  // `rev` resolved in `other` (read-only). Throws Error(k_usage) naming the
  // directory or revision when they cannot be resolved.
  git_oid borrow_commit(const std::filesystem::path& other, const std::string& rev);

  // Resolves a revision (branch, tag, id) in this store to a commit id.
  std::optional<git_oid> resolve(const std::string& rev) const;
  bool has_object(const git_oid& oid) const;

  std::optional<git_oid> branch_tip(const std::string& branch) const;
  // Points refs/heads/<branch> at `commit`, atomically and only if the
  // branch is still where the caller saw it: absent (`seen` empty) or at
  // *seen. When another process created or moved it meanwhile, throws
  // Error(k_infrastructure) naming the branch and where it is now; a branch
  // already at `commit` is fine.
  void set_branch(const std::string& branch, const git_oid& commit,
                  const std::optional<git_oid>& seen, const std::string& why);

  TreePtr commit_tree(const git_oid& commit) const;

  // While one lives, the objects written to this store are held in memory
  // and land as one pack (git/object_buffer.h) when finish() is called, or
  // in several once they pass k_flush_bytes; what no finish() wrote is
  // dropped with it (an exception on the way). Nested, only the outermost
  // one writes.
  class BufferedWrites {
   public:
    explicit BufferedWrites(Store& store);
    ~BufferedWrites();
    BufferedWrites(const BufferedWrites&) = delete;
    BufferedWrites& operator=(const BufferedWrites&) = delete;
    // Writes a pack when the buffer holds more than k_flush_bytes.
    void flush_if_large();
    // Writes the buffered objects as a pack; later writes go where they
    // went before.
    void finish();

    static constexpr std::size_t k_flush_bytes = 64u << 20;

   private:
    Store& m_store;
    bool m_owner;
  };

 private:
  std::filesystem::path m_path;
  RepoPtr m_repo;
  // objects/info/alternates as read before this store's object database
  // was opened: what that database already reads. Another process may add
  // a line afterwards; this one must then add the alternate itself.
  std::string m_alternates_at_open;
  ObjectBuffer* m_buffer = nullptr;  // owned by the object database
};

}  // namespace kseries::git
