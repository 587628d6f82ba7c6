#include "kernel/source_check.h"

#include <gtest/gtest.h>

#include "sys/files.h"
#include "testing/temp_dir.h"

namespace kseries::kernel {
namespace {

namespace fs = std::filesystem;
using testing::put_file;

// A .cmd file as kbuild's fixdep writes it for an O= build whose source
// tree is a sibling (absolute paths) or the parent (../ paths).
TEST(SourceCheckTest, TheFilesMakeReadAreTheCmdFilesSourcesAndDependencies) {
  testing::TempDir tmp;
  const fs::path src = tmp / "src";
  const fs::path build = tmp / "build";
  put_file(build / "mm/.mm_init.o.cmd",
           "savedcmd_mm/mm_init.o := gcc -Wp,-MMD,mm/.mm_init.o.d -c -o mm/mm_init.o " +
               (src / "mm/mm_init.c").string() + "\n\nsource_mm/mm_init.o := " +
               (src / "mm/mm_init.c").string() + "\n\ndeps_mm/mm_init.o := \\\n  " +
               (src / "include/linux/compiler-version.h").string() +
               " \\\n    $(wildcard include/config/CC_VERSION_TEXT) \\\n"
               "  include/generated/autoconf.h \\\n  ../src/include/linux/mm.h \\\n"
               "    $(wildcard include/config/MMU) \\\n\nmm/mm_init.o: $(deps_mm/mm_init.o)\n\n"
               "$(deps_mm/mm_init.o):\n");
  put_file(build / "mm/.mm_init.o.d", "not a .cmd file: mm/ignored.c\n");
  put_file(build / ".vmlinux.cmd", "savedcmd_vmlinux := ld -o vmlinux\n");
  const auto files = files_make_read(build, src);
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0], "include/linux/compiler-version.h");
  EXPECT_EQ(files[1], "include/linux/mm.h");
  EXPECT_EQ(files[2], "mm/mm_init.c");
}

TEST(SourceCheckTest, ASnapshotSeesAWriteARemovalAndANewFile) {
  testing::TempDir tmp;
  put_file(tmp / "a.c", "int a;\n");
  put_file(tmp / "sub/b.h", "#define B\n");
  put_file(tmp / "gone.c", "\n");
  const auto before = snapshot_tree(tmp.path());
  EXPECT_TRUE(changed_paths(before, snapshot_tree(tmp.path())).empty());
  put_file(tmp / "sub/b.h", "#define BB\n");
  fs::remove(tmp / "gone.c");
  put_file(tmp / "new.c", "\n");
  const auto changed = changed_paths(before, snapshot_tree(tmp.path()));
  ASSERT_EQ(changed.size(), 3u);
  EXPECT_EQ(changed[0], "gone.c (removed)");
  EXPECT_EQ(changed[1], "new.c (added)");
  EXPECT_EQ(changed[2], "sub/b.h");
}

TEST(SourceCheckTest, AManifestReadsBackWhatWasWritten) {
  SourceCheck check;
  check.files = {{"a.c", std::string(40, '1')}, {"b/c.h", std::string(40, '2')}};
  const auto back = parse_manifest(manifest_text(check) + "garbage line\n");
  EXPECT_EQ(back, check.files);
}

}  // namespace
}  // namespace kseries::kernel
