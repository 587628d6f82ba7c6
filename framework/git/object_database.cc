#include "git/object_database.h"

#include <git2/sys/odb_backend.h>

#include "core/error.h"
#include "core/text.h"
#include "sys/files.h"

namespace kseries::git {
namespace {

namespace fs = std::filesystem;

// libgit2's priorities for the default backends (loose below packs).
constexpr int k_loose_priority = 1;
constexpr int k_packed_priority = 2;
constexpr int k_max_alternate_depth = 5;

// A backend that forwards reads to `inner` and has no write, writestream or
// freshen: git_odb_write then finds an existing object through `exists`
// and leaves it alone.
struct ReadOnlyBackend {
  git_odb_backend parent;
  git_odb_backend* inner;
};

git_odb_backend* inner_of(git_odb_backend* backend) {
  return reinterpret_cast<ReadOnlyBackend*>(backend)->inner;
}

git_odb_backend* read_only(git_odb_backend* inner, git_odb* odb) {
  auto* backend = new ReadOnlyBackend{};
  git_odb_init_backend(&backend->parent, GIT_ODB_BACKEND_VERSION);
  backend->inner = inner;
  inner->odb = odb;  // as if added itself; it is never added
  git_odb_backend& b = backend->parent;
  b.read = [](void** data, size_t* len, git_object_t* type, git_odb_backend* self,
              const git_oid* oid) {
    git_odb_backend* in = inner_of(self);
    return in->read ? in->read(data, len, type, in, oid) : GIT_ENOTFOUND;
  };
  b.read_prefix = [](git_oid* out, void** data, size_t* len, git_object_t* type,
                     git_odb_backend* self, const git_oid* prefix, size_t prefix_len) {
    git_odb_backend* in = inner_of(self);
    return in->read_prefix ? in->read_prefix(out, data, len, type, in, prefix, prefix_len)
                           : GIT_ENOTFOUND;
  };
  b.read_header = [](size_t* len, git_object_t* type, git_odb_backend* self, const git_oid* oid) {
    git_odb_backend* in = inner_of(self);
    return in->read_header ? in->read_header(len, type, in, oid) : GIT_ENOTFOUND;
  };
  b.readstream = [](git_odb_stream** stream, size_t* len, git_object_t* type, git_odb_backend* self,
                    const git_oid* oid) {
    git_odb_backend* in = inner_of(self);
    return in->readstream ? in->readstream(stream, len, type, in, oid) : GIT_ENOTFOUND;
  };
  b.exists = [](git_odb_backend* self, const git_oid* oid) {
    git_odb_backend* in = inner_of(self);
    return in->exists ? in->exists(in, oid) : 0;
  };
  b.exists_prefix = [](git_oid* out, git_odb_backend* self, const git_oid* prefix,
                       size_t prefix_len) {
    git_odb_backend* in = inner_of(self);
    return in->exists_prefix ? in->exists_prefix(out, in, prefix, prefix_len) : GIT_ENOTFOUND;
  };
  b.refresh = [](git_odb_backend* self) {
    git_odb_backend* in = inner_of(self);
    return in->refresh ? in->refresh(in) : 0;
  };
  b.foreach = [](git_odb_backend* self, git_odb_foreach_cb cb, void* payload) {
    git_odb_backend* in = inner_of(self);
    return in->foreach ? in->foreach (in, cb, payload) : 0;
  };
  b.free = [](git_odb_backend* self) {
    git_odb_backend* in = inner_of(self);
    in->free(in);
    delete reinterpret_cast<ReadOnlyBackend*>(self);
  };
  return &backend->parent;
}

// Adds `backend` to `odb` (as an alternate or its own); frees it on failure.
void add(git_odb* odb, git_odb_backend* backend, int priority, bool alternate,
         const fs::path& objects) {
  const int rc = alternate ? git_odb_add_alternate(odb, backend, priority)
                           : git_odb_add_backend(odb, backend, priority);
  if (rc < 0) {
    const std::string message = last_error_message();
    backend->free(backend);
    throw infra_error("cannot use the objects of " + objects.string() + ": " + message);
  }
}

void add_alternates_of(git_odb* odb, const fs::path& objects, int depth);

// The packs and loose objects of `objects`, read-only, then its alternates.
void add_read_only(git_odb* odb, const fs::path& objects, int depth) {
  git_odb_backend* pack = nullptr;
  check(git_odb_backend_pack(&pack, objects.c_str()),
        "cannot read the packs of " + objects.string());
  add(odb, read_only(pack, odb), k_packed_priority, true, objects);
  git_odb_backend* loose = nullptr;
  check(git_odb_backend_loose(&loose, objects.c_str(), -1, 0, 0, 0),
        "cannot read the objects of " + objects.string());
  add(odb, read_only(loose, odb), k_loose_priority, true, objects);
  add_alternates_of(odb, objects, depth + 1);
}

void add_alternates_of(git_odb* odb, const fs::path& objects, int depth) {
  const fs::path listing = objects / "info" / "alternates";
  std::error_code ec;
  if (depth > k_max_alternate_depth || !fs::exists(listing, ec)) {
    return;
  }
  const std::string text = read_file(listing);  // split_lines views into it
  for (const auto raw_line : split_lines(text)) {
    const std::string_view line = trim(raw_line);
    if (line.empty() || line.front() == '#') {
      continue;
    }
    fs::path alternate(line);
    if (alternate.is_relative()) {
      alternate = objects / alternate;  // git reads them relative to objects/
    }
    if (fs::is_directory(alternate, ec)) {  // as git: a missing one is skipped
      add_read_only(odb, alternate, depth);
    }
  }
}

}  // namespace

OdbPtr open_store_odb(const fs::path& objects) {
  git_odb* raw = nullptr;
  check(git_odb_new(&raw), "cannot create an object database");
  OdbPtr odb(raw);
  git_odb_backend* pack = nullptr;
  check(git_odb_backend_pack(&pack, objects.c_str()),
        "cannot read the packs of " + objects.string());
  add(odb.get(), pack, k_packed_priority, false, objects);
  git_odb_backend* loose = nullptr;
  check(git_odb_backend_loose(&loose, objects.c_str(), -1, 0, 0, 0),
        "cannot open the objects of " + objects.string());
  add(odb.get(), loose, k_loose_priority, false, objects);
  add_alternates_of(odb.get(), objects, 1);
  return odb;
}

void add_read_only_alternate(git_odb* odb, const fs::path& objects) {
  add_read_only(odb, objects, 1);
}

}  // namespace kseries::git
