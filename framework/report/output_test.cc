#include "report/output.h"

#include <gtest/gtest.h>

#include <sstream>

#include "core/error.h"
#include "sys/files.h"
#include "testing/temp_dir.h"

namespace kseries::report {
namespace {

namespace fs = std::filesystem;

TEST(OutputTest, DashMeansStandardOutputAndNoFile) {
  testing::TempDir dir;
  const auto cwd = fs::current_path();
  fs::current_path(dir.path());
  std::ostringstream out;
  write_report("-", "{}\n", out);
  fs::current_path(cwd);
  EXPECT_EQ(out.str(), "{}\n");
  EXPECT_FALSE(fs::exists(dir / "-"));
}

TEST(OutputTest, ReplacesTheFileWholeAndLeavesNothingBeside) {
  testing::TempDir dir;
  write_file(dir / "r.json", "old, longer content\n");
  write_report(dir / "r.json", "new\n");
  EXPECT_EQ(read_file(dir / "r.json"), "new\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

TEST(OutputTest, AMissingDirectoryIsAnInfrastructureError) {
  testing::TempDir dir;
  try {
    write_report(dir / "no" / "r.json", "x");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::k_infrastructure);
    EXPECT_NE(std::string(e.what()).find("no/r.json"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kseries::report
