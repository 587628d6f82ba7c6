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

// A retitled v7 whose cover letter links v6 (nvdimm@lists.linux.dev: the
// one miss of 13 real multi-revision series) stays in v6's family; a
// change-id of its own still comes first.
TEST(RevisionIdentityTest, ARetitledRevisionThatLinksItsPredecessorStaysInItsFamily) {
  TempDir dir;
  auto mbox = [&dir](const std::string& name, int revision, const std::string& title,
                     const std::string& headers, const std::string& text) {
    PatchText cover;
    cover.subject = "[PATCH v" + std::to_string(revision) + " 0/1] " + title;
    cover.diff.clear();
    cover.body = text;
    std::string rendered = cover.render();
    rendered.insert(rendered.find("Subject:"), headers);
    PatchText patch;
    patch.subject = "[PATCH v" + std::to_string(revision) + " 1/1] demo: step 1";
    put_file(dir / name, rendered + patch.render());
    return load_series(dir / name);
  };
  const Series v6 =
      mbox("v6.mbox", 6, "mm: the first title", "Message-ID: <v6@x.org>\n", "Text.\n");
  const Series v7 = mbox("v7.mbox", 7, "mm: a new title", "Message-ID: <v7@x.org>\n",
                         "Changes since v6 (https://lore.kernel.org/all/v6@x.org/):\n");
  const Series v8 = mbox("v8.mbox", 8, "mm: newer still",
                         "Message-ID: <v8@x.org>\nIn-Reply-To: <v7@x.org>\n", "Text.\n");
  const Series other = mbox("o.mbox", 2, "mm: unrelated", "Message-ID: <o@x.org>\n", "Text.\n");
  EXPECT_NE(revision_identity(v7).family(), revision_identity(v6).family());
  const auto identities = revision_identities({&v8, &other, &v7, &v6});
  EXPECT_EQ(identities[0].family(), "title: mm: the first title");
  EXPECT_EQ(identities[0].linked_to, "v7@x.org");
  EXPECT_EQ(identities[2].family(), "title: mm: the first title");
  EXPECT_EQ(identities[2].label(), "title 'mm: the first title' v7");
  EXPECT_EQ(identities[3].family(), "title: mm: the first title");
  EXPECT_EQ(identities[1].family(), "title: mm: unrelated");
  // Its own change-id first.
  RevisionLinks links;
  links.add(identities[3]);
  RevisionIdentity own = revision_identity(v7);
  own.source = IdentitySource::k_change_id;
  own.key = "20260101-own-0123456789ab";
  EXPECT_EQ(links.resolve(own).family(), "change-id: 20260101-own-0123456789ab");
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
