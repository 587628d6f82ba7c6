#pragma once
// Objects held in memory and written to the store as one pack, instead of a
// file per object. libgit2 writes every blob, tree and commit as a loose
// object: a file created, written and renamed into objects/xx/. Applying a
// series writes four or more per patch, and on ext4 creating a file costs
// more the more inodes its block group has handed out and taken back (the
// allocator skips inodes freed recently): a 5,000-patch mbox spent most of
// its time there, growing faster than the number of patches.

#include <filesystem>
#include <string>
#include <unordered_map>
#include <vector>

#include "git/libgit2.h"

namespace kseries::git {

class ObjectBuffer {
 public:
  // Adds a backend to `odb` ahead of every other one, which holds the
  // objects written while buffering is on and serves reads of them. The odb
  // owns it (and frees it with itself); buffering starts off.
  static ObjectBuffer& attach(git_odb* odb);

  // While on, every object written to the odb is kept in memory (readable,
  // and found by git_odb_exists, so it is not written twice); while off,
  // writes go to the odb's other backends as before.
  void start();
  // Drops what is held and stops buffering (an aborted apply: no ref points
  // at those objects).
  void discard();
  // Writes every held object, whole (no deltas: linear time), into one pack
  // and its index through the odb's pack writer (the directory `pack_dir`
  // is named in errors), empties the buffer and lets the odb see the pack;
  // buffering stays as it was. Throws Error(k_infrastructure) naming the
  // directory when the pack cannot be written.
  void flush(const std::filesystem::path& pack_dir);

  bool buffering() const { return m_buffering; }
  std::size_t objects() const { return m_order.size(); }
  std::size_t bytes() const { return m_bytes; }

 private:
  struct Object {
    git_object_t type;
    std::string data;
  };
  struct Backend;
  ObjectBuffer() = default;
  static int read(void** data, size_t* len, git_object_t* type, git_odb_backend* self,
                  const git_oid* oid);
  static int read_header(size_t* len, git_object_t* type, git_odb_backend* self,
                         const git_oid* oid);
  static int exists(git_odb_backend* self, const git_oid* oid);
  static int write(git_odb_backend* self, const git_oid* oid, const void* data, size_t len,
                   git_object_t type);
  static void free(git_odb_backend* self);
  static ObjectBuffer& of(git_odb_backend* self);
  const Object* find(const git_oid* oid) const;

  Backend* m_backend = nullptr;  // owned by the odb; it owns this
  git_odb* m_odb = nullptr;
  bool m_buffering = false;
  std::unordered_map<std::string, Object> m_objects;  // by raw id
  std::vector<git_oid> m_order;                       // as written
  std::size_t m_bytes = 0;
};

}  // namespace kseries::git
