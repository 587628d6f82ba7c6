#include "results/session_record.h"

#include <gtest/gtest.h>

#include <climits>

#include "core/error.h"
#include "core/json_text.h"
#include "testing/temp_dir.h"

namespace kseries::results {
namespace {

using json = nlohmann::json;

// Every field set, none to its default.
SessionRecord full_record() {
  SessionRecord r;
  r.target = "pmem";
  r.test_case = "memmap-timing";
  r.accel = "tcg";
  r.accel_note = "TCG (--accel tcg)";
  r.clock = "icount";
  r.boots_per_kernel = 2;
  r.pmem = "fsdax";
  r.pmem_size = "4G";
  r.interleaved = true;
  r.run_dir = "/runs/r1";
  r.layouts = {"aligned: 2048M at 4096M"};
  r.memory_model = "ddr4-2400";
  r.oracle = {{"v10 vs base", 1, "devdax-mem", "fail", "field flags at pfn 0x100003"}};
  r.boots = {{"v10",
              "candidate",
              1,
              "tcg",
              8.5,
              "exit 0",
              true,
              "/runs/r1/v10-1.console.log",
              "/runs/r1/v10-1.protocol.log",
              {"qemu-system-x86_64", "-m", "2G"},
              {{"oops", 12, "BUG: unable to handle page fault", "devdax-mem unbind"}},
              {"no result for fsdax-mem"},
              1}};
  r.flaky_baseline = {
      {"base", "base", 1, 1, "/runs/r1/base-1.console.log", {{"warn", 0, "WARNING: x", ""}}}};
  KernelRecord k{"candidate", std::string(40, 'c'), "k1", "/k/bzImage", 2, {}, {}};
  k.setups["fsdax-mem"]["memmap_init_vns"] = {
      "vns", {120, 121}, {100, 101, 99},
      {7},   32768,      {3, 100, 100, 100, 1, IntervalRecord{99, 101}}};
  k.memory_traffic["fsdax-mem"] = {3, 3, 1000, 2000, 3000, 4};
  r.kernels["v10"] = k;
  r.comparison = {{"fsdax-mem", "memmap_init_vns", "vns", 0.5, -0.5, 0.03,
                   IntervalRecord{0.49, 0.51}, "faster", "-50%"}};
  r.power = {{"fsdax-mem", "memmap_init_vns", "vns", 0.002, "0.2 % detectable"}};
  r.failed = true;
  return r;
}

// results.json as the session writer has always written it: the names
// ci/calibrate-memory, the black-box tests (jq) and older runs' files use.
const char* const k_written = R"json({
  "target": "pmem", "case": "memmap-timing", "accel": "tcg", "accel_note": "TCG (--accel tcg)",
  "clock": "icount", "boots_per_kernel": 2, "pmem": "fsdax", "pmem_size": "4G",
  "interleaved": true, "run_dir": "/runs/r1", "layouts": ["aligned: 2048M at 4096M"],
  "memory_model": "ddr4-2400", "failed": true,
  "oracle": [{"kernel": "v10 vs base", "round": 1, "setup": "devdax-mem", "status": "fail",
              "summary": "field flags at pfn 0x100003"}],
  "boots": [{"kernel": "v10", "role": "candidate", "round": 1, "accel": "tcg", "seconds": 8.5,
             "qemu": "exit 0", "powered_off": true, "console": "/runs/r1/v10-1.console.log",
             "protocol": "/runs/r1/v10-1.protocol.log", "argv": ["qemu-system-x86_64", "-m", "2G"],
             "findings": [{"kind": "oops", "line": 12, "title": "BUG: unable to handle page fault",
                           "during": "devdax-mem unbind"}],
             "problems": ["no result for fsdax-mem"], "rerun": 1}],
  "flaky_baseline": [{"kernel": "base", "role": "base", "round": 1, "rerun": 1,
                      "console": "/runs/r1/base-1.console.log",
                      "findings": [{"kind": "warn", "title": "WARNING: x"}]}],
  "kernels": {"v10": {"role": "candidate", "commit": "cccccccccccccccccccccccccccccccccccccccc",
                      "kernel": "k1", "bzImage": "/k/bzImage", "boots": 2,
                      "setups": {"fsdax-mem": {"memmap_init_vns": {
                        "unit": "vns", "first": [120.0, 121.0], "rebinds": [100.0, 101.0, 99.0],
                        "probe": [7.0], "pages": 32768.0,
                        "summary": {"n": 3, "mean": 100.0, "median": 100.0, "trimmed_mean": 100.0,
                                    "stddev": 1.0, "ci95": [99.0, 101.0]}}}},
                      "memory_traffic": {"fsdax-mem": {"rebinds": 3, "windows": 3, "insns": 1000,
                                                       "dram_read": 2000, "dram_write": 3000,
                                                       "nt_stores": 4}}}},
  "comparison": [{"setup": "fsdax-mem", "metric": "memmap_init_vns", "unit": "vns", "ratio": 0.5,
                  "relative_change": -0.5, "ci95": [0.49, 0.51], "p": 0.03, "verdict": "faster",
                  "reason": "-50%"}],
  "power": [{"setup": "fsdax-mem", "metric": "memmap_init_vns", "unit": "vns",
             "detectable_change": 0.002, "summary": "0.2 % detectable"}]
})json";

