#include "results/coverage_record.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/json_text.h"
#include "testing/temp_dir.h"

namespace kseries::results {
namespace {

// What the coverage stage writes (one cell, one line of each kind that
// the renderers treat apart).
const char* const k_written = R"json({
  "summary": {"changed": 9, "executed": 3, "compiled_not_run": 4, "never_compiled": 2,
              "no_code": 1, "macro": 0, "ran": true, "line": "coverage: 3 of 9 executed"},
  "cells": [{"cell": "toycov demo", "target": "toycov", "cover_files": 1, "addresses": 4,
             "changed": 9, "executed": 3, "compiled_not_run": 4, "never_compiled": 2,
             "line": "toycov demo: 3 of 9"}],
  "lines": [{"patch": 1, "file": "b.c", "line": 1, "status": "no-code", "text": "int f(int v)",
             "note": "no code of its own", "compiled_in": [], "executed_in": []},
            {"patch": 2, "file": "b.c", "line": 7, "status": "never-compiled", "text": "x;",
             "reason": {"key": "KASAN: target kasan", "details": [], "impossible": false},
             "compiled_in": [], "executed_in": []},
            {"patch": 2, "file": "c.c", "line": 3, "status": "executed", "text": "{",
             "compiled_in": ["toycov"], "executed_in": ["toycov demo"]}],
  "series": "demo/v2", "tree": "abc"
})json";

TEST(CoverageRecordTest, ReadsWhatTheStageWrites) {
  const auto r = coverage_record_from(parse_json_text(k_written));
  EXPECT_EQ(r.summary_line, "coverage: 3 of 9 executed");
  EXPECT_EQ(r.summary, (CoverageCounts{9, 3, 4, 2}));
  ASSERT_EQ(r.cells.size(), 1u);
  EXPECT_EQ(r.cells[0], (CoverageCellRecord{"toycov demo", "toycov", "toycov demo: 3 of 9", 1,
                                            CoverageCounts{9, 3, 4, 2}, 4}));
  EXPECT_TRUE(r.merged);
  EXPECT_EQ(r.no_code, 1);
  EXPECT_TRUE(r.ran);
  EXPECT_EQ(r.series, "demo/v2");
  ASSERT_EQ(r.lines.size(), 3u);
  EXPECT_EQ(r.lines[0].note, "no code of its own");
  EXPECT_FALSE(r.lines[0].reason.has_value());
  EXPECT_EQ(r.lines[1].reason, (CoverageReasonRecord{"KASAN: target kasan", {}, false}));
  EXPECT_EQ(r.lines[2],
            (CoverageLineRecord{
                2, "c.c", 3, "executed", {"toycov"}, {"toycov demo"}, std::nullopt, "", "{"}));
}

// The writer: what it writes reads back as it was, in both shapes (the
// gate's merge and `kseries coverage`'s one kernel), and it writes the
// stage's file key for key.
TEST(CoverageRecordTest, WritesWhatItReads) {
  auto merged = coverage_record_from(parse_json_text(k_written));
  merged.lines[2].units = 3;
  merged.lines[2].executions = 1ull << 40;
  merged.lines[2].modifies = true;
  EXPECT_EQ(coverage_record_from(to_json(merged)), merged);
  const auto written = parse_json_text(k_written);
  auto keys = [](const nlohmann::json& j) {
    std::vector<std::string> out;
    for (const auto& [key, value] : j.items()) {
      out.push_back(key);
    }
    return out;
  };
  const auto again = to_json(coverage_record_from(written));
  EXPECT_EQ(keys(again), keys(written));
  EXPECT_EQ(again["summary"], written["summary"]);
  EXPECT_EQ(again["cells"], written["cells"]);
  EXPECT_EQ(keys(again["lines"][1]),
            (std::vector<std::string>{"compiled_in", "executed_in", "executions", "file", "line",
                                      "modifies", "patch", "reason", "status", "text", "units"}));

  CoverageRecord one;  // one kernel's: no cells, no per-cell lists
  one.patches = 3;
  one.vmlinux = "/k/vmlinux";
  one.lines.push_back({1, "a.c", 2, "compiled", {}, {}, std::nullopt, "", "x;", false, 1, 0});
  const auto j = to_json(one);
  EXPECT_FALSE(j.contains("cells"));
  EXPECT_FALSE(j["lines"][0].contains("compiled_in"));
  EXPECT_EQ(coverage_record_from(j), one);
}

std::string refusal(const std::string& text) {
  try {
    coverage_record_from(parse_json_text(text));
  } catch (const Error& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(CoverageRecordTest, AValueOfTheWrongTypeIsNamedAndOddEntriesAreLeftOut) {
  EXPECT_EQ(refusal(R"({"cells": "x"})"), "cells: an array expected, not string");
  EXPECT_EQ(refusal(R"({"summary": []})"), "summary: an object expected, not array");
  EXPECT_EQ(refusal(R"({"lines": [{"patch": "1"}]})"),
            "lines[0].patch: a number expected, not string");
  EXPECT_EQ(refusal(R"({"cells": [{"target": 5}]})"),
            "cells[0].target: a string expected, not number");
  EXPECT_EQ(refusal(R"({"lines": [{"reason": {"key": 1}}]})"),
            "lines[0].reason.key: a string expected, not number");
  // As the renderers always took them: a line that is not an object, a
  // name that is not text, a reason that is not an object.
  const auto r = coverage_record_from(parse_json_text(
      R"({"lines": [5, {"executed_in": [1, "c"], "reason": "x", "note": "n"}], "cells": [{}]})"));
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0].executed_in, std::vector<std::string>{"c"});
  EXPECT_FALSE(r.lines[0].reason.has_value());
  EXPECT_FALSE(r.summary_line.has_value());
  ASSERT_EQ(r.cells.size(), 1u);
  EXPECT_FALSE(r.cells[0].target.has_value());
}

TEST(CoverageRecordTest, AFileIsNamedWithItsLabelAndAnUnreadableOneIsNone) {
  testing::TempDir tmp;
  const auto file = tmp.path() / "coverage.json";
  EXPECT_FALSE(read_coverage_file(file).has_value());
  testing::put_file(file, "{\"cells\": [");
  EXPECT_FALSE(read_coverage_file(file).has_value());
  testing::put_file(file, "[]");
  EXPECT_FALSE(read_coverage_file(file).has_value());
  testing::put_file(file, k_written);
  EXPECT_EQ(read_coverage_file(file)->cells.size(), 1u);
  testing::put_file(file, R"({"cells": {}})");
  try {
    read_coverage_file(file, " (cell s: coverage)");
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), file.string() +
                                         " (cell s: coverage): a value of the wrong type: cells: "
                                         "an array expected, not object");
  }
}

}  // namespace
}  // namespace kseries::results
