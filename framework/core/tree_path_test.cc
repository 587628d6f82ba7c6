#include "core/tree_path.h"

#include <gtest/gtest.h>

namespace kseries {
namespace {

// git fsck warns about each of these (hasDotgit): a checkout on HFS+ or
// NTFS writes into the repository's own .git. ".g\u200dit" (a zero-width
// joiner) was taken as an ordinary name.
TEST(TreePathTest, DotgitAsHfsAndNtfsSeeIt) {
  for (const char* name :
       {".git", ".GIT", ".Git", ".g\u200dit", "\u200c.git", ".git\ufeff", ".gi\u202et",
        ".\u206fg\u200ei\u200ft", ".git.", ".git ", ".git. . ", "git~1", "GIT~1", "Git~1..",
        ".git\\foo", "foo\\.git", "foo\\git~1\\bar"}) {
    EXPECT_TRUE(is_dotgit_name(name)) << name;
    EXPECT_EQ(tree_path_problem(std::string("a/") + name + "/config"), "a path inside .git")
        << name;
  }
  for (const char* name : {".gitignore", ".gitmodules", "git", ".gi", ".git~1", "git~2", "x.git",
                           ".g\u00adit", "\xff.git", ".gi\xe2\x80", "a.git."}) {
    EXPECT_FALSE(is_dotgit_name(name)) << name;
  }
}

TEST(TreePathTest, ComponentsAndLengths) {
  EXPECT_EQ(tree_path_problem("mm/mm_init.c"), "");
  EXPECT_EQ(tree_path_problem(""), "an empty path");
  EXPECT_EQ(tree_path_problem("/etc/passwd"), "an absolute path");
  EXPECT_EQ(tree_path_problem("a/../b"), "a '..' component");
  EXPECT_EQ(tree_path_problem("a/./b"), "a '.' component");
  EXPECT_EQ(tree_path_problem("a//b"), "an empty component");
  EXPECT_EQ(tree_path_problem("a/"), "an empty component");
  EXPECT_EQ(tree_path_problem(std::string(256, 'x')),
            "a name of 256 bytes (a file system takes 255)");
  std::string deep;
  for (int i = 0; i < 500; ++i) {
    deep += "abcdefghi/";
  }
  EXPECT_EQ(tree_path_problem(deep + "f"), "a path of 5001 bytes (PATH_MAX is 4096)");
}

}  // namespace
}  // namespace kseries