// The writer and the reader spell each key alike: what is written reads
// back whole, in memory and through the file's text.
TEST(SessionRecordTest, WhatIsWrittenReadsBackWhole) {
  const auto record = full_record();
  EXPECT_EQ(session_record_from(to_json(record)), record);
  EXPECT_EQ(session_record_from(parse_json_text(json_text(to_json(record)))), record);
}

// Renaming a key on one side fails here: the writer against the names the
// file has always had, the reader against the same text.
TEST(SessionRecordTest, TheKeysAreTheOnesResultsJsonAlwaysHad) {
  const auto written = parse_json_text(k_written);
  ASSERT_FALSE(written.is_discarded());
  EXPECT_EQ(to_json(full_record()), written) << to_json(full_record()).dump(1);
  EXPECT_EQ(session_record_from(written), full_record());
}

// No list key for an empty list; a kernel without timing has null setups;
// a skipped session is its target, case and why alone.
TEST(SessionRecordTest, EmptyListsAndSkippedSessionsAreWrittenAsBefore) {
  SessionRecord r;
  r.target = "pmem";
  r.test_case = "demo";
  r.kernels["base"].role = "base";
  const json out = to_json(r);
  for (const char* absent :
       {"oracle", "boots", "flaky_baseline", "comparison", "power", "layouts", "memory_model"}) {
    EXPECT_FALSE(out.contains(absent)) << absent;
  }
  EXPECT_TRUE(out["kernels"]["base"]["setups"].is_null());
  EXPECT_FALSE(out["kernels"]["base"].contains("memory_traffic"));
  r.skipped = "every setup asked for is one target pmem cannot do";
  EXPECT_EQ(to_json(r), json({{"target", "pmem"},
                              {"case", "demo"},
                              {"skipped", "every setup asked for is one target pmem cannot do"}}));
  EXPECT_EQ(session_record_from(to_json(r)).skipped, r.skipped);
}

std::string refusal(const std::string& text) {
  try {
    session_record_from(parse_json_text(text));
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::k_usage);
    return e.what();
  }
  return "(accepted)";
}

TEST(SessionRecordTest, AValueOfTheWrongTypeIsNamedByWhereItIs) {
  EXPECT_EQ(refusal(R"([1])"), "the file: an object expected, not array");
  EXPECT_EQ(refusal(R"({"boots": "x"})"), "boots: an array expected, not string");
  EXPECT_EQ(refusal(R"({"kernels": [1]})"), "kernels: an object expected, not array");
  EXPECT_EQ(refusal(R"({"kernels": "k"})"), "kernels: an object expected, not string");
  EXPECT_EQ(refusal(R"({"boots": [{"round": "1"}]})"),
            "boots[0].round: a number expected, not string");
  EXPECT_EQ(refusal(R"({"boots": [{}, 5]})"), "boots[1]: an object expected, not number");
  EXPECT_EQ(refusal(R"({"kernels": {"b": {"setups": {"s": {"m": {"rebinds": [1, "x"]}}}}}})"),
            "kernels.b.setups.s.m.rebinds[1]: a number expected, not string");
  EXPECT_EQ(refusal(R"({"comparison": [{"ci95": [1, {}]}]})"),
            "comparison[0].ci95[1]: a number expected, not object");
  EXPECT_EQ(refusal(R"({"failed": "no"})"), "failed: true or false expected, not string");
  EXPECT_EQ(refusal(R"({"boots": [{"argv": [1]}]})"),
            "boots[0].argv[0]: a string expected, not number");
}

