#include "series/series.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "testing/patch_text.h"
#include "testing/temp_dir.h"

namespace kseries {
namespace {

using testing::PatchText;
using testing::put_file;
using testing::TempDir;

std::string patch(int index, int total, int revision = 2) {
  PatchText text;
  text.subject = "[PATCH v" + std::to_string(revision) + " " + std::to_string(index) + "/" +
                 std::to_string(total) + "] demo: step " + std::to_string(index);
  text.base_commit = "a37409fe4ed9764415b222248aba3dd2ec461db1";
  return text.render();
}

std::string cover(int total, int revision = 2) {
  PatchText text;
  text.subject = "[PATCH v" + std::to_string(revision) + " 0/" + std::to_string(total) +
                 "] demo: the series title";
  text.diff.clear();
  text.body = "Cover letter text.\n\nbase-commit: a37409fe4ed9764415b222248aba3dd2ec461db1\n";
  return text.render();
}

// Writes numbered files and a series file listing them in the given order.
void make_series_dir(const std::filesystem::path& dir, const std::vector<std::string>& files,
                     const std::vector<std::string>& contents) {
  std::string listing = "# apply order\n";
  for (size_t i = 0; i < files.size(); ++i) {
    put_file(dir / files[i], contents[i]);
    listing += files[i] + "\n";
  }
  put_file(dir / "series", listing);
}

std::string error_of(const std::filesystem::path& source) {
  try {
    load_series(source);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::k_usage);
    return e.what();
  }
  ADD_FAILURE() << "expected load_series to fail";
  return "";
}

TEST(SeriesTest, LoadsADirectoryWithCoverLetter) {
  TempDir tmp;
  const auto dir = tmp / "demo" / "v2";
  make_series_dir(dir, {"0000-cover.patch", "0001-a.patch", "0002-b.patch"},
                  {cover(2), patch(1, 2), patch(2, 2)});
  const Series series = load_series(dir);
  EXPECT_EQ(series.name, "demo/v2");
  EXPECT_EQ(series.revision, 2);
  EXPECT_EQ(series.title, "demo: the series title");
  ASSERT_TRUE(series.cover);
  ASSERT_EQ(series.patches.size(), 2u);
  EXPECT_EQ(series.patches[1].subject.title, "demo: step 2");
  EXPECT_EQ(series.base_commit.value(), "a37409fe4ed9764415b222248aba3dd2ec461db1");
}

TEST(SeriesTest, LoadsAnMboxInAnyOrder) {
  TempDir tmp;
  put_file(tmp / "s.mbox", patch(2, 2) + patch(1, 2) + cover(2));
  const Series series = load_series(tmp / "s.mbox");
  EXPECT_EQ(series.name, "s");
  ASSERT_EQ(series.patches.size(), 2u);
  EXPECT_EQ(series.patches[0].subject.index, 1);
  EXPECT_EQ(series.patches[1].subject.index, 2);
}

TEST(SeriesTest, SkipsReplies) {
  TempDir tmp;
  PatchText reply;
  reply.subject = "Re: [PATCH v2 1/2] demo: step 1";
  reply.diff.clear();
  put_file(tmp / "s.mbox", patch(1, 2) + reply.render() + patch(2, 2));
  const Series series = load_series(tmp / "s.mbox");
  EXPECT_EQ(series.patches.size(), 2u);
  ASSERT_EQ(series.notes.size(), 1u);
}

TEST(SeriesTest, RejectsAGapNamingTheFile) {
  TempDir tmp;
  put_file(tmp / "s.mbox", patch(1, 3) + patch(3, 3));
  const std::string error = error_of(tmp / "s.mbox");
  EXPECT_NE(error.find("patch 2/3 is missing"), std::string::npos) << error;
  EXPECT_NE(error.find("s.mbox"), std::string::npos) << error;
}

TEST(SeriesTest, RejectsADuplicateNamingBothPlaces) {
  TempDir tmp;
  put_file(tmp / "s.mbox", patch(1, 2) + patch(1, 2) + patch(2, 2));
  const std::string error = error_of(tmp / "s.mbox");
  EXPECT_NE(error.find("duplicate patch 1/2"), std::string::npos) << error;
  EXPECT_NE(error.find("s.mbox:1"), std::string::npos) << error;
  // Real mail (nvdimm: "[PATCH 01/15] block: factor out a bio_integrity_action
  // helper", posted three times unversioned, one lore thread): say why.
  EXPECT_NE(error.find("the mbox holds the series more than once without a [PATCH vN]"),
            std::string::npos)
      << error;
}

TEST(SeriesTest, RejectsMixedRevisionsInADirectory) {
  TempDir tmp;
  make_series_dir(tmp / "d", {"1.patch", "2.patch"}, {patch(1, 2, 2), patch(2, 2, 3)});
  const std::string error = error_of(tmp / "d");
  EXPECT_NE(error.find("mixed revisions"), std::string::npos) << error;
  EXPECT_NE(error.find("v3"), std::string::npos) << error;
}

std::string with_headers(const std::string& mail, const std::string& headers) {
  const auto at = mail.find("Subject:");
  return mail.substr(0, at) + headers + mail.substr(at);
}

// A lore thread mbox: v3 posted in reply to v2, replies that a patch parser
// would refuse (a pasted hunk, a multipart signed mail, a bot's report).
// The replies are known from their headers and skipped unread; the newest
// revision is the series, as b4 am takes it.
TEST(SeriesTest, AThreadMboxIsReadAsB4ReadsIt) {
  TempDir tmp;
  PatchText review;
  review.subject = "Re: [PATCH v3 1/2] demo: step 1";
  review.body = "> +c\n\nWhat about this?\n";
  review.diff = "@@ -1,5 +1,5 @@\n-quoted hunk\n";
  PatchText signed_reply;
  signed_reply.subject = "RE: [PATCH v3 0/2] demo: the series title";
  signed_reply.diff.clear();
  const std::string multipart =
      with_headers(signed_reply.render(), "Content-Type: multipart/signed; boundary=\"b\"\n");
  PatchText bot;
  bot.subject = "Re: [PATCH v3 2/2] demo: step 2";
  bot.date = "not a date";
  put_file(tmp / "t.mbox", cover(2, 2) + patch(1, 2, 2) + patch(2, 2, 2) + cover(2, 3) +
                               review.render() + patch(1, 2, 3) + multipart + patch(2, 2, 3) +
                               bot.render());
  const Series series = load_series(tmp / "t.mbox");
  EXPECT_EQ(series.revision, 3);
  ASSERT_EQ(series.patches.size(), 2u);
  EXPECT_EQ(series.patches[1].subject.revision, 3);
  ASSERT_EQ(series.notes.size(), 2u);
  EXPECT_EQ(series.notes[0],
            "the mbox holds several revisions: took v3, the newest, and left 3 message(s) of v2");
  EXPECT_EQ(series.notes[1], "skipped 3 reply message(s) (Re:)");
}

// A "v7" cover letter over "[PATCH n/7]" patches: one revision, v7.
TEST(SeriesTest, UnversionedPatchesTakeTheirCoversRevision) {
  TempDir tmp;
  PatchText first;
  first.subject = "[PATCH 1/2] demo: step 1";
  PatchText second;
  second.subject = "[PATCH 2/2] demo: step 2";
  make_series_dir(tmp / "d", {"0.patch", "1.patch", "2.patch"},
                  {cover(2, 7), first.render(), second.render()});
  const Series series = load_series(tmp / "d");
  EXPECT_EQ(series.revision, 7);
  EXPECT_EQ(series.patches.size(), 2u);
}

// "[PATCH v2]" posted in reply to "[PATCH]" (lore's thread of both): the
// unversioned patch is v1, left as the older revision, as b4 am leaves it.
TEST(SeriesTest, AnUnversionedPatchAnsweredByItsV2IsV1) {
  TempDir tmp;
  PatchText first;
  first.subject = "[PATCH] demo: one change";
  PatchText second;
  second.subject = "[PATCH v2] demo: one change";
  second.body = "The second take.\n";
  put_file(tmp / "t.mbox",
           with_headers(first.render(), "Message-ID: <v1@example.org>\n") +
               with_headers(second.render(),
                            "Message-ID: <v2@example.org>\nIn-Reply-To: <v1@example.org>\n"));
  const Series series = load_series(tmp / "t.mbox");
  EXPECT_EQ(series.revision, 2);
  ASSERT_EQ(series.patches.size(), 1u);
  EXPECT_NE(series.patches[0].body.find("second take"), std::string::npos);
}

// b4 saves a cover letter that has no 0/n ("[PATCH v3] ...") before the
// patches: it is the cover, not a patch without a diff.
TEST(SeriesTest, AnUnnumberedFirstMessageWithoutDiffIsTheCover) {
  TempDir tmp;
  PatchText head;
  head.subject = "[PATCH v2] demo: the series title";
  head.diff.clear();
  PatchText one;
  one.subject = "[PATCH v2] demo: one change";
  make_series_dir(tmp / "d", {"0000-cover-letter.patch", "0001-series.mbx"},
                  {head.render(), one.render()});
  const Series series = load_series(tmp / "d");
  ASSERT_TRUE(series.cover);
  EXPECT_EQ(series.title, "demo: the series title");
  ASSERT_EQ(series.patches.size(), 1u);
}

// The message-ids a revision names: its own, the one it replies to, the
// lore links of its cover letter.
TEST(SeriesTest, RecordsWhichMessagesTheCoverLetterNames) {
  TempDir tmp;
  PatchText head;
  head.subject = "[PATCH v7 0/1] demo: a new title";
  head.diff.clear();
  head.body = "v6: https://lore.kernel.org/all/v6-cover@example.org/\n";
  put_file(tmp / "s.mbox",
           with_headers(head.render(),
                        "Message-ID: <v7-cover@example.org>\nIn-Reply-To: <v6-7@example.org>\n") +
               patch(1, 1, 7));
  const Series series = load_series(tmp / "s.mbox");
  EXPECT_EQ(series.message_id, "v7-cover@example.org");
  EXPECT_EQ(series.links, (std::vector<std::string>{"v6-7@example.org", "v6-cover@example.org"}));
}

TEST(SeriesTest, RejectsAMessageWithoutDiff) {
  TempDir tmp;
  PatchText empty;
  empty.subject = "[PATCH v2 2/2] demo: forgot the diff";
  empty.diff.clear();
  put_file(tmp / "s.mbox", patch(1, 2) + empty.render());
  const std::string error = error_of(tmp / "s.mbox");
  EXPECT_NE(error.find("has no diff"), std::string::npos) << error;
  EXPECT_NE(error.find("forgot the diff"), std::string::npos) << error;
}

TEST(SeriesTest, RejectsAnEmptySeries) {
  TempDir tmp;
  put_file(tmp / "s.mbox", cover(2));
  const std::string error = error_of(tmp / "s.mbox");
  EXPECT_NE(error.find("no patches (only a cover letter)"), std::string::npos) << error;
}

TEST(SeriesTest, RejectsASeriesFileNamingAMissingPatch) {
  TempDir tmp;
  put_file(tmp / "d" / "series", "0001-a.patch\n");
  const std::string error = error_of(tmp / "d");
  EXPECT_NE(error.find("series:1: lists '0001-a.patch'"), std::string::npos) << error;
}

TEST(SeriesTest, RejectsASeriesFileOrderThatContradictsNumbering) {
  TempDir tmp;
  make_series_dir(tmp / "d", {"b.patch", "a.patch"}, {patch(2, 2), patch(1, 2)});
  const std::string error = error_of(tmp / "d");
  EXPECT_NE(error.find("lists b.patch in position 1 but its subject says 2/2"), std::string::npos)
      << error;
}

TEST(SeriesTest, RejectsAnUnsafePathNamingThePatch) {
  TempDir tmp;
  PatchText evil;
  evil.subject = "[PATCH] demo: escape";
  evil.diff =
      "diff --git a/../etc/passwd b/../etc/passwd\n"
      "--- a/../etc/passwd\n+++ b/../etc/passwd\n@@ -1 +1 @@\n-x\n+y\n";
  put_file(tmp / "evil.mbox", evil.render());
  const std::string error = error_of(tmp / "evil.mbox");
  EXPECT_NE(error.find("'demo: escape'"), std::string::npos) << error;
  EXPECT_NE(error.find("'..' component: '../etc/passwd'"), std::string::npos) << error;
}

TEST(SeriesTest, ReadsDependsRelativeToTheDirectory) {
  TempDir tmp;
  make_series_dir(tmp / "first" / "v2", {"1.patch"}, {patch(1, 1)});
  make_series_dir(tmp / "second" / "v2", {"1.patch"}, {patch(1, 1)});
  put_file(tmp / "second" / "v2" / "depends", "../../first/v2\n");
  const Series series = load_series(tmp / "second" / "v2");
  ASSERT_EQ(series.depends.size(), 1u);
  EXPECT_EQ(series.depends[0], std::filesystem::weakly_canonical(tmp / "first" / "v2"));
}

TEST(SeriesTest, RejectsAMissingPrerequisite) {
  TempDir tmp;
  make_series_dir(tmp / "second", {"1.patch"}, {patch(1, 1)});
  put_file(tmp / "second" / "depends", "# needs\n../nowhere\n");
  const std::string error = error_of(tmp / "second");
  EXPECT_NE(error.find("depends:2: prerequisite series '../nowhere' does not exist"),
            std::string::npos)
      << error;
}

// The seeds (extracts of ../shared/seeds in testdata/seeds) are renderings of mailing-list threads;
// 003 is a raw e-mail whose line breaks were lost. Neither is an mbox: both must be refused with
// the file named, never half-parsed.
TEST(SeriesTest, SeedRenderingsAreRefusedClearly) {
  const auto seeds = testing::source_dir() / "framework" / "series" / "testdata" / "seeds";
  ASSERT_TRUE(std::filesystem::exists(seeds)) << seeds;
  const std::string flat = error_of(seeds / "003_ff1e622f9cbe91f3.txt");
  EXPECT_NE(flat.find("003_ff1e622f9cbe91f3.txt:1: the file has no line breaks"), std::string::npos)
      << flat;
  const std::string rendering = error_of(seeds / "000_294f6fd9f089dbf4.txt");
  EXPECT_NE(rendering.find("000_294f6fd9f089dbf4.txt:1:"), std::string::npos) << rendering;
}

}  // namespace
}  // namespace kseries
