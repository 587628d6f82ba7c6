#include "testing/sample_run.h"

#include "results/facts.h"
#include "results/session_record.h"

namespace kseries::testing {

using json = nlohmann::json;

namespace {

json samples(std::vector<double> rebinds, double mean, const std::string& unit) {
  return {{"rebinds", rebinds},
          {"unit", unit},
          {"summary",
           {{"n", rebinds.size()},
            {"mean", mean},
            {"median", mean},
            {"stddev", 0.01 * mean},
            {"ci95", {0.995 * mean, 1.005 * mean}}}}};
}

json timing_session(const std::string& series) {
  return {{"case", "memmap-timing"},
          {"target", "toy"},
          {"clock", "icount"},
          {"accel_note", "TCG (--accel tcg)"},
          {"failed", false},
          {"kernels",
           {{"base",
             {{"role", "base"},
              {"commit", std::string(40, 'a')},
              {"setups",
               {{"devdax-mem", {{"memmap_init_vns", samples({100, 101, 99, 100}, 100, "vns")}}}}}}},
            {series,
             {{"role", "candidate"},
              {"commit", std::string(40, 'c')},
              {"setups",
               {{"devdax-mem", {{"memmap_init_vns", samples({50, 51, 49, 50}, 50, "vns")}}}}}}}}},
          {"comparison",
           {{{"setup", "devdax-mem"},
             {"metric", "memmap_init_vns"},
             {"unit", "vns"},
             {"ratio", 0.5},
             {"relative_change", -0.5},
             {"ci95", {0.49, 0.51}},
             {"p", 0.03},
             {"verdict", "faster"},
             {"reason", "-50% [-51%, -49%], p=0.03"}}}},
          {"boots",
           {{{"kernel", "base"},
             {"role", "base"},
             {"round", 1},
             {"seconds", 8.5},
             {"qemu", "exit 0"},
             {"powered_off", true},
             {"console", "/runs/r1/cells/t/base-1.console.log"},
             {"protocol", "/runs/r1/cells/t/base-1.protocol.log"},
             {"findings", json::array()},
             {"problems", json::array()}},
            {{"kernel", series},
             {"role", "candidate"},
             {"round", 1},
             {"seconds", 7.5},
             {"qemu", "exit 0"},
             {"powered_off", true},
             {"console", "/runs/r1/cells/t/candidate-1.console.log"},
             {"protocol", "/runs/r1/cells/t/candidate-1.protocol.log"},
             {"findings", json::array()},
             {"problems", json::array()}}}}};
}

json equivalence_session(const std::string& series) {
  return {{"case", "memmap-equivalence"},
          {"target", "toy"},
          {"failed", true},
          {"kernels", {{series, {{"role", "candidate"}, {"commit", std::string(40, 'd')}}}}},
          {"oracle",
           {{{"kernel", series},
             {"round", 1},
             {"setup", "devdax-mem"},
             {"status", "fail"},
             {"summary",
              "fast path differs from slow path: 7 page(s), first: field flags at pfn 0x100003 "
              "(tail 3 of head 0x100000)"}}}},
          {"boots",
           {{{"kernel", series},
             {"role", "candidate"},
             {"round", 1},
             {"seconds", 9.0},
             {"qemu", "exit 0"},
             {"powered_off", true},
             {"console", "/runs/r1/cells/e/candidate-1.console.log"},
             {"findings", json::array()},
             {"problems", json::array()}}}}};
}

report::RunCell cell(const std::string& series, const std::string& name, results::Outcome status,
                     const std::string& summary) {
  report::RunCell c;
  c.series = series;
  c.cell = name;
  c.status = status;
  c.summary = summary;
  c.detail = summary + "\n";
  c.seconds = 3;
  return c;
}

results::SeriesVerdict verdict(const std::string& series, results::Outcome outcome, bool known_bad,
                               std::vector<results::Reason> reasons,
                               std::vector<results::CellVerdict> outcomes) {
  results::SeriesVerdict v;
  v.series = series;
  v.outcome = outcome;
  v.known_bad = known_bad;
  v.reasons = std::move(reasons);
  v.outcomes = std::move(outcomes);
  return v;
}

}  // namespace

report::RunRecord sample_gate_run(const std::string& subject) {
  report::RunRecord run;
  run.kind = "gate";
  run.dir = "/runs/r1";
  run.started = "2026-12-01T01:02:03Z";
  run.base_commit = "a37409fe4ed9764415b222248aba3dd2ec461db1";
  run.base_label = "base/linux-source-6.12";
  run.finished = true;
  run.outcome = results::Outcome::k_pass;
  run.time = {{"apply", 1}, {"cells (build, boot, judge)", 40}};
  run.series.push_back({"demo/v2",
                        "/series/demo/v2",
                        {{"/series/demo/v2/0001-a.patch", subject, std::string(64, '1')},
                         {"/series/demo/v2/0002-b.patch", "demo: use it", std::string(64, '2')}},
                        verdict("demo/v2", results::Outcome::k_pass, false, {}, {})});
  run.series.push_back(
      {"demo/bad",
       "/series/demo/bad",
       {{"/series/demo/bad/0001-a.patch", "demo: a bad one", std::string(64, '3')}},
       verdict(
           "demo/bad", results::Outcome::k_xfail, true,
           {{results::ReasonKind::k_expectation_holds, "toy memmap-equivalence", "field flags"}},
           {{"apply", results::Outcome::k_pass},
            {"toy memmap-equivalence", results::Outcome::k_xfail},
            {"kasan memmap-equivalence", results::Outcome::k_fail}})});

  auto apply = cell("demo/v2", "apply", results::Outcome::k_pass, "2 patch(es) applied");
  apply.properties = {{"tip", std::string(40, 'c')},
                      {results::patch_fact_key(1, results::PatchFact::k_apply), "applied"},
                      {results::patch_fact_key(2, results::PatchFact::k_apply), "applied"}};
  run.cells.push_back(apply);
  auto checkpatch =
      cell("demo/v2", "checkpatch", results::Outcome::k_pass, "0 error(s), 1 warning(s)");
  checkpatch.detail = "patch 1/2 '" + subject + "': WARNING:TODO: a TODO was added\n";
  checkpatch.properties = {{results::patch_fact_key(1, results::PatchFact::k_errors), "0"},
                           {results::patch_fact_key(1, results::PatchFact::k_warnings), "1"},
                           {results::patch_fact_key(1, results::PatchFact::k_checks), "0"},
                           {results::patch_fact_key(2, results::PatchFact::k_errors), "0"},
                           {results::patch_fact_key(2, results::PatchFact::k_warnings), "0"},
                           {results::patch_fact_key(2, results::PatchFact::k_checks), "0"}};
  run.cells.push_back(checkpatch);
  auto per_patch =
      cell("demo/v2", "per-patch toy", results::Outcome::k_pass, "every patch builds (2)");
  per_patch.detail = "patch 2/2 adds a warning: a.c: unused variable 'x'\n";
  per_patch.properties = {
      {results::patch_fact_key(1, results::PatchFact::k_build), "built"},
      {results::patch_fact_key(1, results::PatchFact::k_seconds), "12.5"},
      {results::patch_fact_key(1, results::PatchFact::k_log), "/runs/r1/build-demo-v2-toy-1.log"},
      {results::patch_fact_key(1, results::PatchFact::k_warnings), "3"},
      {results::patch_fact_key(1, results::PatchFact::k_new_warnings), "0"},
      {results::patch_fact_key(2, results::PatchFact::k_build), "built"},
      {results::patch_fact_key(2, results::PatchFact::k_seconds), "4"},
      {results::patch_fact_key(2, results::PatchFact::k_warnings), "4"},
      {results::patch_fact_key(2, results::PatchFact::k_new_warnings), "1"}};
  run.cells.push_back(per_patch);
  auto timing =
      cell("demo/v2", "toy memmap-timing", results::Outcome::k_pass, "4 testcase(s) pass");
  timing.dir = "/runs/r1/cells/t";
  timing.properties = {
      {"run_dir", "/runs/r1/cells/t"},
      {results::kernel_fact_key("candidate", results::KernelFact::k_kernel), "k1"},
      {results::kernel_fact_key("candidate", results::KernelFact::k_seconds), "300"},
      {results::kernel_fact_key("candidate", results::KernelFact::k_compiler), "gcc 12.2"}};
  timing.session = results::session_record_from(timing_session("demo/v2"));
  timing.booted = true;
  run.cells.push_back(timing);
  run.cells.push_back(cell("demo/v2", "nopmem memmap-timing", results::Outcome::k_skip,
                           "target nopmem lacks 'pmem'"));

  run.cells.push_back(cell("demo/bad", "apply", results::Outcome::k_pass, "1 patch(es) applied"));
  auto equivalence = cell("demo/bad", "toy memmap-equivalence", results::Outcome::k_fail,
                          "oracle devdax-mem #1: fast path differs: first: field flags at pfn "
                          "0x100003");
  equivalence.dir = "/runs/r1/cells/e";
  equivalence.properties = {
      {"run_dir", "/runs/r1/cells/e"},
      {results::kernel_fact_key("candidate", results::KernelFact::k_kernel), "k2"}};
  equivalence.session = results::session_record_from(equivalence_session("demo/bad"));
  equivalence.booted = true;
  run.cells.push_back(equivalence);
  auto broken = cell("demo/bad", "kasan memmap-equivalence", results::Outcome::k_fail,
                     "the candidate kernel does not build: mm/x.c:3: error: oops");
  run.cells.push_back(broken);
  return run;
}

}  // namespace kseries::testing
