#include "git/store.h"

#include <fstream>

#include "core/error.h"
#include "core/text.h"
#include "sys/files.h"

namespace kseries::git {

namespace fs = std::filesystem;

Store::Store(const fs::path& path) : m_path(path) {
  git_repository* raw = nullptr;
  if (git_repository_open_bare(&raw, path.c_str()) < 0) {
    check(git_repository_init(&raw, path.c_str(), /*is_bare=*/1),
          "cannot create repository " + path.string());
  }
  m_repo.reset(raw);
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
  std::string existing = fs::exists(alternates) ? read_file(alternates) : "";
  bool listed = false;
  for (const auto line : split_lines(existing)) {
    listed = listed || trim(line) == objects.string();
  }
  if (!listed) {
    std::ofstream out(alternates, std::ios::app);
    out << objects.string() << '\n';
    if (!out) {
      throw infra_error("cannot write " + alternates.string());
    }
    git_odb* odb = nullptr;
    check(git_repository_odb(&odb, m_repo.get()), "cannot open object database");
    OdbPtr odb_owner(odb);
    check(git_odb_add_disk_alternate(odb, objects.c_str()),
          "cannot read objects of " + objects.string());
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

void Store::set_branch(const std::string& branch, const git_oid& commit, const std::string& why) {
  git_reference* ref = nullptr;
  check(git_reference_create(&ref, m_repo.get(), ("refs/heads/" + branch).c_str(), &commit,
                             /*force=*/1, why.c_str()),
        "cannot create branch " + branch);
  git_reference_free(ref);
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
