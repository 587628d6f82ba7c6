#include "gate/checkpatch.h"

#include <gtest/gtest.h>

#include "series/series.h"
#include "testing/temp_dir.h"

namespace kseries::gate {
namespace {

namespace fs = std::filesystem;
using testing::put_file;

TEST(CheckpatchTypesTest, CountsEachTypeOfEachSeverity) {
  const auto r = parse_checkpatch(
      "p:125: ERROR:TRAILING_STATEMENTS: trailing statements should be on next line\n"
      "p:126: ERROR:TRAILING_STATEMENTS: trailing statements should be on next line\n"
      "p:12: WARNING:COMMIT_LOG_LONG_LINE: Prefer a maximum 75 chars per line\n"
      "p:40: ERROR:GIT_COMMIT_ID: Please use git commit description style\n"
      "p:41: ERROR: no type at all\n");
  EXPECT_EQ(r.errors, 4);
  EXPECT_EQ(r.warnings, 1);
  using Key = std::pair<std::string, std::string>;
  EXPECT_EQ(r.types, (std::map<Key, int>{{{"ERROR", "TRAILING_STATEMENTS"}, 2},
                                         {{"ERROR", "GIT_COMMIT_ID"}, 1},
                                         {{"ERROR", "?"}, 1},
                                         {{"WARNING", "COMMIT_LOG_LONG_LINE"}, 1}}));
}

TEST(DiffInPostingTest, EveryChangedLineMustBeInThePostingWhitespaceFolded) {
  const std::string diff =
      "diff --git a/x.h b/x.h\n--- a/x.h\n+++ b/x.h\n@@ -1,3 +1,3 @@\n ctx\n"
      "-\told(a);\n+\tswitch (cnt) {\n+\tcase 4:  movnti_4(dst, src); break;\n";
  // A posting whose line breaks were lost (seed 003), other context.
  const std::string flat =
      "Subject: x --- a/x.h +++ b/x.h @@ -9,3 +9,3 @@ other - old(a); + switch (cnt) { + case 4: "
      "movnti_4(dst, src); break; -- 2.20.1";
  EXPECT_TRUE(diff_lines_in_posting(diff, flat));
  EXPECT_FALSE(diff_lines_in_posting(diff + "+\tcase 80: movnti_64(dst, src); break;\n", flat));
  EXPECT_FALSE(diff_lines_in_posting("diff --git a/x b/x\n ctx only\n", flat));  // nothing changed
}

// The bundled v10 names its 8/8 as seed 003 as posted, and it is: every
// line it adds or removes is in the seed. copy80-short's 8/8 is v10's with
// one case changed: not as posted, so not counted as upstream's.
TEST(UpstreamPatchesTest, BundledV10EightIsSeed003AsPosted) {
  const auto patches = testing::source_dir() / "patches";
  const Series v10 = load_series(patches / "zone-device-memmap" / "v10");
  const auto upstream = upstream_patches(v10);
  EXPECT_EQ(upstream.as_posted, std::set<int>{8});
  EXPECT_TRUE(upstream.notes.empty()) << upstream.notes.front();

  testing::TempDir tmp;
  const Series bad = load_series(patches / "known-bad" / "copy80-short");
  fs::copy(patches / "known-bad" / "copy80-short", tmp / "copy80-short");
  put_file(tmp / "copy80-short" / "upstream",
           "8 " +
               (testing::source_dir() / "framework/series/testdata/seeds/003_ff1e622f9cbe91f3.txt")
                   .string() +
               "\n");
  Series copy = bad;
  copy.source = tmp / "copy80-short";
  const auto not_posted = upstream_patches(copy);
  EXPECT_TRUE(not_posted.as_posted.empty());
  ASSERT_EQ(not_posted.notes.size(), 1u);
  EXPECT_NE(not_posted.notes[0].find("patch 8 is not the posting as posted"), std::string::npos);
}

TEST(UpstreamPatchesTest, NamesWhatItCannotUse) {
  testing::TempDir tmp;
  Series series;
  series.source = tmp.path();
  series.patches.resize(2);
  put_file(tmp / "posting.txt", "+ a\n");
  series.patches[0].diff = "diff --git a/x b/x\n+a\n";
  put_file(tmp / "upstream",
           "# comment\n1 posting.txt  the posting\n3 posting.txt\nx\n2 nothere\n");
  const auto upstream = upstream_patches(series);
  EXPECT_EQ(upstream.as_posted, std::set<int>{1});
  ASSERT_EQ(upstream.notes.size(), 3u);
  EXPECT_NE(upstream.notes[0].find("with PATCH from 1 to 2"), std::string::npos);
  EXPECT_NE(upstream.notes[2].find("no posting"), std::string::npos);
}

}  // namespace
}  // namespace kseries::gate