TEST(SessionRecordTest, WhatIsAbsentOrNullOrOutOfRangeTakesTheDefault) {
  EXPECT_EQ(session_record_from(json::object()), SessionRecord{});
  const auto r = session_record_from(parse_json_text(R"({
    "target": null, "kernels": {"b": {"setups": null, "boots": 1e308}},
    "comparison": [{"p": null, "ci95": [null, 2], "relative_change": 0.1}],
    "boots": [{"round": -1e308, "seconds": null, "problems": [{"x": 1}, 3]}],
    "power": [{}],
    "kernels2": 5})"));
  EXPECT_EQ(r.target, "");
  EXPECT_TRUE(r.kernels.at("b").setups.empty());
  EXPECT_EQ(r.kernels.at("b").boots, INT_MAX);
  ASSERT_EQ(r.comparison.size(), 1u);
  EXPECT_EQ(r.comparison[0].verdict, "unknown");  // never a pass by default
  EXPECT_FALSE(r.comparison[0].p.has_value());
  EXPECT_TRUE(std::isnan(r.comparison[0].ci95->low));
  EXPECT_EQ(r.comparison[0].ci95->high, 2);
  EXPECT_EQ(r.boots.at(0).round, INT_MIN);
  EXPECT_EQ(r.boots.at(0).seconds, 0);
  EXPECT_EQ(r.boots.at(0).problems, (std::vector<std::string>{R"({"x":1})", "3"}));
  EXPECT_EQ(r.power.at(0).detectable_change, -1);
  const auto n = [](const std::string& value) {
    return session_record_from(
               parse_json_text(R"({"kernels": {"b": {"setups": {"s": {"m": {"summary": {"n": )" +
                               value + "}}}}}}}"))
        .kernels.at("b")
        .setups.at("s")
        .at("m")
        .summary.n;
  };
  EXPECT_EQ(n("4"), 4u);
  EXPECT_EQ(n("-4"), 0u);
  EXPECT_EQ(n("1e308"), 0u);  // an edited file: not a billion samples
}

TEST(SessionRecordTest, AFileIsNamedWithItsLabelAndAnUnreadableOneIsNone) {
  testing::TempDir tmp;
  EXPECT_FALSE(read_session_file(tmp.path() / "results.json").has_value());
  testing::put_file(tmp.path() / "results.json", "{\"case\": \"demo\", \"kern");
  EXPECT_FALSE(read_session_file(tmp.path() / "results.json").has_value());  // cut off
  testing::put_file(tmp.path() / "results.json", R"({"case": "demo"})");
  EXPECT_EQ(read_session_file(tmp.path() / "results.json")->test_case, "demo");
  testing::put_file(tmp.path() / "results.json", R"({"kernels": [1]})");
  try {
    read_session_file(tmp.path() / "results.json", " (cell s/v2: pmem demo)");
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              (tmp.path() / "results.json").string() +
                  " (cell s/v2: pmem demo): a value of the wrong type: kernels: an object "
                  "expected, not array");
  }
  // A huge file is refused before it is parsed, naming it.
  testing::put_file(tmp.path() / "results.json",
                    "{\"boots\": [" + std::string(std::size_t{65} << 20, ' ') + "]}");
  try {
    read_session_file(tmp.path() / "results.json");
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find((tmp.path() / "results.json").string()), std::string::npos)
        << e.what();
  }
}

TEST(SessionRecordTest, ABootIsOneSessionOrOnePerClock) {
  testing::TempDir tmp;
  const auto file = tmp.path() / "results.json";
  testing::put_file(file, R"({"target": "pmem", "case": "demo"})");
  auto sessions = read_boot_results(file);
  ASSERT_EQ(sessions.size(), 1u);
  EXPECT_EQ(sessions[0].first, "");
  EXPECT_EQ(sessions[0].second.target, "pmem");
  testing::put_file(file, R"({"icount": {"case": "demo"}, "wall": {"case": "demo"}, "x": 1})");
  sessions = read_boot_results(file);
  ASSERT_EQ(sessions.size(), 2u);
  EXPECT_EQ(sessions[1].first, "wall");
  testing::put_file(file, R"({"icount": {"case": "demo", "boots": 1}})");
  EXPECT_THROW(read_boot_results(file), Error);
  testing::put_file(file, "[1]");
  EXPECT_THROW(read_boot_results(file), Error);
}

}  // namespace
}  // namespace kseries::results
