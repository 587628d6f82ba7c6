#include "oracle/equivalence.h"

#include <gtest/gtest.h>

#include "oracle/synthetic_dump.h"

namespace kseries::oracle {
namespace {

SetupDumps correct_setup() {
  SetupDumps d;
  d.setup = "devdax-mem";
  d.fast = make_synthetic_dump({});
  d.slow = make_synthetic_dump({});
  d.slow->header().set(Word::k_tracepoint_on_at_init, 1);
  d.slow_trace_events = min_slow_path_events(*d.slow);
  d.unwritten = make_synthetic_dump({});
  d.unwritten->header().set(Word::k_unwritten_pfn, 0x100201);
  d.unwritten->set_page(0x100201, std::string(64, '\xc3'));
  return d;
}

TEST(OracleEquivalence, ACorrectSetupPasses) {
  const SetupVerdict v = judge_setup(correct_setup());
  EXPECT_EQ(v.status, VerdictStatus::k_pass) << v.summary << "\n" << v.details;
  EXPECT_NE(v.summary.find("unwritten pfn 0x100201 detected"), std::string::npos) << v.summary;
}

TEST(OracleEquivalence, NoSlowPathEventCountIsNotAPass) {
  SetupDumps d = correct_setup();
  d.slow_trace_events.reset();  // a series that ignores the tracepoint would compare fast with fast
  const SetupVerdict v = judge_setup(d);
  EXPECT_EQ(v.status, VerdictStatus::k_fail);
  EXPECT_NE(v.summary.find("no page_ref_set event count for the slow bind"), std::string::npos)
      << v.summary;
}

TEST(OracleEquivalence, AnUnwrittenDumpWithoutPoisonFailsTheProof) {
  SetupDumps d = correct_setup();
  d.unwritten = make_synthetic_dump({});  // claims a forgotten page, shows none
  d.unwritten->header().set(Word::k_unwritten_pfn, 0x100201);
  const SetupVerdict v = judge_setup(d);
  EXPECT_EQ(v.status, VerdictStatus::k_fail);
  EXPECT_NE(v.summary.find("the oracle missed the page left unwritten"), std::string::npos)
      << v.summary;
}

TEST(OracleEquivalence, TooFewSlowPathEventsMeanTheFastPathRanTraced) {
  SetupDumps d = correct_setup();
  EXPECT_EQ(min_slow_path_events(*d.slow), 4U * 128);  // vmemmap-optimised compound pages
  d.slow_trace_events = 4118 % 512;
  const SetupVerdict v = judge_setup(d);
  EXPECT_EQ(v.status, VerdictStatus::k_fail);
  EXPECT_NE(v.summary.find("the fast path ran with the tracepoint on"), std::string::npos)
      << v.summary;
  d.slow_trace_events = 4 * 128 * 2 + 8;
  EXPECT_EQ(judge_setup(d).status, VerdictStatus::k_pass);
}

// A fast dump taken with page_ref_set on fails, unless the guest saw the
// tracepoint enabled from outside the case (trace_event= on the command
// line): then the fast bind was a slow bind by the series' contract and the
// verdict is settled on the evidence of which path ran.
TEST(OracleEquivalence, AFastDumpWithTheTracepointOnFailsUnlessItWasOnFromOutside) {
  SetupDumps d = correct_setup();
  d.fast->header().set(Word::k_tracepoint_on_at_init, 1);
  SetupVerdict v = judge_setup(d);
  EXPECT_EQ(v.status, VerdictStatus::k_fail);
  EXPECT_NE(v.summary.find("the fast dump's init ran with page_ref_set on"), std::string::npos)
      << v.summary;
  d.traced_from_outside = true;
  v = judge_setup(d);
  EXPECT_EQ(v.status, VerdictStatus::k_pass) << v.summary;
  EXPECT_NE(v.summary.find("page_ref_set was on from outside the case"), std::string::npos)
      << v.summary;
}

TEST(OracleEquivalence, AFastPathThatDiffersFails) {
  SetupDumps d = correct_setup();
  std::string page(*d.fast->page(0x100005));
  page[0x20] = 0x02;  // index of tail 5
  d.fast->set_page(0x100005, page);
  const SetupVerdict v = judge_setup(d);
  EXPECT_EQ(v.status, VerdictStatus::k_fail);
  EXPECT_NE(v.summary.find("field index at pfn 0x100005 (tail 5 of head 0x100000)"),
            std::string::npos)
      << v.summary;
}

TEST(OracleEquivalence, TheSeriesMatchingTheBaseKernelPasses) {
  const SetupDumps base = correct_setup();
  const SetupDumps series = correct_setup();
  const SetupVerdict v = judge_vs_base(base, series);
  EXPECT_EQ(v.status, VerdictStatus::k_pass) << v.summary << "\n" << v.details;
  EXPECT_NE(v.summary.find("identical to the base kernel's"), std::string::npos) << v.summary;
}

TEST(OracleEquivalence, ASeriesTailByteThatDiffersFromTheBaseIsNamed) {
  const SetupDumps base = correct_setup();
  SetupDumps series = correct_setup();
  std::string page(*series.fast->page(0x100203));
  page[0x20] ^= 0x01;  // one byte of tail 3's index
  series.fast->set_page(0x100203, page);
  const SetupVerdict v = judge_vs_base(base, series);
  EXPECT_EQ(v.status, VerdictStatus::k_fail);
  EXPECT_NE(v.summary.find("fast bind: the series differs from the base in 1 page(s), first: "
                           "field index at pfn 0x100203 (tail 3 of head 0x100200)"),
            std::string::npos)
      << v.summary;
  EXPECT_EQ(v.summary.find("slow bind"), std::string::npos) << v.summary;
}

TEST(OracleEquivalence, AMissingBaseDumpFails) {
  SetupDumps base = correct_setup();
  base.slow.reset();
  const SetupVerdict v = judge_vs_base(base, correct_setup());
  EXPECT_EQ(v.status, VerdictStatus::k_fail);
  EXPECT_NE(v.summary.find("missing slow dump on the base"), std::string::npos) << v.summary;
}

}  // namespace
}  // namespace kseries::oracle
