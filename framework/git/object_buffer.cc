#include "git/object_buffer.h"

#include <cstdint>
#include <cstring>
#include <memory>

#include <git2/indexer.h>
#include <git2/sys/odb_backend.h>
#include <openssl/evp.h>
#include <zlib.h>

#include "core/error.h"

namespace kseries::git {

namespace {

// Above every backend open_store_odb adds (loose 1, packs 2).
constexpr int k_buffer_priority = 1000;

std::string key(const git_oid* oid) {
  return std::string(reinterpret_cast<const char*>(oid->id), GIT_OID_RAWSZ);
}

// Git's pack format, version 2, every object whole (no deltas): "PACK",
// version, count; per object a type-and-size header and its zlib stream;
// the SHA-1 of all that at the end. Handed to libgit2's indexer in pieces.
class PackStream {
 public:
  PackStream(git_indexer& indexer, const std::filesystem::path& dir)
      : m_indexer(indexer), m_dir(dir), m_sha(EVP_MD_CTX_new(), EVP_MD_CTX_free) {
    if (m_sha == nullptr || EVP_DigestInit_ex(m_sha.get(), EVP_sha1(), nullptr) != 1) {
      throw infra_error("cannot hash a pack for " + m_dir.string());
    }
  }

  void header(std::size_t count) {
    std::string head = "PACK";
    put_u32(head, 2);
    put_u32(head, static_cast<std::uint32_t>(count));
    append(head);
  }

  void object(git_object_t type, const std::string& data) {
    std::string head;
    std::size_t size = data.size();
    unsigned char byte =
        static_cast<unsigned char>((static_cast<unsigned>(type) << 4) | (size & 15));
    size >>= 4;
    while (size != 0) {
      head.push_back(static_cast<char>(byte | 0x80));
      byte = static_cast<unsigned char>(size & 0x7f);
      size >>= 7;
    }
    head.push_back(static_cast<char>(byte));
    uLongf bound = compressBound(static_cast<uLong>(data.size()));
    m_deflated.resize(bound);
    if (compress2(reinterpret_cast<Bytef*>(m_deflated.data()), &bound,
                  reinterpret_cast<const Bytef*>(data.data()), static_cast<uLong>(data.size()),
                  Z_BEST_SPEED) != Z_OK) {
      throw infra_error("cannot compress an object for a pack in " + m_dir.string());
    }
    m_deflated.resize(bound);
    append(head);
    append(m_deflated);
  }

  void finish() {
    flush_pending();
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(m_sha.get(), digest, &length) != 1) {
      throw infra_error("cannot hash a pack for " + m_dir.string());
    }
    write(reinterpret_cast<const char*>(digest), length);
    git_indexer_progress progress{};
    if (git_indexer_commit(&m_indexer, &progress) < 0) {
      throw infra_error("cannot write a pack in " + m_dir.string() + ": " + last_error_message());
    }
  }

 private:
  static void put_u32(std::string& out, std::uint32_t value) {
    for (int shift = 24; shift >= 0; shift -= 8) {
      out.push_back(static_cast<char>((value >> shift) & 0xff));
    }
  }
  // Hashed, and handed to the indexer in pieces of about 1 MiB.
  void append(const std::string& bytes) {
    EVP_DigestUpdate(m_sha.get(), bytes.data(), bytes.size());
    m_pending += bytes;
    if (m_pending.size() >= (1u << 20)) {
      flush_pending();
    }
  }
  void flush_pending() {
    write(m_pending.data(), m_pending.size());
    m_pending.clear();
  }
  void write(const char* data, std::size_t size) {
    if (size == 0) {
      return;
    }
    git_indexer_progress progress{};
    if (git_indexer_append(&m_indexer, data, size, &progress) < 0) {
      throw infra_error("cannot write a pack in " + m_dir.string() + ": " + last_error_message());
    }
  }

  git_indexer& m_indexer;
  std::filesystem::path m_dir;
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> m_sha;
  std::string m_pending;
  std::string m_deflated;
};

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

void ObjectBuffer::flush(const std::filesystem::path& pack_dir) {
  if (m_order.empty()) {
    return;
  }
  // A pack without deltas, streamed to libgit2's indexer in `pack_dir`
  // itself (it hashes every object, writes pack and index, renames them into
  // place). Not git_odb_write_pack: with objects/pack missing at open, the
  // pack backend has no folder and its indexer writes into the current
  // directory. Not git_packbuilder: it searches a window of deltas per
  // object, most of the time of a long series, and more than linear.
  // libgit2 1.5's git_indexer_new leaks its half-made indexer when it cannot
  // create the pack's temporary file: a pack_dir that is not a directory is
  // refused here first (LeakSanitizer saw it in tests/apply_store_failure.sh).
  std::error_code error;
  if (!std::filesystem::is_directory(pack_dir, error)) {
    throw infra_error("cannot start a pack in " + pack_dir.string() + ": not a directory");
  }
  git_indexer_options options = GIT_INDEXER_OPTIONS_INIT;
  git_indexer* raw = nullptr;
  if (git_indexer_new(&raw, pack_dir.c_str(), 0, m_odb, &options) < 0) {
    throw infra_error("cannot start a pack in " + pack_dir.string() + ": " + last_error_message());
  }
  std::unique_ptr<git_indexer, Deleter<git_indexer, git_indexer_free>> indexer(raw);
  PackStream stream(*indexer, pack_dir);
  stream.header(m_order.size());
  for (const auto& oid : m_order) {
    const Object& object = *find(&oid);
    stream.object(object.type, object.data);
  }
  stream.finish();
  m_objects.clear();
  m_order.clear();
  m_bytes = 0;
  // The pack backend lists objects/pack again only when asked (or on a miss).
  check(git_odb_refresh(m_odb), "cannot read the packs in " + pack_dir.string());
}

}  // namespace kseries::git
