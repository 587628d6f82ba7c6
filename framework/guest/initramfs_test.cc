#include "guest/initramfs.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "sys/files.h"
#include "testing/temp_dir.h"

namespace kseries::guest {
namespace {

namespace fs = std::filesystem;

// No helpers/ directory: nothing is compiled, so no runner call is expected.
class NoProcesses : public ProcessRunner {
 public:
  ProcessResult run(const ProcessSpec& spec) override {
    ADD_FAILURE() << "unexpected process " << spec.argv.at(0);
    return {};
  }
};

struct Tree {
  testing::TempDir tmp;
  InitramfsSources sources;
  Tree() {
    testing::put_file(tmp / "testcases" / "lib" / "init", "#!/bin/sh\n");
    testing::put_file(tmp / "testcases" / "c" / "guest.sh", "#!/bin/sh\n");
    testing::put_file(tmp / "busybox", "not really busybox\n");
    testing::put_file(tmp / "a.ko", "module built for kernel A\n");
    testing::put_file(tmp / "b.ko", "module built for kernel B\n");
    sources.testcases = tmp / "testcases";
    sources.busybox = tmp / "busybox";
  }
};

TEST(InitramfsTest, ExtraFilesGoInAndChangeTheCachedName) {
  Tree t;
  NoProcesses runner;
  const fs::path plain = build_initramfs(t.sources, t.tmp / "cache", runner);
  t.sources.extra_files = {{"testcases/m/m.ko", t.tmp / "a.ko"}};
  const fs::path with_a = build_initramfs(t.sources, t.tmp / "cache", runner);
  t.sources.extra_files = {{"testcases/m/m.ko", t.tmp / "b.ko"}};
  const fs::path with_b = build_initramfs(t.sources, t.tmp / "cache", runner);
  EXPECT_NE(plain, with_a);
  EXPECT_NE(with_a, with_b);
  const std::string archive = read_file(with_a);
  EXPECT_NE(archive.find("testcases/m/m.ko"), std::string::npos);
  EXPECT_NE(archive.find("module built for kernel A"), std::string::npos);
  EXPECT_EQ(read_file(plain).find("testcases/m/m.ko"), std::string::npos);
  // Same inputs, same archive: the cache hit.
  t.sources.extra_files = {{"testcases/m/m.ko", t.tmp / "a.ko"}};
  EXPECT_EQ(build_initramfs(t.sources, t.tmp / "cache", runner), with_a);
}

TEST(InitramfsTest, AMissingExtraFileIsNamed) {
  Tree t;
  NoProcesses runner;
  t.sources.extra_files = {{"testcases/m/m.ko", t.tmp / "gone.ko"}};
  try {
    build_initramfs(t.sources, t.tmp / "cache", runner);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("gone.ko"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kseries::guest
