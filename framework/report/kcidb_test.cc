#include "report/kcidb.h"

#include <gtest/gtest.h>

#include "testing/sample_run.h"

namespace kseries::report {
namespace {

using json = nlohmann::json;

const json* find_by(const json& list, const std::string& key, const std::string& value) {
  for (const auto& item : list) {
    if (item.value(key, "") == value) {
      return &item;
    }
  }
  return nullptr;
}

TEST(KcidbTest, PatchsetHashIsTheSha256OfTheNewlineTerminatedPatchHashes) {
  // sha256sum a.patch b.patch | cut -c-64 | sha256sum, with a.patch "one\n"
  // and b.patch "two\n".
  EXPECT_EQ(patchset_hash({"2c8b08da5ce60398e1f19af0e5dccc744df274b826abe585eaba68c525434806",
                           "27dd8ed44a83ff94d557f9fd0412ed5a8cbca69ea04922d88c01184a07300a5a"}),
            "a50bf38ac5895077796ec5aaebcc94163ceb75563de42cf017e749178f4ad333");
  EXPECT_EQ(patchset_hash({}), "");
}

TEST(KcidbTest, OneCheckoutPerRevisionWithItsPatchset) {
  const json k = render_kcidb(testing::sample_gate_run());
  EXPECT_EQ(k["version"]["major"], 5);
  EXPECT_EQ(k["version"]["minor"], 3);
  ASSERT_EQ(k["checkouts"].size(), 2u);
  const json& v2 = k["checkouts"][0];
  EXPECT_EQ(v2["id"], "kseries:r1:demo/v2");
  EXPECT_EQ(v2["origin"], "kseries");
  EXPECT_EQ(v2["git_commit_hash"], "a37409fe4ed9764415b222248aba3dd2ec461db1");
  EXPECT_EQ(v2["valid"], true);
  ASSERT_EQ(v2["patchset_files"].size(), 2u);
  EXPECT_EQ(v2["patchset_files"][0]["name"], "0001-a.patch");
  EXPECT_EQ(v2["patchset_files"][0]["url"], "file:///series/demo/v2/0001-a.patch");
  EXPECT_EQ(v2["patchset_hash"], patchset_hash({std::string(64, '1'), std::string(64, '2')}));
  EXPECT_EQ(k["checkouts"][1]["misc"]["verdict"], "expected");
}

TEST(KcidbTest, BuildsPerPatchAndPerTargetWithStatusAndDuration) {
  const json k = render_kcidb(testing::sample_gate_run());
  const json* first = find_by(k["builds"], "id", "kseries:r1:demo/v2:per-patch:toy:1");
  ASSERT_NE(first, nullptr) << k["builds"].dump(1);
  EXPECT_EQ((*first)["status"], "PASS");
  EXPECT_EQ((*first)["config_name"], "toy");
  EXPECT_DOUBLE_EQ((*first)["duration"].get<double>(), 12.5);
  EXPECT_EQ((*first)["log_url"], "file:///runs/r1/build-demo-v2-toy-1.log");
  const json* second = find_by(k["builds"], "id", "kseries:r1:demo/v2:per-patch:toy:2");
  ASSERT_NE(second, nullptr);
  EXPECT_EQ((*second)["misc"]["new_warnings"], 1);
  EXPECT_NE((*second)["log_excerpt"].get<std::string>().find("unused variable"), std::string::npos);
  const json* tip = find_by(k["builds"], "id", "kseries:r1:demo/v2:toy");
  ASSERT_NE(tip, nullptr);
  EXPECT_EQ((*tip)["status"], "PASS");
  EXPECT_DOUBLE_EQ((*tip)["duration"].get<double>(), 300);
  // A target whose kernel did not build: a failed build with the error.
  const json* kasan = find_by(k["builds"], "id", "kseries:r1:demo/bad:kasan");
  ASSERT_NE(kasan, nullptr);
  EXPECT_EQ((*kasan)["status"], "FAIL");
  EXPECT_NE((*kasan)["log_excerpt"].get<std::string>().find("error: oops"), std::string::npos);
  // A skipped cell built nothing.
  EXPECT_EQ(find_by(k["builds"], "id", "kseries:r1:demo/v2:nopmem"), nullptr);
}

TEST(KcidbTest, TestsPerCellBootOracleAndTimingFigure) {
  const json k = render_kcidb(testing::sample_gate_run());
  const json* cell = find_by(k["tests"], "id", "kseries:r1:demo/v2:toy:memmap-timing");
  ASSERT_NE(cell, nullptr) << k["tests"].dump(1);
  EXPECT_EQ((*cell)["path"], "kseries.memmap-timing");
  EXPECT_EQ((*cell)["status"], "PASS");
  EXPECT_EQ((*cell)["build_id"], "kseries:r1:demo/v2:toy");
  const json* figure =
      find_by(k["tests"], "path", "kseries.memmap-timing.devdax-mem.memmap_init_vns");
  ASSERT_NE(figure, nullptr);
  EXPECT_EQ((*figure)["status"], "PASS");  // faster
  EXPECT_DOUBLE_EQ((*figure)["number"]["value"].get<double>(), 50);
  EXPECT_EQ((*figure)["number"]["unit"], "vns");
  EXPECT_DOUBLE_EQ((*figure)["misc"]["baseline_mean"].get<double>(), 100);
  EXPECT_DOUBLE_EQ((*figure)["misc"]["relative_change"].get<double>(), -0.5);
  const json* boot = find_by(k["tests"], "path", "kseries.memmap-timing.boot");
  ASSERT_NE(boot, nullptr);
  EXPECT_EQ((*boot)["log_url"], "file:///runs/r1/cells/t/candidate-1.console.log");
  // The known-bad revision's oracle failure: FAIL, the expected failure
  // marked, the first differing field and PFN in the comment.
  const json* oracle = find_by(k["tests"], "path", "kseries.memmap-equivalence.devdax-mem");
  ASSERT_NE(oracle, nullptr);
  EXPECT_EQ((*oracle)["status"], "FAIL");
  EXPECT_NE((*oracle)["comment"].get<std::string>().find("field flags at pfn 0x100003"),
            std::string::npos);
  const json* bad = find_by(k["tests"], "id", "kseries:r1:demo/bad:toy:memmap-equivalence");
  ASSERT_NE(bad, nullptr);
  EXPECT_EQ((*bad)["misc"]["expected_failure"], true);
  // Nothing is tested on a kernel that did not build.
  for (const auto& t : k["tests"]) {
    EXPECT_NE(t["build_id"], "kseries:r1:demo/bad:kasan");
  }
}

TEST(KcidbTest, HostileTextBecomesValidUtf8WithoutNulAndExcerptsAreBounded) {
  auto run = testing::sample_gate_run(std::string("demo: \x1b[31mred\xff\xe9 and a NUL ") + '\0' +
                                      " here");
  run.cells[0].status = results::Outcome::k_fail;
  run.cells[0].detail = std::string(40000, 'x') + "\xc3\xa9";
  const std::string text = render_kcidb(run).dump();  // throws on invalid UTF-8
  EXPECT_EQ(text.find("\\u0000"), std::string::npos);
  EXPECT_EQ(text.find("\\u001b"), std::string::npos);
  const json k = json::parse(text);
  EXPECT_EQ(k["checkouts"][0]["valid"], false);
  EXPECT_LE(k["checkouts"][0]["log_excerpt"].get<std::string>().size(), 16384u);
  EXPECT_NE(k["checkouts"][0]["comment"].get<std::string>().find("red\xef\xbf\xbd"),
            std::string::npos);
}

}  // namespace
}  // namespace kseries::report
