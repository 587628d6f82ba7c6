#include "results/cell_id.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace kseries::results {
namespace {

// Kinds of this test's own, as a stage declares one in its file: results/
// knows nothing of them but what they register.
const CellKind k_timing_like = register_cell_kind({"timing-like", CellShape::k_word_target_case});
const CellKind k_judge_like = register_cell_kind({"judge-like", CellShape::k_word});

TEST(CellIdTest, EveryKindWritesTheWordGateJsonHas) {
  EXPECT_EQ(CellId::apply().to_string(), "apply");
  EXPECT_EQ(CellId::checkpatch().to_string(), "checkpatch");
  EXPECT_EQ(CellId::coverage().to_string(), "coverage");
  EXPECT_EQ(CellId{k_judge_like}.to_string(), "judge-like");
  EXPECT_EQ(CellId::per_patch("pmem").to_string(), "per-patch pmem");
  EXPECT_EQ((CellId{k_timing_like, "pmem", "memmap-timing"}.to_string()),
            "timing-like pmem memmap-timing");
  EXPECT_EQ(CellId::session("pmem", "memmap-types").to_string(), "pmem memmap-types");
  EXPECT_EQ(CellId::session("pmem", "memmap-timing", "wall").to_string(),
            "pmem memmap-timing (wall)");
}

TEST(CellIdTest, WhatItWritesReadsBack) {
  for (const CellId& id :
       {CellId::apply(), CellId::checkpatch(), CellId{k_judge_like}, CellId::coverage(),
        CellId::per_patch("pmem"), CellId{k_timing_like, "pmem", "memmap-timing"},
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
  EXPECT_TRUE(session->is_session());
  EXPECT_EQ(session->target, "pmem");
  EXPECT_EQ(session->test_case, "memmap-types");
}

// A word no kind registered is not a stage's: alone it is no cell, with a
// second word it is a session (a target of that name), as before kinds
// were registered.
TEST(CellIdTest, AnUnregisteredWordIsNoStage) {
  EXPECT_FALSE(CellId::parse("never-registered").has_value());
  const auto session = CellId::parse("never-registered x");
  ASSERT_TRUE(session.has_value());
  EXPECT_EQ(*session, CellId::session("never-registered", "x"));
  // A registered word with the wrong count of words after it.
  EXPECT_FALSE(CellId::parse("judge-like a b c").has_value());
  EXPECT_EQ(*CellId::parse("judge-like a"), CellId::session("judge-like", "a"));
}

TEST(CellIdTest, AKindIsRegisteredOnceWithOneShape) {
  EXPECT_EQ(register_cell_kind({"judge-like", CellShape::k_word}), k_judge_like);
  EXPECT_THROW(register_cell_kind({"judge-like", CellShape::k_word_target}), std::logic_error);
  EXPECT_THROW(register_cell_kind({"", CellShape::k_word}), std::logic_error);
  EXPECT_THROW(register_cell_kind({"two words", CellShape::k_word}), std::logic_error);
  EXPECT_THROW(register_cell_kind(k_session_cell), std::logic_error);
}

}  // namespace
}  // namespace kseries::results
