#include "gate/checkpatch_findings.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "gate/checkpatch.h"
#include "gate/matrix.h"
#include "results/cell_id.h"

namespace kseries::gate {
namespace {

results::CellResult checkpatch_cell(const std::string& series, const std::string& types,
                                    const std::string& upstream = "") {
  results::CellResult cell{
      series, results::CellId::checkpatch().to_string(), results::Outcome::k_pass, "", "", 0, {}};
  cell.properties[k_checkpatch_types] = types;
  cell.properties[k_checkpatch_upstream] = upstream;
  return cell;
}

RevisionComparison comparison(const std::string& from, const std::string& to) {
  RevisionComparison c;
  c.family = "demo";
  c.from = from;
  c.to = to;
  c.from_patches = 8;
  c.to_patches = 8;
  return c;
}

// v6 -> v10 as the bundled ports have it: v10 adds 9 TRAILING_STATEMENTS
// errors, all in 8/8, which is the upstream posting as posted.
TEST(CheckpatchFindingsTest, UpstreamErrorsAreAFindingButNotThePorts) {
  const std::vector<results::CellResult> cells = {
      checkpatch_cell("z/v6", "3 WARNING COMMIT_LOG_LONG_LINE 1\n"),
      checkpatch_cell("z/v10", "8 ERROR TRAILING_STATEMENTS 9\n", "8")};
  const auto findings =
      checkpatch_findings({comparison("z/v6", "z/v10")}, cells, CheckpatchPolicy{0, 3});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].series, "z/v10");
  EXPECT_EQ(findings[0].port_errors, 0);
  EXPECT_FALSE(findings[0].fails);
  EXPECT_EQ(findings[0].text(),
            "checkpatch: +9 error(s) against z/v6: TRAILING_STATEMENTS +9 (8/8, 9 upstream's as "
            "posted); 0 the port's");
}

TEST(CheckpatchFindingsTest, ThePortsOwnNewErrorsFailBeyondThePolicy) {
  const std::vector<results::CellResult> cells = {
      checkpatch_cell("z/v1", "2 ERROR SPACING 1\n"),
      checkpatch_cell("z/v2", "2 ERROR SPACING 1\n4 ERROR SPACING 2\n5 ERROR CODE_INDENT 1\n")};
  const std::vector<RevisionComparison> comparisons = {comparison("z/v1", "z/v2")};
  const auto findings = checkpatch_findings(comparisons, cells, CheckpatchPolicy{2, 7});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].port_errors, 3);
  EXPECT_TRUE(findings[0].fails);
  EXPECT_EQ(findings[0].text(),
            "checkpatch: +3 error(s) against z/v1: CODE_INDENT +1 (5/8), SPACING +2 (2/8, 4/8); "
            "3 the port's");
  EXPECT_FALSE(checkpatch_findings(comparisons, cells, CheckpatchPolicy{3, 7})[0].fails);
  EXPECT_FALSE(checkpatch_findings(comparisons, cells, std::nullopt)[0].fails);
}

TEST(CheckpatchFindingsTest, NoneWhenNothingIsAddedOrTheCountsAreMissing) {
  // Fewer errors, or the same moved between patches: no finding.
  std::vector<results::CellResult> cells = {checkpatch_cell("z/v1", "1 ERROR SPACING 2\n"),
                                            checkpatch_cell("z/v2", "3 ERROR SPACING 2\n")};
  EXPECT_TRUE(checkpatch_findings({comparison("z/v1", "z/v2")}, cells, std::nullopt).empty());
  // A cell of an older kseries (no per-type counts) gives nothing to compare.
  cells[0].properties.erase(k_checkpatch_types);
  cells[1].properties[k_checkpatch_types] = "3 ERROR SPACING 5\n";
  EXPECT_TRUE(checkpatch_findings({comparison("z/v1", "z/v2")}, cells, std::nullopt).empty());
}

TEST(CheckpatchFindingsTest, FailuresGoIntoTheRevisionRegressionCell) {
  const Matrix matrix =
      parse_matrix("cell: pmem memmap-timing\ncheckpatch: max-new-errors=0\n", "m.matrix");
  ASSERT_TRUE(matrix.checkpatch);
  EXPECT_EQ(matrix.checkpatch->max_new_errors, 0);
  EXPECT_EQ(matrix.checkpatch->line, 2);
  results::CellResult cell{"z/v2", "revision-regression", results::Outcome::k_fail, "", "", 0, {}};
  add_checkpatch_failures({"checkpatch: +1 error(s) against z/v1: X +1 (1/1); 1 the port's"},
                          matrix.checkpatch, matrix.file.string(), cell);
  EXPECT_EQ(cell.summary,
            "checkpatch: +1 error(s) against z/v1: X +1 (1/1); 1 the port's (policy: checkpatch "
            "max-new-errors=0)");
  EXPECT_EQ(cell.properties.at("policy.checkpatch_line"), "m.matrix:2");
}

TEST(CheckpatchPolicyTest, RefusesAnythingButMaxNewErrors) {
  for (const char* text : {"checkpatch: max-new-errors=-1\n", "checkpatch: max=1\n",
                           "checkpatch: max-new-errors=1 extra\n", "checkpatch:\n",
                           "checkpatch: max-new-errors=x\n"}) {
    try {
      parse_matrix(std::string("cell: pmem memmap-timing\n") + text, "m.matrix");
      ADD_FAILURE() << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("m.matrix:2: 'checkpatch: max-new-errors=N'"),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace kseries::gate
