#include "git/store.h"

#include <fstream>
#include <random>

#include <git2/sys/repository.h>

#include "core/error.h"
#include "core/text.h"
#include "git/object_buffer.h"
#include "git/object_database.h"
#include "sys/files.h"

namespace kseries::git {

namespace fs = std::filesystem;

namespace {

// A fresh bare repository built under a private name beside `path` and
// renamed into place: git_repository_init writes config through
// config.lock, so three first runs initialising `path` itself raced ("failed
// to lock file config.lock"). A rename onto a repository another process
// put there first fails, and that one is used.
void create_repository(const fs::path& path) {
  std::random_device random;
  const fs::path scratch =
      path.parent_path() / (path.filename().string() + ".new-" + std::to_string(random()));
  git_repository* raw = nullptr;
  check(git_repository_init(&raw, scratch.c_str(), /*is_bare=*/1),
        "cannot create repository " + scratch.string());
  git_repository_free(raw);
  std::error_code ec;
  fs::rename(scratch, path, ec);
  if (ec) {
    fs::remove_all(scratch);  // another process won; its repository is complete
  }
}

}  // namespace

Store::Store(const fs::path& path) : m_path(path) {
  // libgit2 checks, for every entry of every tree it writes, that the entry's
  // object exists (one odb header read, a file open for a loose object):
  // applying a series rewrites the whole tree per patch, so a 5,000-patch
  // mbox took 125 s, growing with the square of its length. Every entry
  // kseries writes comes from a tree of this store or was written just
  // before (git_apply_to_tree), so the check proves nothing here.
  git_libgit2_opts(GIT_OPT_ENABLE_STRICT_OBJECT_CREATION, 0);
  git_repository* raw = nullptr;
  if (git_repository_open_bare(&raw, path.c_str()) < 0) {
    create_repository(path);
    check(git_repository_open_bare(&raw, path.c_str()), "cannot open repository " + path.string());
  }
  m_repo.reset(raw);
  // Where the applied objects go (git/object_buffer.h); libgit2's pack
  // backend reads only a pack directory that exists when it opens. One that
  // is not a directory stays so: writing the pack then fails, exit 2.
  std::error_code ec;
  fs::create_directory(path / "objects" / "pack", ec);
  const fs::path alternates = path / "objects" / "info" / "alternates";
  m_alternates_at_open = fs::exists(alternates) ? read_file(alternates) : "";
  // Our own object database: the alternates (the user's repository) are
  // read-only, never freshened (see git/object_database.h).
  const OdbPtr odb = open_store_odb(path / "objects");
  check(git_repository_set_odb(m_repo.get(), odb.get()),
        "cannot use the object database of " + path.string());
  m_buffer = &ObjectBuffer::attach(odb.get());
}

Store::BufferedWrites::BufferedWrites(Store& store)
    : m_store(store), m_owner(!store.m_buffer->buffering()) {
  if (m_owner) {
    m_store.m_buffer->start();
  }
}

Store::BufferedWrites::~BufferedWrites() {
  if (m_owner && m_store.m_buffer->buffering()) {
    m_store.m_buffer->discard();
  }
}

void Store::BufferedWrites::flush_if_large() {
  if (m_owner && m_store.m_buffer->bytes() > k_flush_bytes) {
    m_store.m_buffer->flush(m_store.m_path / "objects" / "pack");
  }
}

void Store::BufferedWrites::finish() {
  if (m_owner && m_store.m_buffer->buffering()) {
    m_store.m_buffer->flush(m_store.m_path / "objects" / "pack");
    m_store.m_buffer->discard();  // empty now: stops buffering
  }
}

git_oid Store::borrow_commit(const fs::path& other, const std::string& rev) {
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, other.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) < 0) {
    throw usage_error("--tree " + other.string() + ": not a git repository (" +
                      last_error_message() + ")");
  }
  RepoPtr user(raw);
  git_object* object = nullptr;
  if (git_revparse_single(&object, user.get(), rev.c_str()) < 0) {
    throw usage_error("--base " + rev + ": no such revision in " + other.string() + " (" +
                      last_error_message() + ")");
  }
  ObjectPtr resolved(object);
  git_object* peeled = nullptr;
  if (git_object_peel(&peeled, resolved.get(), GIT_OBJECT_COMMIT) < 0) {
    throw usage_error("--base " + rev + " in " + other.string() + " is not a commit");
  }
  ObjectPtr commit(peeled);
  const git_oid oid = *git_object_id(commit.get());

  const fs::path objects =
      fs::canonical(fs::path(git_repository_commondir(user.get())) / "objects");
  const fs::path alternates = m_path / "objects" / "info" / "alternates";
  fs::create_directories(alternates.parent_path());
  auto lists = [&](const std::string& text) {
    bool listed = false;
    for (const auto line : split_lines(text)) {
      listed = listed || trim(line) == objects.string();
    }
    return listed;
  };
  if (!lists(fs::exists(alternates) ? read_file(alternates) : "")) {
    std::ofstream out(alternates, std::ios::app);
    out << objects.string() << '\n';
    if (!out) {
      throw infra_error("cannot write " + alternates.string());
    }
  }
  // Listed in the file is not enough: a concurrent run may have written the
  // line after this store opened its object database (seen under ASan in
  // tests/apply_concurrent.sh: "cannot read commit …: object not found").
  if (!lists(m_alternates_at_open)) {
    m_alternates_at_open += objects.string() + "\n";
    git_odb* odb = nullptr;
    check(git_repository_odb(&odb, m_repo.get()), "cannot open object database");
    OdbPtr odb_owner(odb);
    add_read_only_alternate(odb, objects);
  }
  return oid;
}

