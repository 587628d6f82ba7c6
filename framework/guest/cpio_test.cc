#include "guest/cpio.h"

#include <gtest/gtest.h>

#include "sys/files.h"
#include "sys/process.h"
#include "testing/temp_dir.h"

namespace kseries::guest {
namespace {

// The archive must unpack with the real cpio tool, modes and links intact.
TEST(CpioTest, RealCpioUnpacksIt) {
  if (!find_program("cpio")) {
    GTEST_SKIP() << "skipped: cpio is not installed";
  }
  CpioWriter writer;
  writer.add_directory("bin");
  writer.add_file("bin/tool", "#!/bin/sh\necho hi\n", 0755);
  writer.add_file("data", std::string(5, 'x'));
  writer.add_symlink("bin/sh", "tool");
  const std::string archive = writer.finish();
  EXPECT_EQ(archive.size() % 4, 0u);
  EXPECT_EQ(archive.substr(0, 6), "070701");

  testing::TempDir tmp;
  write_file(tmp / "a.cpio", archive);
  std::filesystem::create_directories(tmp / "out");
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {"sh", "-c", "cpio -idm --quiet < ../a.cpio"};
  spec.cwd = tmp / "out";
  ASSERT_TRUE(runner.run(spec).ok());
  EXPECT_EQ(read_file(tmp / "out" / "bin" / "tool"), "#!/bin/sh\necho hi\n");
  EXPECT_EQ(read_file(tmp / "out" / "data"), "xxxxx");
  EXPECT_EQ(std::filesystem::read_symlink(tmp / "out" / "bin" / "sh"), "tool");
  const auto perms = std::filesystem::status(tmp / "out" / "bin" / "tool").permissions();
  EXPECT_NE(perms & std::filesystem::perms::owner_exec, std::filesystem::perms::none);
}

TEST(CpioTest, IsDeterministic) {
  auto make = [] {
    CpioWriter w;
    w.add_file("a", "1");
    return w.finish();
  };
  EXPECT_EQ(make(), make());
}

}  // namespace
}  // namespace kseries::guest
