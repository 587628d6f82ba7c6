#include "git/patch_id.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "git/libgit2.h"
#include "series/series.h"
#include "testing/temp_dir.h"

namespace kseries::git {
namespace {

const std::string k_diff =
    "diff --git a/a.txt b/a.txt\n"
    "index 4cb29ea..f04eb26 100644\n"
    "--- a/a.txt\n"
    "+++ b/a.txt\n"
    "@@ -1,3 +1,3 @@\n"
    " one\n"
    "-two\n"
    "+2\n"
    " three\n";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  text.replace(text.find(from), from.size(), to);
  return text;
}

// `git diff | git patch-id --stable` for k_diff (git 2.39).
TEST(PatchIdTest, IsGitsStablePatchId) {
  Session session;
  EXPECT_EQ(patch_id(k_diff), "44bd323efaee6ccde51dfbcd35d9566acfb0b616");
}

TEST(PatchIdTest, IgnoresLineNumbersBlobIdsAndWhitespace) {
  Session session;
  std::string moved = replaced(k_diff, "@@ -1,3 +1,3 @@", "@@ -70,3 +71,3 @@");
  moved = replaced(moved, "index 4cb29ea..f04eb26", "index 1234567..89abcde");
  EXPECT_EQ(patch_id(moved), patch_id(k_diff));
  EXPECT_EQ(patch_id(replaced(k_diff, "+2\n", "+ 2\n")), patch_id(k_diff));
}

TEST(PatchIdTest, AnotherChangeHasAnotherId) {
  Session session;
  EXPECT_NE(patch_id(replaced(k_diff, "+2\n", "+3\n")), patch_id(k_diff));
  std::string renamed = k_diff;
  for (auto at = renamed.find("a.txt"); at != std::string::npos; at = renamed.find("a.txt")) {
    renamed.replace(at, 5, "b.txt");
  }
  EXPECT_NE(patch_id(renamed), patch_id(k_diff));
}

TEST(PatchIdTest, RefusesWhatDoesNotParse) {
  Session session;
  try {
    patch_id("diff --git a/x\n@@ nonsense\n");
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::k_usage);
    EXPECT_NE(std::string(e.what()).find("does not parse"), std::string::npos) << e.what();
  }
}

// The bundled revisions, against `git patch-id --stable < FILE`: v10 keeps
// v6's 1/8 and (as 2/8) v6's 3/8; 6/8 touches two files.
TEST(PatchIdTest, BundledPatchesHaveGitsIds) {
  Session session;
  const auto patches = testing::source_dir() / "patches" / "zone-device-memmap";
  const Series v6 = load_series(patches / "v6");
  const Series v10 = load_series(patches / "v10");
  EXPECT_EQ(patch_id(v6.patches[0].diff), "d81bc438d28925a19a967da540a1bf86ec69cd5a");
  EXPECT_EQ(patch_id(v6.patches[2].diff), "a5323c41192b269adfb6982e1234c978b0fd40bc");
  EXPECT_EQ(patch_id(v6.patches[5].diff), "899a8a632c88aaee82b973036fa2a3672891bb9f");
  EXPECT_EQ(patch_id(v10.patches[0].diff), patch_id(v6.patches[0].diff));
  EXPECT_EQ(patch_id(v10.patches[1].diff), patch_id(v6.patches[2].diff));
  EXPECT_NE(patch_id(v10.patches[2].diff), patch_id(v6.patches[3].diff));
}

}  // namespace
}  // namespace kseries::git
