#include "gate/matrix.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "testing/temp_dir.h"

namespace kseries::gate {
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
  const auto configs = testing::source_dir() / "kernel-configs";
  const auto testcases = testing::source_dir() / "testcases";
  for (const char* name : {"quick", "default", "full", "page-sizes"}) {
    const auto m = load_matrix(configs, testcases, name);
    EXPECT_FALSE(m.cells.empty()) << name;
  }
  EXPECT_EQ(load_matrix(configs, testcases, "default").per_patch_target.value_or(""), "pmem");
  EXPECT_THROW(load_matrix(configs, testcases, "nosuch"), Error);
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

// Configuration mistakes are usage errors at load, naming file:line: a
// duplicate cell ran twice, a second per-patch line replaced the first
// without a word, a BOM hid the first key.
TEST(MatrixTest, DuplicateLinesAndAByteOrderMarkAreRefused) {
  EXPECT_NE(error_of("cell: pmem x\ncell: pmem x setups=a\n")
                .find("m.matrix:2: cell 'pmem x' is already at line 1"),
            std::string::npos);
  EXPECT_NE(error_of("per-patch: pmem\ncell: pmem x\nper-patch: kasan\n")
                .find("m.matrix:3: 'per-patch:' is already at line 1"),
            std::string::npos);
  EXPECT_NE(error_of("per-patch-timing: pmem x\n\nper-patch-timing: pmem y\n")
                .find("m.matrix:3: 'per-patch-timing:' is already at line 1"),
            std::string::npos);
  EXPECT_NE(error_of("cell: a b\nrevision-regression: max=5\nrevision-regression: max=9\n")
                .find("m.matrix:3: 'revision-regression:' is already at line 2"),
            std::string::npos);
  EXPECT_NE(error_of("\xEF\xBB\xBF"
                     "cell: pmem x\n")
                .find("m.matrix:1: starts with a UTF-8 byte"),
            std::string::npos);
}

// An unknown target or case, a need no target has, an unknown setup: each
// failed one cell as if the series were at fault, or skipped it silently.
TEST(MatrixTest, CellsAreCheckedAgainstTargetsAndCases) {
  const auto configs = testing::source_dir() / "kernel-configs";
  const auto testcases = testing::source_dir() / "testcases";
  const auto error = [&](const std::string& text) {
    try {
      resolve_matrix(parse_matrix(text, "m.matrix"), configs, testcases);
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), ExitCode::k_usage_or_infra);
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error("cell: pmem memmap-timing\n"), "");
  EXPECT_NE(error("cell: pmme memmap-timing\n").find("m.matrix:1: unknown target 'pmme'"),
            std::string::npos);
  EXPECT_NE(error("\ncell: pmem memmap-timng\n").find("m.matrix:2: unknown case 'memmap-timng'"),
            std::string::npos);
  EXPECT_NE(
      error("cell: pmem memmap-timing setups=fsdax-mem,dax-typo\n").find("has no setup 'dax-typo'"),
      std::string::npos);
  // rebinds= for a case that takes none was dropped without a word.
  EXPECT_EQ(error("cell: pmem memmap-timing rebinds=5\ncell: pmem nt-ordering rebinds=2\n"), "");
  EXPECT_NE(error("\ncell: pmem memmap-equivalence rebinds=5\n")
                .find("m.matrix:2: case memmap-equivalence takes no rebinds= (its "),
            std::string::npos);
  testing::TempDir tmp;
  std::filesystem::create_directories(tmp / "typo");
  testing::put_file(tmp / "typo" / "case.conf", "description: t\nneeds: pmme\n");
  testing::put_file(tmp / "typo" / "guest.sh", "#!/bin/sh\n");
  try {
    resolve_matrix(parse_matrix("cell: pmem typo\n", "m.matrix"), configs, tmp.path());
    ADD_FAILURE() << "needs: pmme was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("needs 'pmme', a feature no target"), std::string::npos)
        << e.what();
  }
}

// The per-patch target and the per-patch-timing cell are checked at load
// like the cells, each at its own line.
TEST(MatrixTest, PerPatchLinesAreCheckedAtTheirLine) {
  const auto configs = testing::source_dir() / "kernel-configs";
  const auto testcases = testing::source_dir() / "testcases";
  const auto error = [&](const std::string& text) {
    try {
      resolve_matrix(parse_matrix(text, "m.matrix"), configs, testcases);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error("cell: pmem memmap-timing\nper-patch: pmme\n").find("m.matrix:2: unknown target"),
            std::string::npos)
      << error("cell: pmem memmap-timing\nper-patch: pmme\n");
  EXPECT_NE(error("\n\nper-patch-timing: pmme memmap-timing\n").find("m.matrix:3: unknown target"),
            std::string::npos);
  EXPECT_NE(error("per-patch-timing: pmem memmap-timng\n").find("m.matrix:1: unknown case"),
            std::string::npos);
}

// "--matrix full" took a ./full in the current directory.
TEST(MatrixTest, ABareNameIsTheBundledMatrix) {
  testing::TempDir tmp;
  testing::put_file(tmp / "full", "cell: decoy decoy\n");
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(tmp.path());
  const auto m = load_matrix(testing::source_dir() / "kernel-configs", std::nullopt, "full");
  std::filesystem::current_path(cwd);
  ASSERT_FALSE(m.cells.empty());
  EXPECT_NE(m.cells[0].target, "decoy");
}

}  // namespace
}  // namespace kseries::gate

namespace kseries::gate {
namespace {

// The coverage policy: parsed per line, and refused at load without a
// coverage cell (it would check nothing).
TEST(MatrixTest, CoveragePolicyNeedsACoverageCell) {
  const auto m = parse_matrix(
      "cell: pmem-coverage memmap-equivalence\ncell: pmem memmap-timing\n"
      "coverage: min=75\ncoverage: require mm/mm_init.c:1000-1010\n",
      "c.matrix");
  ASSERT_TRUE(m.coverage.min_percent);
  EXPECT_EQ(*m.coverage.min_percent, 75);
  ASSERT_EQ(m.coverage.require.size(), 1u);
  EXPECT_EQ(m.coverage.require[0].where, "c.matrix:4");
  EXPECT_EQ(m.coverage_line, 3);
  const auto configs = testing::source_dir() / "kernel-configs";
  const auto resolved = resolve_matrix(m, configs, testing::source_dir() / "testcases");
  const auto cells = resolved.coverage_cells();
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].target, "pmem-coverage");
  EXPECT_EQ(resolved.coverage_targets, std::vector<std::string>{"pmem-coverage"});
  EXPECT_NE(error_of("cell: pmem memmap-timing\ncoverage: min=101\n")
                .find("m.matrix:2: coverage: '101' is not a percentage"),
            std::string::npos);
  try {
    resolve_matrix(parse_matrix("cell: pmem memmap-timing\ncoverage: min=50\n", "n.matrix"),
                   configs, std::nullopt);
    ADD_FAILURE() << "a coverage policy without a coverage cell was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("n.matrix:2: a coverage policy, but no cell"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace kseries::gate
