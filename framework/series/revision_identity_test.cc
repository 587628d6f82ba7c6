#include "series/revision_identity.h"

#include <gtest/gtest.h>

#include "testing/patch_text.h"
#include "testing/temp_dir.h"

namespace kseries {
namespace {

using testing::PatchText;
using testing::put_file;
using testing::TempDir;

// A v2 series with a cover letter whose body ends in the trailers b4 writes.
std::filesystem::path write_series(const TempDir& dir, const std::string& leaf,
                                   const std::string& cover_trailers) {
  PatchText cover;
  cover.subject = "[PATCH v2 0/1] demo: the series title";
  cover.diff.clear();
  cover.body = "Cover letter text.\n\n---\n" + cover_trailers;
  PatchText patch;
  patch.subject = "[PATCH v2 1/1] demo: step 1";
  const auto series = dir / leaf;
  put_file(series / "0000.patch", cover.render());
  put_file(series / "0001.patch", patch.render());
  put_file(series / "series", "0000.patch\n0001.patch\n");
  return series;
}

TEST(RevisionIdentityTest, ChangeIdFirst) {
  TempDir dir;
  const auto series =
      load_series(write_series(dir, "demo/v2",
                               "base-commit: a37409fe4ed9764415b222248aba3dd2ec461db1\nchange-id: "
                               "20261202-demo-0123456789ab\n"));
  EXPECT_EQ(series.change_id.value_or(""), "20261202-demo-0123456789ab");
  const auto identity = revision_identity(series);
  EXPECT_EQ(identity.source, IdentitySource::k_change_id);
  EXPECT_EQ(identity.family(), "change-id: 20261202-demo-0123456789ab");
  EXPECT_EQ(identity.label(), "change-id 20261202-demo-0123456789ab v2");
}

TEST(RevisionIdentityTest, ThenTheDirectoryThenTheTitle) {
  TempDir dir;
  auto identity = revision_identity(load_series(write_series(dir, "demo/v2", "")));
  EXPECT_EQ(identity.source, IdentitySource::k_directory);
  EXPECT_EQ(identity.family(), "demo");
  EXPECT_EQ(identity.label(), "demo v2");
  // A forged change-id (spaces, a newline's worth of text) is not trusted.
  identity = revision_identity(load_series(write_series(dir, "other", "change-id: a b c\n")));
  EXPECT_EQ(identity.source, IdentitySource::k_directory);
  EXPECT_EQ(identity.family(), "other");
}

TEST(RevisionIdentityTest, ValidChangeIds) {
  EXPECT_TRUE(valid_change_id("20221103-foo-bar-abc123def456"));
  EXPECT_FALSE(valid_change_id(""));
  EXPECT_FALSE(valid_change_id("-x"));
  EXPECT_FALSE(valid_change_id("a/b"));
  EXPECT_FALSE(valid_change_id(std::string(129, 'a')));
}

}  // namespace
}  // namespace kseries
