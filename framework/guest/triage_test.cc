#include "guest/triage.h"

#include <gtest/gtest.h>

namespace kseries::guest {
namespace {

// Shapes of real 6.12 reports (the recorded boots in testdata/ are tested too).
const char* k_warn =
    "[    5.100000] ------------[ cut here ]------------\n"
    "[    5.100001] WARNING: CPU: 1 PID: 77 at mm/memremap.c:297 memremap_pages+0x5c/0x6f0\n"
    "[    5.100002] Modules linked in:\n"
    "[    5.100003] ---[ end trace 0000000000000000 ]---\n"
    "[    5.200000] after\n";

TEST(TriageTest, WarnWithExcerptToEndMarker) {
  const auto findings = triage_console(k_warn);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::k_warning);
  EXPECT_EQ(findings[0].line, 2);
  EXPECT_EQ(findings[0].title,
            "WARNING: CPU: 1 PID: 77 at mm/memremap.c:297 memremap_pages+0x5c/0x6f0");
  EXPECT_NE(findings[0].excerpt.find("end trace"), std::string::npos);
  EXPECT_EQ(findings[0].excerpt.find("after"), std::string::npos);
}

// A DEBUG_VM kernel's poisoned-page check during an unbind: the page dump's
// reason is a finding, and both it and the BUG name the guest's step.
TEST(TriageTest, AFindingNamesTheGuestsStep) {
  const char* log =
      "[ 9.0] kseries-step: devdax-dev bind\n"
      "[ 9.5] kseries-step: devdax-dev unbind\n"
      "[ 9.6] page: refcount:-1 mapcount:-1 mapping:ffffffffffffffff index:0xffffffffffffffff\n"
      "[ 9.7] page dumped because: VM_BUG_ON_PAGE(PagePoisoned(p))\n"
      "[ 9.8] ------------[ cut here ]------------\n"
      "[ 9.9] kernel BUG at include/linux/mm.h:1511!\n";
  const auto findings = triage_console(log);
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].title, "page dumped because: VM_BUG_ON_PAGE(PagePoisoned(p))");
  EXPECT_EQ(findings[0].during, "devdax-dev unbind");
  EXPECT_EQ(findings[1].kind, FindingKind::k_bug);
  EXPECT_EQ(findings[1].during, "devdax-dev unbind");
}

// The mm selftests' gup_test dumps pages on purpose (DUMP_USER_PAGES_TEST):
// its "page dumped because: gup_test: ..." is the test's output, never a
// finding; any other reason still is. Lines from a real guest (run
// 20261206-194422-gate, selftests-mm gup_test on 6.12.118).
TEST(TriageTest, GupTestsOwnPageDumpIsNotABug) {
  const char* log =
      "[    5.796471] ---- page #0, starting from user virt addr: 0x7fd1e0fd1000\n"
      "[    5.796825] page: refcount:2 mapcount:1 mapping:0000000000000000 index:0x0 "
      "pfn:0x103496\n"
      "[    5.797074] anon flags: "
      "0x400000000002082c(referenced|uptodate|lru|owner_2|swapbacked|zone=1)\n"
      "[    5.797982] page dumped because: gup_test: dump_pages() test\n"
      "[    5.798046] ---- page #19, starting from user virt addr: 0x7fd1e0fd1000\n"
      "[    5.798423] page dumped because: gup_test: dump_pages() test\n";
  EXPECT_TRUE(triage_console(log).empty());
  const auto findings =
      triage_console(std::string(log) + "[    6.0] page dumped because: nonzero mapcount\n");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].title, "page dumped because: nonzero mapcount");
}

// Before the kernel runs /init, a splat is the boot's own; after it and
// before the guest's first step, no step is named.
TEST(TriageTest, ASplatBeforeInitIsTheBoots) {
  const char* log =
      "[ 0.5] page dumped because: VM_BUG_ON_PAGE(PagePoisoned(page))\n"
      "[ 0.6] kernel BUG at include/linux/mm.h:1911!\n"
      "[ 1.0] Run /init as init process\n"
      "[ 2.0] kernel BUG at mm/x.c:1!\n";
  const auto findings = triage_console(log);
  ASSERT_EQ(findings.size(), 3u);
  EXPECT_EQ(findings[0].during, "boot");
  EXPECT_EQ(findings[1].during, "boot");
  EXPECT_EQ(findings[2].during, "");
}

