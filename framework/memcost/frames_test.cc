#include "memcost/frames.h"

#include <gtest/gtest.h>

#include "memcost/model.h"
#include "memcost/x86_insn.h"

namespace {

// Addresses of the v10 kernel (docs/memory-clock.md): the window's own
// function calls set_pageblock_migratetype(), which tail-jumps to
// set_pfnblock_flags_mask(), whose lock cmpxchg is at +0x82.
constexpr uint64_t k_window_call = 0xffffffff81425f5e;  // memmap_init_zone_device+0x20e
constexpr uint64_t k_fentry_call = 0xffffffff811b8f24;  // set_pageblock_migratetype+0x4
constexpr uint64_t k_lock = 0xffffffff811b7132;         // set_pfnblock_flags_mask+0x82
constexpr uint64_t k_top = 0xffffc90000123f00;          // the window's stack pointer

struct Frames {
  mc_frames f{};
  Frames() { mc_frames_reset(&f); }
};

TEST(MemcostFrames, TheWindowsOwnFunctionHasNoCallSite) {
  Frames frames;
  EXPECT_EQ(mc_frames_outer(&frames.f), 0u);
  EXPECT_EQ(mc_frames_inner(&frames.f), 0u);
}

TEST(MemcostFrames, NestedCallsNameTheOutermostAndInnermostSite) {
  Frames frames;
  mc_frames_call(&frames.f, k_top - 8, 0x1000);   // in the window's function
  mc_frames_call(&frames.f, k_top - 40, 0x2000);  // in its callee
  mc_frames_call(&frames.f, k_top - 72, 0x3000);
  EXPECT_EQ(mc_frames_outer(&frames.f), 0x1000u);
  EXPECT_EQ(mc_frames_inner(&frames.f), 0x3000u);
  mc_frames_ret(&frames.f, k_top - 72);
  EXPECT_EQ(mc_frames_inner(&frames.f), 0x2000u);
  mc_frames_ret(&frames.f, k_top - 40);
  EXPECT_EQ(mc_frames_inner(&frames.f), 0x1000u);
  mc_frames_ret(&frames.f, k_top - 8);
  EXPECT_EQ(mc_frames_outer(&frames.f), 0u);
  EXPECT_EQ(frames.f.depth, 0);
}

// A return pops every frame at or below its slot: a frame whose own return
// was not seen (SRSO's return thunk calls srso_safe_ret, which skips that
// call's slot and returns from the caller's) does not stay behind.
TEST(MemcostFrames, AReturnFromAnOuterSlotPopsTheFramesBelowIt) {
  Frames frames;
  mc_frames_call(&frames.f, k_top - 8, 0x1000);
  mc_frames_call(&frames.f, k_top - 16, 0x4000);  // the thunk's call
  mc_frames_ret(&frames.f, k_top - 8);            // the ret through the first slot
  EXPECT_EQ(frames.f.depth, 0);
  // A retpoline: its call and ret share one slot, the call site's frame stays.
  mc_frames_call(&frames.f, k_top - 8, 0x1000);
  mc_frames_call(&frames.f, k_top - 16, 0x5000);
  mc_frames_ret(&frames.f, k_top - 16);
  EXPECT_EQ(mc_frames_inner(&frames.f), 0x1000u);
  // A call into a slot at or above a held frame: that frame has returned.
  mc_frames_call(&frames.f, k_top - 8, 0x6000);
  EXPECT_EQ(frames.f.depth, 1);
  EXPECT_EQ(mc_frames_outer(&frames.f), 0x6000u);
}

TEST(MemcostFrames, DeeperThanHeldKeepsTheOutermostAndForgetsTheInnermost) {
  Frames frames;
  for (int i = 0; i < MC_MAX_FRAMES + 8; i++) {
    mc_frames_call(&frames.f, k_top - 8 - 32 * i, 0x1000 + i);
  }
  EXPECT_EQ(frames.f.depth, MC_MAX_FRAMES);  // bounded
  EXPECT_EQ(mc_frames_outer(&frames.f), 0x1000u);
  EXPECT_EQ(mc_frames_inner(&frames.f), 0u);  // unknown, not a wrong one
  // Back out of the frames not held: the innermost held is known again.
  for (int i = MC_MAX_FRAMES + 7; i >= MC_MAX_FRAMES; i--) {
    mc_frames_ret(&frames.f, k_top - 8 - 32 * i);
  }
  EXPECT_EQ(mc_frames_inner(&frames.f), 0x1000u + MC_MAX_FRAMES - 1);
}

TEST(MemcostFrames, CallsAndReturnsAreToldFromOtherStackOperations) {
  const auto flow = [](std::initializer_list<uint8_t> bytes) {
    std::vector<uint8_t> v(bytes);
    return mc_x86_call_or_ret(v.data(), v.size());
  };
  EXPECT_EQ(flow({0xe8, 0xbd, 0x2f, 0xd9, 0xff}), MC_FLOW_CALL);  // call rel32
  EXPECT_EQ(flow({0x41, 0xff, 0xd3}), MC_FLOW_CALL);              // call *%r11
  EXPECT_EQ(flow({0x3e, 0xff, 0x10}), MC_FLOW_CALL);              // notrack call *(%rax)
  EXPECT_EQ(flow({0xc3}), MC_FLOW_RET);                           // ret
  EXPECT_EQ(flow({0xf3, 0xc3}), MC_FLOW_RET);                     // rep ret
  EXPECT_EQ(flow({0xc2, 0x08, 0x00}), MC_FLOW_RET);               // ret $8
  EXPECT_EQ(flow({0xff, 0x30}), 0);                               // push (%rax)
  EXPECT_EQ(flow({0xff, 0x18}), 0);                               // lcall *(%rax)
  EXPECT_EQ(flow({0x55}), 0);                                     // push %rbp
  EXPECT_EQ(flow({0x48, 0xcf}), 0);                               // iretq
  EXPECT_EQ(flow({0xcb}), 0);                                     // lret
}

struct Order {
  mc_order o{};
  Order() { EXPECT_EQ(mc_order_init(&o, 1 << 12), 0); }
  ~Order() { mc_order_free(&o); }
};

// The window of known-good/return-drain as the plugin sees it: the copies'
// non-temporal stores, then the pageblock loop's call whose callee's lock
// orders them, then the return. The lock is named with the call site in
// the window's function that led to it.
TEST(MemcostFrames, ALockInACalleeIsNamedWithTheWindowsCallSite) {
  Frames frames;
  Order order;
  for (int i = 0; i < 8; i++) {
    mc_order_nt_store(&order.o, 0x20000 + 64 * i, 0xffffea0000100000 + 64 * i, 0xaaaa);
  }
  mc_frames_call(&frames.f, k_top - 8, k_window_call);   // set_pageblock_migratetype()
  mc_frames_call(&frames.f, k_top - 16, k_fentry_call);  // __fentry__, returns at once
  mc_frames_ret(&frames.f, k_top - 16);
  // jmp set_pfnblock_flags_mask: a tail call, no frame
  mc_order_lock(&order.o, k_lock, mc_frames_outer(&frames.f), mc_frames_inner(&frames.f));
  mc_frames_ret(&frames.f, k_top - 8);
  mc_order_lock(&order.o, 0xffffffff81000042, mc_frames_outer(&frames.f),
                mc_frames_inner(&frames.f));  // nothing left to order: not named
  mc_order_end(&order.o, 0x9999);
  ASSERT_EQ(order.o.hazards, 1);
  const mc_hazard& h = order.o.hazard[0];
  EXPECT_EQ(h.kind, MC_HAZARD_LOCKED_RETURN);
  EXPECT_EQ(h.lock_pc, k_lock);
  EXPECT_EQ(h.site, k_window_call);
  EXPECT_EQ(h.caller, k_window_call);
  EXPECT_EQ(h.count, 8u);
}

// The same lock reached from two call sites is two hazards, each with its
// own; the innermost call differs from the window's when the lock is
// deeper.
TEST(MemcostFrames, OneLockFromTwoCallSitesIsTwoHazards) {
  Order order;
  mc_order_nt_store(&order.o, 0x20000, 0x20000, 0xaaaa);
  mc_order_lock(&order.o, k_lock, 0x1111, 0x1111);
  mc_order_nt_store(&order.o, 0x30000, 0x30000, 0xaaaa);
  mc_order_lock(&order.o, k_lock, 0x2222, 0x3333);
  mc_order_access(&order.o, 0x20000, 0x20000, 0x4444, 1);
  mc_order_access(&order.o, 0x30000, 0x30000, 0x4444, 1);
  ASSERT_EQ(order.o.hazards, 2);
  EXPECT_EQ(order.o.hazard[0].kind, MC_HAZARD_LOCKED_STORE);
  EXPECT_EQ(order.o.hazard[0].site, 0x1111u);
  EXPECT_EQ(order.o.hazard[1].site, 0x2222u);
  EXPECT_EQ(order.o.hazard[1].caller, 0x3333u);
  // An unordered line's hazard names no lock and no site.
  mc_order_nt_store(&order.o, 0x40000, 0x40000, 0xbbbb);
  mc_order_access(&order.o, 0x40000, 0x40000, 0x4444, 1);
  ASSERT_EQ(order.o.hazards, 3);
  EXPECT_EQ(order.o.hazard[2].kind, MC_HAZARD_STORE);
  EXPECT_EQ(order.o.hazard[2].site, 0u);
  EXPECT_EQ(order.o.hazard[2].caller, 0u);
}

}  // namespace
