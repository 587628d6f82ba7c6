#include "results/cell_id.h"

#include <gtest/gtest.h>

namespace kseries::results {
namespace {

TEST(CellIdTest, EveryStageWritesTheWordGateJsonHas) {
  EXPECT_EQ(CellId::apply().to_string(), "apply");
  EXPECT_EQ(CellId::checkpatch().to_string(), "checkpatch");
  EXPECT_EQ(CellId::revision_regression().to_string(), "revision-regression");
  EXPECT_EQ(CellId::per_patch("pmem").to_string(), "per-patch pmem");
  EXPECT_EQ(CellId::per_patch_timing("pmem", "memmap-timing").to_string(),
            "per-patch-timing pmem memmap-timing");
  EXPECT_EQ(CellId::session("pmem", "memmap-types").to_string(), "pmem memmap-types");
  EXPECT_EQ(CellId::session("pmem", "memmap-timing", "wall").to_string(),
            "pmem memmap-timing (wall)");
}

TEST(CellIdTest, WhatItWritesReadsBack) {
  for (const CellId& id :
       {CellId::apply(), CellId::checkpatch(), CellId::revision_regression(), CellId::coverage(),
        CellId::per_patch("pmem"), CellId::per_patch_timing("pmem", "memmap-timing"),
        CellId::session("toy", "demo"), CellId::session("pmem", "memmap-timing", "icount")}) {
    const auto parsed = CellId::parse(id.to_string());
    ASSERT_TRUE(parsed.has_value()) << id.to_string();
    EXPECT_EQ(*parsed, id) << id.to_string();
  }
}

TEST(CellIdTest, TextThatIsNoCell) {
  EXPECT_FALSE(CellId::parse("").has_value());
  EXPECT_FALSE(CellId::parse("pmem").has_value());
  EXPECT_FALSE(CellId::parse("per-patch").has_value());
  EXPECT_FALSE(CellId::parse("a b c d").has_value());
  const auto session = CellId::parse("pmem memmap-types");
  ASSERT_TRUE(session.has_value());
  EXPECT_EQ(session->stage, Stage::k_session);
  EXPECT_EQ(session->target, "pmem");
  EXPECT_EQ(session->test_case, "memmap-types");
}

}  // namespace
}  // namespace kseries::results
