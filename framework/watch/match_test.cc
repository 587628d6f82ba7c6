#include "watch/match.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "testing/patch_text.h"
#include "testing/temp_dir.h"

namespace kseries::watch {
namespace {

using testing::PatchText;
using testing::put_file;
using testing::TempDir;

Series demo_series(const TempDir& dir) {
  PatchText cover;
  cover.subject = "[PATCH v2 0/1] mm: the memmap fast path";
  cover.diff.clear();
  cover.body = "Cover.\n\n---\nchange-id: 20261202-memmap-0123456789ab\n";
  PatchText patch;
  patch.subject = "[PATCH v2 1/1] mm: add it";
  patch.diff =
      "diff --git a/mm/mm_init.c b/mm/mm_init.c\n--- a/mm/mm_init.c\n+++ b/mm/mm_init.c\n"
      "@@ -1 +1 @@\n-one\n+two\n";
  put_file(dir / "s/v2/0.patch", cover.render());
  put_file(dir / "s/v2/1.patch", patch.render());
  put_file(dir / "s/v2/series", "0.patch\n1.patch\n");
  return load_series(dir / "s/v2");
}

TEST(MatchTest, SubjectFileAndChangeId) {
  TempDir dir;
  const Series series = demo_series(dir);
  std::string why;
  EXPECT_TRUE(series_matches({}, series, why));
  EXPECT_TRUE(series_matches({parse_match("subject:MEMMAP fast")}, series, why));
  EXPECT_TRUE(series_matches({parse_match("memmap")}, series, why));
  EXPECT_FALSE(series_matches({parse_match("subject:hugetlb")}, series, why));
  EXPECT_TRUE(series_matches({parse_match("file:mm/")}, series, why));
  EXPECT_NE(why.find("mm/mm_init.c"), std::string::npos);
  EXPECT_TRUE(series_matches({parse_match("file:mm/mm_init.c")}, series, why));
  EXPECT_FALSE(series_matches({parse_match("file:mm")}, series, why));  // not a directory
  EXPECT_TRUE(
      series_matches({parse_match("change-id:x,20261202-memmap-0123456789ab")}, series, why));
  EXPECT_FALSE(series_matches({parse_match("change-id:x")}, series, why));
  EXPECT_TRUE(
      series_matches({parse_match("change-id:x"), parse_match("subject:memmap")}, series, why));
}

TEST(MatchTest, TitlesBeforeFetching) {
  EXPECT_TRUE(title_may_match({}, "anything"));
  EXPECT_FALSE(title_may_match({parse_match("subject:mm:")}, "[PATCH] net: x"));
  EXPECT_TRUE(title_may_match({parse_match("file:mm/")}, "[PATCH] net: x"));
  EXPECT_THROW(parse_match("file:"), Error);
  EXPECT_THROW(parse_match("subject:"), Error);
}

}  // namespace
}  // namespace kseries::watch