TEST(TriageTest, ClassifiesEachKind) {
  const char* log =
      "[ 1.0] BUG: KASAN: slab-out-of-bounds in memmap_init_compound+0x1/0x2\n"
      "[ 1.1] BUG: KMSAN: uninit-value in foo\n"
      "[ 1.2] UBSAN: shift-out-of-bounds in mm/mm_init.c:1\n"
      "[ 1.3] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n"
      "[ 1.4] INFO: task kworker/0:1:12 blocked for more than 122 seconds.\n"
      "[ 1.5] watchdog: BUG: soft lockup - CPU#0 stuck for 26s! [sh:1]\n"
      "[ 1.6] BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
      "[ 1.7] kernel BUG at mm/mm_init.c:1070!\n"
      "[ 1.8] Kernel panic - not syncing: Fatal exception\n";
  const auto findings = triage_console(log);
  std::vector<FindingKind> kinds;
  for (const auto& finding : findings) {
    kinds.push_back(finding.kind);
  }
  EXPECT_EQ(kinds,
            (std::vector<FindingKind>{
                FindingKind::k_kasan, FindingKind::k_kmsan, FindingKind::k_ubsan,
                FindingKind::k_rcu_stall, FindingKind::k_hung_task, FindingKind::k_soft_lockup,
                FindingKind::k_oops, FindingKind::k_bug, FindingKind::k_panic}));
}

TEST(TriageTest, NearMissesAreNotFindings) {
  const char* log =
      "[ 1.0] INFO: rcu_preempt  detected stalls\n"           // two spaces
      "[ 1.1] rcu: INFO:  detected stall\n"                   // no word
      "[ 1.2] INFO: rcu_ detected stall\n"                    // no word after rcu_
      "[ 1.3] INFO: task kworker blocked for less than 1s\n"  // not "more than"
      "[ 1.4] WARNING: no location\n"                         // no " at "
      "[ 1.5] WARNING:  at\n"                                 // " at" ends the line
      " BUG: indented\n";
  EXPECT_TRUE(triage_console(log).empty());
  const auto self = triage_console("rcu: INFO: rcu_sched self-detected stall on CPU\n");
  ASSERT_EQ(self.size(), 1u);
  EXPECT_EQ(self[0].kind, FindingKind::k_rcu_stall);
  EXPECT_EQ(triage_console("WARNING:  at x\n").at(0).kind, FindingKind::k_warning);
}

TEST(TriageTest, LongConsoleLinesDoNotCrash) {
  // std::regex recursed per character of ".*" and overflowed the stack on
  // such a line; the guest writes the console, so its lines can be that long.
  const std::string filler(400 * 1024, 'x');
  const auto findings = triage_console("[ 1.0] INFO: task " + filler + " blocked for more than\n" +
                                       "WARNING: " + filler + "\nINFO: task " + filler + "\n");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::k_hung_task);
}

TEST(TriageTest, CleanLogHasNoFindings) {
  EXPECT_TRUE(
      triage_console("[ 0.0] Linux version 6.12.117\n[ 3.0] Run /init as init process\n").empty());
}

TEST(TriageTest, TimeoutAndQemuCrashAreBootFindings) {
  auto findings =
      triage_boot("[ 0.0] Linux version\n", BootEnd::k_timed_out, "timed out after 60 s");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::k_boot_timeout);
  EXPECT_NE(findings[0].excerpt.find("Linux version"), std::string::npos);
  findings = triage_boot("", BootEnd::k_qemu_failed, "killed by signal 11");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::k_qemu_crash);
  // A panic with panic=-1 ends QEMU too: that is the panic, not a QEMU crash.
  findings = triage_boot("[ 1.0] Kernel panic - not syncing: No working init found.\n",
                         BootEnd::k_qemu_failed, "exit 0");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::k_panic);
}

}  // namespace
}  // namespace kseries::guest
