#include "git/object_buffer.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "git/store.h"
#include "testing/temp_dir.h"

namespace kseries::git {
namespace {

namespace fs = std::filesystem;
using testing::git;

class ObjectBufferTest : public ::testing::Test {
 protected:
  // Files under objects/ other than packs and info: loose objects.
  std::size_t loose_objects() const {
    std::size_t count = 0;
    for (const auto& entry : fs::recursive_directory_iterator(m_tmp / "store.git" / "objects")) {
      const std::string dir = entry.path().parent_path().filename().string();
      count += entry.is_regular_file() && dir.size() == 2 ? 1 : 0;
    }
    return count;
  }
  std::size_t packs() const {
    std::size_t count = 0;
    for (const auto& entry : fs::directory_iterator(m_tmp / "store.git" / "objects" / "pack")) {
      count += entry.path().extension() == ".pack" ? 1 : 0;
    }
    return count;
  }
  static git_oid blob(Store& store, const std::string& content) {
    git_oid oid;
    check(git_blob_create_from_buffer(&oid, store.repo(), content.data(), content.size()), "blob");
    return oid;
  }
  // What git itself (another process, its own view of the directory) reads.
  std::string cat_file(const git_oid& oid) const {
    return git(m_tmp.path(),
               {"--git-dir", (m_tmp / "store.git").string(), "cat-file", "-p", to_hex(oid)});
  }

  Session m_session;
  testing::TempDir m_tmp;
};

TEST_F(ObjectBufferTest, BufferedObjectsAreReadableAndLandAsOnePack) {
  Store store(m_tmp / "store.git");
  std::vector<git_oid> ids;
  {
    Store::BufferedWrites writes(store);
    for (int i = 0; i < 50; ++i) {
      ids.push_back(blob(store, "blob " + std::to_string(i) + "\n"));
    }
    EXPECT_EQ(loose_objects(), 0u);
    git_blob* raw = nullptr;
    ASSERT_EQ(git_blob_lookup(&raw, store.repo(), &ids[7]), 0) << last_error_message();
    BlobPtr read(raw);
    EXPECT_EQ(std::string(static_cast<const char*>(git_blob_rawcontent(raw)),
                          static_cast<size_t>(git_blob_rawsize(raw))),
              "blob 7\n");
    // Written twice: held once.
    blob(store, "blob 7\n");
    writes.finish();
  }
  EXPECT_EQ(loose_objects(), 0u);
  EXPECT_EQ(packs(), 1u);
  EXPECT_EQ(cat_file(ids[0]), "blob 0");
  EXPECT_EQ(cat_file(ids[49]), "blob 49");
  EXPECT_TRUE(store.has_object(ids[49]));
  // Buffering is over: a later write is a loose object again.
  blob(store, "after\n");
  EXPECT_EQ(loose_objects(), 1u);
}

TEST_F(ObjectBufferTest, WhatNoFinishWroteIsDropped) {
  Store store(m_tmp / "store.git");
  git_oid id;
  {
    Store::BufferedWrites writes(store);
    id = blob(store, "never stored\n");
    EXPECT_TRUE(store.has_object(id));
  }  // an exception on the way: no finish()
  EXPECT_FALSE(store.has_object(id));
  EXPECT_EQ(loose_objects(), 0u);
  EXPECT_EQ(packs(), 0u);
}

TEST_F(ObjectBufferTest, OnlyTheOutermostWrites) {
  Store store(m_tmp / "store.git");
  git_oid id;
  {
    Store::BufferedWrites outer(store);
    {
      Store::BufferedWrites inner(store);
      id = blob(store, "nested\n");
      inner.finish();
      EXPECT_EQ(packs(), 0u);
    }
    EXPECT_TRUE(store.has_object(id));
    outer.finish();
  }
  EXPECT_EQ(packs(), 1u);
  EXPECT_EQ(cat_file(id), "nested");
}

}  // namespace
}  // namespace kseries::git
