#include "gate/gate.h"
#include "gate/per_patch.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/text.h"
#include "git/libgit2.h"
#include "sys/files.h"
#include "testing/fake_builds.h"
#include "testing/temp_dir.h"
#include "testing/toy_series.h"

namespace kseries::gate {
namespace {

namespace fs = std::filesystem;
using testing::git;
using testing::put_file;

// Every process answers "done" (checkpatch has no checkpatch.pl in the toy
// tree: reported, not run).
class DoneRunner : public ProcessRunner {
 public:
  ProcessResult run(const ProcessSpec&) override {
    ProcessResult result;
    result.exit_code = 0;
    return result;
  }
};

class QuietStatus : public session::Status {
 public:
  void progress(const std::string&) override {}
};

// A toy tree and a two-patch series onto it, gated on a matrix with a
// per-patch target and no cell, through a builder that builds nothing.
class GateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto toy = testing::make_toy_series(m_tmp.path());
    m_series = toy.series;
    m_request.base = m_store.borrow_commit(toy.repo, toy.base);
    m_request.base_label = "base/toy";
    put_file(m_tmp / "configs/fragments/a.config", "CONFIG_A=y\n");
    put_file(m_tmp / "configs/targets/toy.target", "fragments: a\nfeatures: pmem\n");
    m_request.matrix = resolve_matrix(parse_matrix("per-patch: toy\n", m_tmp / "toy.matrix"),
                                      m_tmp / "configs", m_tmp / "cases");
    m_request.series = {m_series};
    m_request.run_dir = m_tmp / "run";
    fs::create_directories(m_request.run_dir);
  }

  GateResult gate() {
    GateServices services{m_store, m_builds, m_runner, m_tmp / "wd"};
    return run_gate(m_request, services, m_status);
  }

  const results::CellResult* cell(const GateResult& result, const std::string& name) const {
    for (const auto& c : result.cells) {
      if (c.cell == name) {
        return &c;
      }
    }
    return nullptr;
  }

  git::Session m_session;
  testing::TempDir m_tmp;
  git::Store m_store{m_tmp / "store.git"};
  testing::FakeBuilds m_builds;
  DoneRunner m_runner;
  QuietStatus m_status;
  GateRequest m_request;
  fs::path m_series;
};

TEST_F(GateTest, EveryPatchIsBuiltWithoutTestModulesAndTheSeriesPasses) {
  const auto result = gate();
  EXPECT_TRUE(result.ok());
  ASSERT_EQ(result.verdicts.size(), 1u);
  EXPECT_EQ(result.verdicts[0].series, "demo/v1");
  ASSERT_EQ(m_builds.requests.size(), 2u);
  for (const auto& seen : m_builds.requests) {
    EXPECT_EQ(seen.target, "toy");
    EXPECT_TRUE(seen.test_modules.empty());
    EXPECT_FALSE(seen.configure_only);
  }
  EXPECT_EQ(m_builds.requests[1].commit.size(), 40u);
  const auto* per_patch = cell(result, "per-patch toy");
  ASSERT_NE(per_patch, nullptr);
  EXPECT_EQ(per_patch->status, results::Outcome::k_pass);
  EXPECT_EQ(per_patch->summary, "every patch builds (2)");
  // The apply cell carries the time the gate reports for "apply": what a
  // merge of shards sums.
  const auto* apply = cell(result, "apply");
  ASSERT_NE(apply, nullptr);
  EXPECT_GT(apply->seconds, 0);
  // gate.json, read back through its one reader, has the same cells.
  const auto stored = results::load_gate_store(m_request.run_dir / "gate.json");
  EXPECT_EQ(stored.cells.size(), result.cells.size());
  EXPECT_TRUE(stored.finished);
}

TEST_F(GateTest, AnExpectedBuildBreakIsXfailAndTheKnownBadSeriesHolds) {
  put_file(m_series / "expect", "fail: per-patch toy: mm/broken.c:3: oops\n");
  m_builds.failing = {1};  // patch 2/2
  const auto result = gate();
  ASSERT_EQ(result.verdicts.size(), 1u);
  const auto& verdict = result.verdicts[0];
  EXPECT_TRUE(verdict.known_bad);
  EXPECT_EQ(verdict.outcome, results::Outcome::k_xfail);
  EXPECT_TRUE(result.ok());
  const auto* per_patch = cell(result, "per-patch toy");
  ASSERT_NE(per_patch, nullptr);
  EXPECT_EQ(per_patch->status, results::Outcome::k_fail);
  EXPECT_EQ(verdict.outcome_of("per-patch toy", results::Outcome::k_error),
            results::Outcome::k_xfail);
}

