#include "run/matrix.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "testing/temp_dir.h"

namespace kseries::run {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_matrix(text, "m.matrix");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(MatrixTest, ParsesPerPatchAndCellsWithOptions) {
  const auto m = parse_matrix(
      "# comment\n"
      "per-patch: pmem\n"
      "cell: pmem memmap-timing rebinds=10   # trailing comment\n"
      "cell: kasan memmap-equivalence setups=fsdax-mem,devdax-mem\n",
      "dir/default.matrix");
  EXPECT_EQ(m.name, "default");
  EXPECT_EQ(m.per_patch_target.value_or(""), "pmem");
  ASSERT_EQ(m.cells.size(), 2u);
  EXPECT_EQ(m.cells[0].target, "pmem");
  EXPECT_EQ(m.cells[0].test_case, "memmap-timing");
  EXPECT_EQ(m.cells[0].rebinds.value_or(0), 10);
  EXPECT_EQ(m.cells[0].line, 3);
  EXPECT_EQ(m.cells[1].setups.value(), (std::vector<std::string>{"fsdax-mem", "devdax-mem"}));
}

TEST(MatrixTest, PerPatchTimingNamesATargetAndACase) {
  const auto m = parse_matrix("per-patch-timing: pmem memmap-timing rebinds=5\n", "t.matrix");
  ASSERT_TRUE(m.per_patch_timing.has_value());
  EXPECT_EQ(m.per_patch_timing->target, "pmem");
  EXPECT_EQ(m.per_patch_timing->test_case, "memmap-timing");
  EXPECT_EQ(m.per_patch_timing->rebinds.value_or(0), 5);
  EXPECT_TRUE(m.cells.empty());
  EXPECT_NE(error_of("per-patch-timing: pmem\n").find("m.matrix:1"), std::string::npos);
}

TEST(MatrixTest, ErrorsNameTheLine) {
  EXPECT_NE(error_of("cell: pmem\n").find("m.matrix:1: a cell is"), std::string::npos);
  EXPECT_NE(error_of("\ncell: pmem x rebinds=0\n").find("m.matrix:2: rebinds must be"),
            std::string::npos);
  EXPECT_NE(error_of("cell: pmem x colour=red\n").find("unknown cell option 'colour=red'"),
            std::string::npos);
  EXPECT_NE(error_of("target: pmem\n").find("m.matrix:1: unknown key 'target'"), std::string::npos);
  EXPECT_NE(error_of("# nothing\n").find("no cell and no per-patch target"), std::string::npos);
}

TEST(MatrixTest, TheBundledMatricesLoad) {
  const auto dir = testing::source_dir() / "kernel-configs" / "matrices";
  for (const char* name : {"quick", "default", "full"}) {
    const auto m = load_matrix(dir, name);
    EXPECT_FALSE(m.cells.empty()) << name;
  }
  EXPECT_EQ(load_matrix(dir, "default").per_patch_target.value_or(""), "pmem");
  EXPECT_THROW(load_matrix(dir, "nosuch"), Error);
}

TEST(MatrixTest, ParsesTheRevisionRegressionPolicy) {
  const auto m = parse_matrix(
      "cell: pmem memmap-timing\nrevision-regression: max=10 memmap_init_vns\n", "m.matrix");
  ASSERT_TRUE(m.revision_regression.has_value());
  EXPECT_DOUBLE_EQ(m.revision_regression->max_percent, 10);
  EXPECT_EQ(m.revision_regression->metric.value_or(""), "memmap_init_vns");
  EXPECT_EQ(m.revision_regression->line, 2);
  EXPECT_FALSE(parse_matrix("cell: a b\n", "m.matrix").revision_regression.has_value());
  EXPECT_DOUBLE_EQ(parse_matrix("cell: a b\nrevision-regression: max=2.5%\n", "m.matrix")
                       .revision_regression->max_percent,
                   2.5);
  EXPECT_NE(
      error_of("cell: a b\nrevision-regression: 10\n").find("m.matrix:2: 'revision-regression"),
      std::string::npos);
  EXPECT_NE(error_of("cell: a b\nrevision-regression: max=-1\n").find("max must be"),
            std::string::npos);
  EXPECT_NE(error_of("cell: a b\nrevision-regression: max=x\n").find("max must be"),
            std::string::npos);
}

}  // namespace
}  // namespace kseries::run