std::optional<git_oid> Store::resolve(const std::string& rev) const {
  git_object* object = nullptr;
  if (git_revparse_single(&object, m_repo.get(), rev.c_str()) < 0) {
    return std::nullopt;
  }
  ObjectPtr owner(object);
  git_object* peeled = nullptr;
  if (git_object_peel(&peeled, object, GIT_OBJECT_COMMIT) < 0) {
    return std::nullopt;
  }
  ObjectPtr commit(peeled);
  return *git_object_id(commit.get());
}

bool Store::has_object(const git_oid& oid) const {
  git_odb* odb = nullptr;
  check(git_repository_odb(&odb, m_repo.get()), "cannot open object database");
  OdbPtr owner(odb);
  return git_odb_exists(odb, &oid) == 1;
}

std::optional<git_oid> Store::branch_tip(const std::string& branch) const {
  git_oid oid;
  if (git_reference_name_to_id(&oid, m_repo.get(), ("refs/heads/" + branch).c_str()) < 0) {
    return std::nullopt;
  }
  return oid;
}

void Store::set_branch(const std::string& branch, const git_oid& commit,
                       const std::optional<git_oid>& seen, const std::string& why) {
  // libgit2 compares the old value under the ref's lock; a zero id means
  // "must not exist" (force=0 checks existence before taking the lock).
  git_oid expected{};
  if (seen) {
    expected = *seen;
  }
  git_reference* ref = nullptr;
  const int rc = git_reference_create_matching(&ref, m_repo.get(), ("refs/heads/" + branch).c_str(),
                                               &commit, /*force=*/1, &expected, why.c_str());
  if (rc == 0) {
    git_reference_free(ref);
    return;
  }
  if (rc != GIT_EMODIFIED && rc != GIT_ELOCKED && rc != GIT_EEXISTS) {
    check(rc, "cannot create branch " + branch);
  }
  const std::string message = last_error_message();
  const auto now = branch_tip(branch);
  if (now && git_oid_equal(&*now, &commit)) {
    return;  // another run made the same result
  }
  throw infra_error("branch " + branch + " was " + (seen ? "moved" : "created") +
                    " by another process meanwhile (" +
                    (now ? "now at " + to_hex(*now) : "being updated") + "; " + message +
                    "): this result " + to_hex(commit) +
                    " is not recorded; run again, or pass another --branch");
}

TreePtr Store::commit_tree(const git_oid& commit_id) const {
  git_commit* commit = nullptr;
  check(git_commit_lookup(&commit, m_repo.get(), &commit_id),
        "cannot read commit " + to_hex(commit_id));
  CommitPtr owner(commit);
  git_tree* tree = nullptr;
  check(git_commit_tree(&tree, commit), "cannot read the tree of " + to_hex(commit_id));
  return TreePtr(tree);
}

}  // namespace kseries::git