TEST_F(GateTest, AnUnexpectedBuildBreakFailsTheGate) {
  m_builds.failing = {1};  // patch 2/2
  const auto result = gate();
  EXPECT_FALSE(result.ok());
  ASSERT_EQ(result.verdicts.size(), 1u);
  EXPECT_EQ(result.verdicts[0].outcome_of("per-patch toy", results::Outcome::k_error),
            results::Outcome::k_fail);
  EXPECT_NE(render_gate(result).find("patch 2/2 'demo: add c.c' does not build"), std::string::npos)
      << render_gate(result);
}

// Every cell names the kseries build that judged it. A resumed gate keeps a
// reused cell's verdict, and with it the build that gave it: the report says
// when its cells were judged by more than one build.
TEST_F(GateTest, EveryCellNamesTheBuildThatJudgedItAndAMixedResumeSaysSo) {
  m_request.judged_by = "aaa1111";
  const auto first = gate();
  ASSERT_FALSE(first.cells.empty());
  for (const auto& c : first.cells) {
    EXPECT_EQ(c.properties.at("judged_by"), "aaa1111") << c.cell;
  }
  EXPECT_NE(render_gate(first).find("\njudged by kseries aaa1111\n"), std::string::npos)
      << render_gate(first);

  m_request.judged_by = "bbb2222";
  m_request.resume = m_request.run_dir / "gate.json";
  m_request.run_dir = m_tmp / "run2";
  fs::create_directories(m_request.run_dir);
  const auto second = gate();
  ASSERT_GT(second.reused, 0u);
  const auto* per_patch = cell(second, "per-patch toy");
  ASSERT_NE(per_patch, nullptr);
  EXPECT_EQ(per_patch->properties.at("judged_by"), "aaa1111");  // reused
  const auto* apply = cell(second, "apply");
  ASSERT_NE(apply, nullptr);
  EXPECT_EQ(apply->properties.at("judged_by"), "bbb2222");  // run again
  const std::string text = render_gate(second);
  EXPECT_NE(text.find("judged by 2 builds of kseries: "), std::string::npos) << text;
  EXPECT_NE(text.find("aaa1111 (" + std::to_string(second.reused) + " cell(s))"), std::string::npos)
      << text;
  // Read back from gate.json, as merge reads a shard.
  const auto stored = results::load_gate_store(m_request.run_dir / "gate.json");
  EXPECT_EQ(judged_by_line(stored.cells), judged_by_line(second.cells));
  // A gate whose cells name no build says nothing of it.
  std::vector<results::CellResult> unnamed(1);
  EXPECT_EQ(judged_by_line(unnamed), "");
  unnamed.push_back(*apply);
  EXPECT_NE(judged_by_line(unnamed).find("not recorded (1 cell(s))"), std::string::npos);
}

// An infrastructure error in a stage is that stage's error cell, whichever
// the stage (the per-patch builds and checkpatch once stopped the whole
// gate): the series is judged ERROR, and the gate goes on.
TEST_F(GateTest, AnErrorInAStageIsAnErrorCellAndTheGateGoesOn) {
  m_builds.throwing = {0};
  const auto result = gate();
  const auto* per_patch = cell(result, "per-patch toy");
  ASSERT_NE(per_patch, nullptr);
  EXPECT_EQ(per_patch->status, results::Outcome::k_error);
  EXPECT_EQ(per_patch->summary, "make: No space left on device");
  ASSERT_EQ(result.verdicts.size(), 1u);
  EXPECT_EQ(result.verdicts[0].outcome, results::Outcome::k_error);
  EXPECT_EQ(result.outcome, results::Outcome::k_error);
  EXPECT_NE(render_gate(result).find("verdict: ERROR"), std::string::npos) << render_gate(result);
  EXPECT_NE(render_gate(result).find("gate: ERROR"), std::string::npos);
}

// A bug in kseries (any exception but kseries' own Error) inside a stage is
// that cell's error too, named as kseries' own, and the gate ends with its
// verdict (it threw std::out_of_range out of run_gate before).
TEST_F(GateTest, ABugInKseriesInAStageIsAnErrorCellAndTheGateGoesOn) {
  m_builds.buggy = {0};
  // What the stage left before the bug: the error cell links it.
  const fs::path left = m_request.run_dir / "cells" / file_safe("demo/v1-per-patch toy");
  fs::create_directories(left);
  const auto result = gate();
  const auto* per_patch = cell(result, "per-patch toy");
  ASSERT_NE(per_patch, nullptr);
  EXPECT_EQ(per_patch->status, results::Outcome::k_error);
  EXPECT_NE(per_patch->summary.find("kseries internal error"), std::string::npos)
      << per_patch->summary;
  EXPECT_NE(per_patch->summary.find("basic_string::substr"), std::string::npos);
  ASSERT_EQ(per_patch->properties.count("run_dir"), 1u);
  EXPECT_EQ(per_patch->properties.at("run_dir"), left.string());
  EXPECT_EQ(result.outcome, results::Outcome::k_error);
  EXPECT_NE(render_gate(result).find("gate: ERROR"), std::string::npos);
}

}  // namespace
}  // namespace kseries::gate
