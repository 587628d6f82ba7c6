#include "git/object_buffer.h"

#include <cstring>
#include <memory>

#include <git2/sys/odb_backend.h>

#include "core/error.h"

namespace kseries::git {

namespace {

// Above every backend open_store_odb adds (loose 1, packs 2).
constexpr int k_buffer_priority = 1000;

std::string key(const git_oid* oid) {
  return std::string(reinterpret_cast<const char*>(oid->id), GIT_OID_RAWSZ);
}

}  // namespace

// What libgit2 holds: the backend (first, so a git_odb_backend* is one of
// these) and the buffer behind it.
struct ObjectBuffer::Backend {
  git_odb_backend parent;
  std::unique_ptr<ObjectBuffer> buffer;
};

ObjectBuffer& ObjectBuffer::attach(git_odb* odb) {
  auto* backend = new Backend{};
  backend->buffer.reset(new ObjectBuffer());
  ObjectBuffer& buffer = *backend->buffer;
  buffer.m_backend = backend;
  buffer.m_odb = odb;
  git_odb_backend& b = backend->parent;
  git_odb_init_backend(&b, GIT_ODB_BACKEND_VERSION);
  b.read = &ObjectBuffer::read;
  b.read_header = &ObjectBuffer::read_header;
  b.exists = &ObjectBuffer::exists;
  b.free = &ObjectBuffer::free;
  // No write until start(): libgit2 skips a backend without one for writes.
  b.write = nullptr;
  if (git_odb_add_backend(odb, &b, k_buffer_priority) < 0) {
    const std::string message = last_error_message();
    delete backend;
    throw infra_error("cannot add the in-memory object buffer: " + message);
  }
  return buffer;
}

ObjectBuffer& ObjectBuffer::of(git_odb_backend* self) {
  return *reinterpret_cast<Backend*>(self)->buffer;
}

const ObjectBuffer::Object* ObjectBuffer::find(const git_oid* oid) const {
  const auto it = m_objects.find(key(oid));
  return it == m_objects.end() ? nullptr : &it->second;
}

int ObjectBuffer::read(void** data, size_t* len, git_object_t* type, git_odb_backend* self,
                       const git_oid* oid) {
  const Object* object = of(self).find(oid);
  if (object == nullptr) {
    return GIT_ENOTFOUND;
  }
  void* copy = git_odb_backend_data_alloc(self, object->data.size());
  if (copy == nullptr && !object->data.empty()) {
    return GIT_ERROR;
  }
  if (!object->data.empty()) {
    std::memcpy(copy, object->data.data(), object->data.size());
  }
  *data = copy;
  *len = object->data.size();
  *type = object->type;
  return 0;
}

int ObjectBuffer::read_header(size_t* len, git_object_t* type, git_odb_backend* self,
                              const git_oid* oid) {
  const Object* object = of(self).find(oid);
  if (object == nullptr) {
    return GIT_ENOTFOUND;
  }
  *len = object->data.size();
  *type = object->type;
  return 0;
}

int ObjectBuffer::exists(git_odb_backend* self, const git_oid* oid) {
  return of(self).find(oid) != nullptr ? 1 : 0;
}

int ObjectBuffer::write(git_odb_backend* self, const git_oid* oid, const void* data, size_t len,
                        git_object_t type) {
  ObjectBuffer& buffer = of(self);
  auto [it, inserted] = buffer.m_objects.try_emplace(key(oid));
  if (inserted) {
    it->second.type = type;
    it->second.data.assign(static_cast<const char*>(data), len);
    buffer.m_order.push_back(*oid);
    buffer.m_bytes += len;
  }
  return 0;
}

void ObjectBuffer::free(git_odb_backend* self) { delete reinterpret_cast<Backend*>(self); }

void ObjectBuffer::start() {
  m_buffering = true;
  m_backend->parent.write = &ObjectBuffer::write;
}

void ObjectBuffer::discard() {
  m_buffering = false;
  m_backend->parent.write = nullptr;
  m_objects.clear();
  m_order.clear();
  m_bytes = 0;
}

void ObjectBuffer::flush(git_repository* repo, const std::filesystem::path& pack_dir) {
  if (m_order.empty()) {
    return;
  }
  git_packbuilder* raw = nullptr;
  check(git_packbuilder_new(&raw, repo), "cannot start a pack in " + pack_dir.string());
  std::unique_ptr<git_packbuilder, Deleter<git_packbuilder, git_packbuilder_free>> builder(raw);
  git_packbuilder_set_threads(builder.get(), 1);
  for (const auto& oid : m_order) {
    // Just this object (not the trees and blobs a commit reaches: those are
    // in the buffer themselves, or already stored, or the user's).
    check(git_packbuilder_insert(builder.get(), &oid, nullptr),
          "cannot pack object " + to_hex(oid));
  }
  std::filesystem::create_directories(pack_dir);
  if (git_packbuilder_write(builder.get(), pack_dir.c_str(), 0, nullptr, nullptr) < 0) {
    throw infra_error("cannot write a pack of " + std::to_string(m_order.size()) +
                      " objects in " + pack_dir.string() + ": " + last_error_message());
  }
  m_objects.clear();
  m_order.clear();
  m_bytes = 0;
  // The pack backend lists objects/pack again only when asked (or on a miss).
  check(git_odb_refresh(m_odb), "cannot read the packs in " + pack_dir.string());
}

}  // namespace kseries::git
