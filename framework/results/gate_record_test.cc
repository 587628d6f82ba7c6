#include "results/gate_record.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "testing/temp_dir.h"

namespace kseries::results {
namespace {

TEST(GateRecordTest, WhatTheStoreWritesReadsBackTyped) {
  testing::TempDir tmp;
  {
    CellStore store(tmp.path() / "gate.json");
    store.set_base(std::string(40, 'a'), "base/toy");
    store.describe({"s/bad", "/series/s/bad", {{"/series/s/bad/1.patch", "s: one", "ab"}}, {}});
    store.record({"s/bad", CellId::apply().to_string(), Outcome::k_pass, "1 applied", "", 0.5, {}});
    store.record({"s/bad",
                  CellId::session("toy", "demo").to_string(),
                  Outcome::k_fail,
                  "slower",
                  "slower\n",
                  9,
                  {}});
    SeriesVerdict verdict;
    verdict.series = "s/bad";
    verdict.outcome = Outcome::k_xfail;
    verdict.known_bad = true;
    verdict.reasons = {{ReasonKind::k_expectation_holds, "toy demo", "slower"},
                       {ReasonKind::k_unmet_expectation, "toy other", "did not run (expect:2)"}};
    verdict.outcomes = {{"apply", Outcome::k_pass}, {"toy demo", Outcome::k_xfail}};
    store.judge(verdict);
    store.finish(Outcome::k_pass, {{"apply", 0.5}});
  }
  const auto stored = load_gate_store(tmp.path() / "gate.json");
  EXPECT_EQ(stored.base_label, "base/toy");
  EXPECT_TRUE(stored.finished);
  ASSERT_EQ(stored.cells.size(), 2u);
  EXPECT_EQ(stored.cells[1].status, Outcome::k_fail);
  ASSERT_TRUE(stored.cells[1].id().has_value());
  EXPECT_EQ(*stored.cells[1].id(), CellId::session("toy", "demo"));
  ASSERT_EQ(stored.series.size(), 1u);
  ASSERT_TRUE(stored.series[0].verdict.has_value());
  EXPECT_EQ(stored.series[0].verdict->outcome_of("toy demo", Outcome::k_error), Outcome::k_xfail);
  EXPECT_EQ(stored.series[0].verdict->outcome_of("checkpatch", Outcome::k_skip), Outcome::k_skip);
  // The verdict's outcome and its reasons, typed: no line is parsed back.
  EXPECT_EQ(stored.series[0].verdict->outcome, Outcome::k_xfail);
  ASSERT_EQ(stored.series[0].verdict->reasons.size(), 2u);
  const Reason& unmet = stored.series[0].verdict->reasons[1];
  EXPECT_EQ(unmet.kind, ReasonKind::k_unmet_expectation);
  EXPECT_EQ(unmet.cell, "toy other");
  EXPECT_EQ(reason_line(unmet), "ERROR toy other did not run (expect:2)");
  EXPECT_EQ(stored.outcome, Outcome::k_pass);
  ASSERT_EQ(stored.time.size(), 1u);
  EXPECT_DOUBLE_EQ(stored.time[0].second, 0.5);
}

// A gate.json of an earlier kseries: no outcomes in its verdicts, a status
// word it may not know. It still reads; its cells keep their stage's outcome.
TEST(GateRecordTest, TodaysFilesStillRead) {
  testing::TempDir tmp;
  testing::put_file(tmp.path() / "gate.json", R"({"kind": "gate", "started": "2026-12-01T00:00:00Z",
    "series": [{"series": "s/v1", "source": "/s", "patches": [],
                "verdict": {"ok": true, "known_bad": true,
                            "lines": ["expected failure holds: toy demo: slower"]}}],
    "cells": [{"series": "s/v1", "cell": "toy demo", "status": "fail", "summary": "slower",
               "detail": "slower", "seconds": 3, "properties": {"run_dir": "/r"}},
              {"series": "s/v1", "cell": "apply", "status": "weird"}],
    "end": {"ok": true, "interrupted": false, "time": [{"stage": "apply", "seconds": null}]}})");
  const auto stored = read_gate_json(tmp.path() / "gate.json");
  ASSERT_EQ(stored.cells.size(), 2u);
  EXPECT_EQ(stored.cells[0].status, Outcome::k_fail);
  EXPECT_EQ(stored.cells[0].properties.at("run_dir"), "/r");
  EXPECT_EQ(stored.cells[1].status, Outcome::k_error);
  ASSERT_TRUE(stored.series[0].verdict.has_value());
  EXPECT_TRUE(stored.series[0].verdict->outcomes.empty());
  EXPECT_EQ(stored.series[0].verdict->outcome_of("toy demo", Outcome::k_fail), Outcome::k_fail);
  // Its verdict had ok and known_bad: EXPECTED; its lines are notes.
  EXPECT_EQ(stored.series[0].verdict->outcome, Outcome::k_xfail);
  ASSERT_EQ(stored.series[0].verdict->reasons.size(), 1u);
  EXPECT_EQ(reason_line(stored.series[0].verdict->reasons[0]),
            "expected failure holds: toy demo: slower");
  EXPECT_EQ(stored.outcome, Outcome::k_pass);
  ASSERT_EQ(stored.time.size(), 1u);
  EXPECT_DOUBLE_EQ(stored.time[0].second, 0);
}

TEST(GateRecordTest, AFileThatIsNoStoreIsNamed) {
  testing::TempDir tmp;
  testing::put_file(tmp.path() / "gate.json", R"({"kind": "gate", "series": [{"series": 5}]})");
  try {
    read_gate_json(tmp.path() / "gate.json");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::k_usage);
    EXPECT_NE(std::string(e.what()).find("gate.json"), std::string::npos) << e.what();
  }
  // The store's own reader wants its cells.
  EXPECT_THROW(load_gate_store(tmp.path() / "gate.json"), Error);
}

}  // namespace
}  // namespace kseries::results
