#pragma once
// RAII for libgit2: one Session object owns git_libgit2_init/shutdown, every
// handle is a unique_ptr with its free function, and every failing call
// becomes an Error that carries libgit2's message (copied at once: the next
// failing call reuses its buffer).

#include <git2.h>

#include <memory>
#include <string>
#include <string_view>

namespace kseries::git {

class Session {
 public:
  Session() { git_libgit2_init(); }
  ~Session() { git_libgit2_shutdown(); }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};

template <typename T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* handle) const { Free(handle); }
};

using RepoPtr = std::unique_ptr<git_repository, Deleter<git_repository, git_repository_free>>;
using TreePtr = std::unique_ptr<git_tree, Deleter<git_tree, git_tree_free>>;
using CommitPtr = std::unique_ptr<git_commit, Deleter<git_commit, git_commit_free>>;
using DiffPtr = std::unique_ptr<git_diff, Deleter<git_diff, git_diff_free>>;
using IndexPtr = std::unique_ptr<git_index, Deleter<git_index, git_index_free>>;
using ReferencePtr = std::unique_ptr<git_reference, Deleter<git_reference, git_reference_free>>;
using ObjectPtr = std::unique_ptr<git_object, Deleter<git_object, git_object_free>>;
using TreeBuilderPtr =
    std::unique_ptr<git_treebuilder, Deleter<git_treebuilder, git_treebuilder_free>>;
using OdbPtr = std::unique_ptr<git_odb, Deleter<git_odb, git_odb_free>>;
using SignaturePtr = std::unique_ptr<git_signature, Deleter<git_signature, git_signature_free>>;
using BlobPtr = std::unique_ptr<git_blob, Deleter<git_blob, git_blob_free>>;
using PatchPtr = std::unique_ptr<git_patch, Deleter<git_patch, git_patch_free>>;
using TreeEntryPtr = std::unique_ptr<git_tree_entry, Deleter<git_tree_entry, git_tree_entry_free>>;

// libgit2's last error message, copied.
std::string last_error_message();

// Throws Error(k_infrastructure) "<what>: <libgit2 message>" when rc < 0.
void check(int rc, std::string_view what);

// Whose fault a failed call (rc < 0, git_error_last() still its own) is:
// the machine's (the disk, the object store, memory: GIT_ERROR_OS, _ODB,
// _FILESYSTEM, _NOMEMORY, _ZLIB) or the input's (GIT_EAPPLYFAIL,
// GIT_ERROR_PATCH, anything else).
enum class FailureSource { k_input, k_infrastructure };
FailureSource failure_source(int rc);

std::string to_hex(const git_oid& oid);
// Parses 40 hex digits; throws Error(k_usage) otherwise.
git_oid from_hex(std::string_view hex);

}  // namespace kseries::git
