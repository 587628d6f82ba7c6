// For every bundled matrix: the cells a gate runs are the cells its plan
// has, and the shards of that plan together run exactly those cells.
#include "gate/plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/text.h"
#include "gate/gate.h"
#include "gate/merge.h"
#include "gate/shard.h"
#include "gate/stages.h"
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

// Every process answers "done", and a compiler's output file is made.
class DoneRunner : public ProcessRunner {
 public:
  ProcessResult run(const ProcessSpec& spec) override {
    for (std::size_t i = 0; i + 1 < spec.argv.size(); ++i) {
      if (spec.argv[i] == "-o") {
        write_file(spec.argv[i + 1], "");
      }
    }
    ProcessResult result;
    result.exit_code = 0;
    return result;
  }
};

class QuietStatus : public session::Status {
 public:
  void progress(const std::string&) override {}
};

// A toy tree and a two-patch series onto it, gated on a bundled matrix
// through a builder that builds nothing and processes that do nothing: each
// cell ends as it may (the boots fail), and every cell is recorded.
class PlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto toy = testing::make_toy_series(m_tmp.path());
    m_series = toy.series;
    m_base = m_store.borrow_commit(toy.repo, toy.base);
  }

  GateRequest request(const std::string& matrix, const std::string& run) {
    GateRequest request;
    request.base = m_base;
    request.base_label = "base/toy";
    request.matrix = load_matrix(testing::source_dir() / "kernel-configs",
                                 testing::source_dir() / "testcases", matrix);
    request.series = {m_series};
    request.run_dir = m_tmp / run;
    fs::create_directories(request.run_dir);
    return request;
  }

  // The cells of the series a gate recorded, in order.
  std::vector<std::string> gate(const GateRequest& request, const std::string& workdir) {
    testing::FakeBuilds builds;
    GateServices services{m_store, builds, m_runner, m_tmp / workdir};
    return cell_names(run_gate(request, services, m_status).cells);
  }

  static std::vector<std::string> cell_names(const std::vector<results::CellResult>& cells) {
    std::vector<std::string> out;
    for (const auto& cell : cells) {
      out.push_back(cell.cell);
    }
    return out;
  }

  // Every bundled matrix, and one with every kind of line they lack.
  std::vector<std::string> matrix_names() {
    const fs::path matrices = testing::source_dir() / "kernel-configs" / "matrices";
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(matrices)) {
      if (entry.path().extension() == ".matrix") {
        names.push_back(entry.path().stem().string());
      }
    }
    std::sort(names.begin(), names.end());
    EXPECT_GE(names.size(), 8u);
    put_file(m_tmp / "every-line.matrix",
             "per-patch: pmem\ncell: pmem memmap-timing\ncell: pmem-coverage memmap-equivalence\n"
             "per-patch-timing: pmem memmap-timing setups=fsdax-dev\n"
             "revision-regression: max=5\ncoverage: min=10\ncheckpatch: max-new-errors=0\n"
             "signoff: author\n");
    names.push_back((m_tmp / "every-line.matrix").string());
    return names;
  }

  git::Session m_session;
  testing::TempDir m_tmp;
  git::Store m_store{m_tmp / "store.git"};
  DoneRunner m_runner;
  QuietStatus m_status;
  fs::path m_series;
  git_oid m_base{};
};

TEST_F(PlanTest, EveryBundledMatrixRunsItsPlanAndItsShardsTogetherRunItOnce) {
  for (const auto& name : matrix_names()) {
    SCOPED_TRACE("matrix " + name);
    const auto single = request(name, fs::path(name).stem().string() + "-single");
    const std::vector<std::string> planned = make_gate_plan(single.matrix).names();
    EXPECT_EQ(make_plan(single.matrix, {}, 1).cells, planned);
    const auto ran = gate(single, fs::path(name).stem().string() + "-wd");
    EXPECT_EQ(ran, planned) << "the cells one gate ran are not its plan";
    // Three shards, then their merge: each planned cell run by exactly one
    // shard, or by the merge (after the series), in the single gate's order.
    constexpr int shards = 3;
    std::multiset<std::string> union_of_shards;
    std::vector<fs::path> dirs;
    for (int i = 1; i <= shards; ++i) {
      auto share = request(name, fs::path(name).stem().string() + "-shard" + std::to_string(i));
      share.share = Share{make_plan(share.matrix, {}, shards), i};
      for (const auto& cell :
           gate(share, fs::path(name).stem().string() + "-wd" + std::to_string(i))) {
        union_of_shards.insert(cell);
      }
      dirs.push_back(share.run_dir);
    }
    for (const auto& cell : make_gate_plan(single.matrix).cells) {
      if (cell.stage->placement() == Placement::k_after_series) {
        union_of_shards.insert(cell.name());  // the merge's
      }
    }
    EXPECT_EQ(union_of_shards, std::multiset<std::string>(planned.begin(), planned.end()))
        << "the shards together did not run the plan once";
    EXPECT_EQ(cell_names(merge_shards(dirs).gate.cells), ran) << "the merge is not the single gate";
  }
}

// A cell's word is written by its stage's kind and read back (a merge
// reading its shards, --resume reading an earlier run) to the same cell of
// the same stage: every stage's kind is registered where it is declared.
TEST_F(PlanTest, EveryPlannedCellReadsBackAsItsStagesCell) {
  std::set<const Stage*> seen;
  for (const auto& name : matrix_names()) {
    SCOPED_TRACE("matrix " + name);
    const auto matrix = load_matrix(testing::source_dir() / "kernel-configs",
                                    testing::source_dir() / "testcases", name);
    for (const auto& cell : make_gate_plan(matrix).cells) {
      const auto parsed = results::CellId::parse(cell.name());
      ASSERT_TRUE(parsed.has_value()) << cell.name();
      EXPECT_EQ(*parsed, cell.id) << cell.name();
      EXPECT_EQ(stage_of(*parsed), cell.stage) << cell.name();
      EXPECT_EQ(cell.stage->kind(), cell.id.kind) << cell.name();
      seen.insert(cell.stage);
    }
  }
  // Every stage but one that a matrix key of its own turns on (a new stage
  // need not be written into the every-line matrix; signoff is).
  for (const Stage* stage : gate_stages()) {
    EXPECT_TRUE(seen.contains(stage) || !stage->matrix_key().empty())
        << "no matrix here plans the stage of '" << stage->kind().word << "'";
  }
}

}  // namespace
}  // namespace kseries::gate
