#include "sys/workdir.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

#include "testing/temp_dir.h"

namespace kseries {
namespace {

TEST(WorkDirTest, RunsNeverShareADirectory) {
  testing::TempDir tmp;
  WorkDir workdir(tmp / "wd");
  std::set<std::filesystem::path> runs;
  for (int i = 0; i < 5; ++i) {
    runs.insert(workdir.new_run("apply"));
  }
  EXPECT_EQ(runs.size(), 5u);
  for (const auto& run : runs) {
    EXPECT_TRUE(std::filesystem::is_directory(run));
    EXPECT_EQ(run.parent_path(), workdir.runs());
  }
  // runs/latest moves only when the run's report is written.
  EXPECT_FALSE(std::filesystem::exists(workdir.runs() / "latest"));
  workdir.point_latest();
  ASSERT_TRUE(std::filesystem::is_symlink(workdir.runs() / "latest"));
  EXPECT_EQ(std::filesystem::read_symlink(workdir.runs() / "latest"), runs.rbegin()->filename());
  const auto next = workdir.new_run("boot");
  EXPECT_NE(std::filesystem::read_symlink(workdir.runs() / "latest"), next.filename());
}

TEST(WorkDirTest, DefaultRootFollowsXdgCacheHome) {
  const char* old = std::getenv("XDG_CACHE_HOME");
  const std::string saved = old ? old : "";
  ::setenv("XDG_CACHE_HOME", "/tmp/xdg-test", 1);
  EXPECT_EQ(WorkDir::default_root(), std::filesystem::path("/tmp/xdg-test/kseries"));
  if (old) {
    ::setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  } else {
    ::unsetenv("XDG_CACHE_HOME");
  }
}

}  // namespace
}  // namespace kseries
