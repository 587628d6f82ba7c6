#include "memcost/model.h"

#include <gtest/gtest.h>

#include "memcost/pipe.h"
#include "memcost/x86_insn.h"

namespace {

constexpr uint64_t k_mib = 1024 * 1024;

// A small hierarchy: 4 KiB L1, 32 KiB L2, 256 KiB LLC, 12 WC buffers.
mc_config small_config() { return mc_config{{{4096, 4}, {32768, 8}, {262144, 16}}, 12}; }

struct Model {
  mc_model m{};
  Model() {
    const mc_config config = small_config();
    EXPECT_EQ(mc_model_init(&m, &config), 0);
  }
  ~Model() { mc_model_free(&m); }
};

TEST(MemcostModel, OrdinaryStoresToFreshLinesReadAndWriteEveryLine) {
  Model model;
  for (uint64_t a = 0; a < 32 * k_mib; a += 8) {
    mc_store(&model.m, (1ull << 32) + a, 8);
  }
  mc_settle(&model.m);
  EXPECT_EQ(model.m.count.dram_read, 32 * k_mib);   // write-allocate: every line read once
  EXPECT_EQ(model.m.count.dram_write, 32 * k_mib);  // and written back once
}

TEST(MemcostModel, NonTemporalStoresWriteWithoutReading) {
  Model model;
  for (uint64_t a = 0; a < 32 * k_mib; a += 8) {
    mc_store_nt(&model.m, (1ull << 32) + a, 8);
  }
  mc_settle(&model.m);
  EXPECT_EQ(model.m.count.dram_read, 0u);
  EXPECT_EQ(model.m.count.dram_write, 32 * k_mib);
  EXPECT_EQ(model.m.count.wc_full, 32 * k_mib / 64);
  EXPECT_EQ(model.m.count.wc_partial, 0u);
}

TEST(MemcostModel, AFenceDrainsThePartlyWrittenBuffers) {
  Model model;
  mc_store_nt(&model.m, 0x1000, 8);
  mc_store_nt(&model.m, 0x2000, 8);
  EXPECT_EQ(model.m.count.dram_write, 0u);  // still combining
  mc_fence(&model.m);
  EXPECT_EQ(model.m.count.dram_write, 128u);
  EXPECT_EQ(model.m.count.wc_partial, 2u);
  mc_fence(&model.m);  // nothing left
  EXPECT_EQ(model.m.count.dram_write, 128u);
}

TEST(MemcostModel, MoreLinesThanBuffersEvictTheOldest) {
  Model model;
  for (int i = 0; i < 13; i++) {
    mc_store_nt(&model.m, 0x10000 + 64 * i, 8);
  }
  EXPECT_EQ(model.m.count.wc_partial, 1u);  // the 13th line pushed the first out
}

TEST(MemcostModel, AnLlcResidentStreamCostsNoDramTraffic) {
  Model model;
  for (int pass = 0; pass < 2; pass++) {
    for (uint64_t a = 0; a < 128 * 1024; a += 8) {
      mc_store(&model.m, a, 8);
    }
    mc_settle(&model.m);
  }
  const auto first_read = 128u * 1024;
  EXPECT_EQ(model.m.count.dram_read, first_read);  // only the first pass missed
  model.m.count = mc_counters{};
  for (uint64_t a = 0; a < 128 * 1024; a += 8) {
    mc_load(&model.m, a, 8);
    mc_store(&model.m, a, 8);
  }
  EXPECT_EQ(model.m.count.dram_read, 0u);
  EXPECT_EQ(model.m.count.dram_write, 0u);  // dirty, but resident (settle not yet)
}

TEST(MemcostModel, ANonTemporalStoreWritesBackADirtyCachedLineFirst) {
  Model model;
  mc_store(&model.m, 0x4000, 8);
  EXPECT_EQ(model.m.count.dram_read, 64u);
  for (int i = 0; i < 8; i++) {
    mc_store_nt(&model.m, 0x4000 + 8 * i, 8);
  }
  EXPECT_EQ(model.m.count.dram_write, 128u);  // the dirty line, then the full WC line
  mc_load(&model.m, 0x4000, 8);
  EXPECT_EQ(model.m.count.dram_read, 128u);  // no longer cached
}

TEST(MemcostModel, AnOrdinaryAccessToACombiningLineWritesItOut) {
  Model model;
  mc_store_nt(&model.m, 0x8000, 8);
  mc_store(&model.m, 0x8008, 8);
  EXPECT_EQ(model.m.count.wc_partial, 1u);
}

TEST(MemcostModel, AnInvalidatedModelStartsCold) {
  Model model;
  mc_store(&model.m, 0x4000, 8);
  mc_settle(&model.m);
  mc_invalidate(&model.m);
  mc_load(&model.m, 0x4000, 8);
  EXPECT_EQ(model.m.count.dram_read, 128u);  // missed again
}

TEST(MemcostModel, BadConfigurationsAreRefused) {
  mc_model m{};
  mc_config none{{{0, 0}, {0, 0}, {0, 0}}, 12};
  EXPECT_NE(mc_model_init(&m, &none), 0);
  mc_config no_wc = small_config();
  no_wc.wc_buffers = 0;
  EXPECT_NE(mc_model_init(&m, &no_wc), 0);
}

struct Order {
  mc_order o{};
  Order() { EXPECT_EQ(mc_order_init(&o, 1 << 12), 0); }
  ~Order() { mc_order_free(&o); }
};

TEST(MemcostOrder, AStoreToAnUnorderedNonTemporalLineIsAHazard) {
  Order order;
  mc_order_nt_store(&order.o, 0x10000, 0xffffea0000000040, 0x1111);
  mc_order_access(&order.o, 0x10008, 0xffffea0000000048, 0x2222, 1);
  ASSERT_EQ(order.o.hazards, 1);
  EXPECT_EQ(order.o.hazard[0].kind, MC_HAZARD_STORE);
  EXPECT_EQ(order.o.hazard[0].nt_pc, 0x1111u);
  EXPECT_EQ(order.o.hazard[0].pc, 0x2222u);
  EXPECT_EQ(order.o.hazard[0].vaddr, 0xffffea0000000048u);
}

TEST(MemcostOrder, AFenceBetweenMakesItSafe) {
  Order order;
  mc_order_nt_store(&order.o, 0x10000, 0x10000, 0x1111);
  mc_order_fence(&order.o);
  mc_order_access(&order.o, 0x10008, 0x10008, 0x2222, 1);
  mc_order_access(&order.o, 0x10008, 0x10008, 0x2222, 0);
  mc_order_end(&order.o, 0x3333);
  EXPECT_EQ(order.o.hazards, 0);
}

TEST(MemcostOrder, OtherLinesAndNonTemporalStoresAreNotHazards) {
  Order order;
  mc_order_nt_store(&order.o, 0x10000, 0x10000, 0x1111);
  mc_order_nt_store(&order.o, 0x10008, 0x10008, 0x1112);   // NT after NT: same stream
  mc_order_access(&order.o, 0x10040, 0x10040, 0x2222, 1);  // the next line
  mc_order_access(&order.o, 0x0ffc0, 0x0ffc0, 0x2222, 0);  // the line before
  EXPECT_EQ(order.o.hazards, 0);
  mc_order_fence(&order.o);
  mc_order_end(&order.o, 0x3333);
  EXPECT_EQ(order.o.hazards, 0);
}

TEST(MemcostOrder, ALoadIsAHazardToo) {
  Order order;
  mc_order_nt_store(&order.o, 0x10000, 0x10000, 0x1111);
  mc_order_access(&order.o, 0x10030, 0x10030, 0x2222, 0);
  ASSERT_EQ(order.o.hazards, 1);
  EXPECT_EQ(order.o.hazard[0].kind, MC_HAZARD_LOAD);
}

TEST(MemcostOrder, ReturningWithOutstandingStoresIsAHazardPerStorePc) {
  Order order;
  for (int i = 0; i < 10; i++) {
    mc_order_nt_store(&order.o, 0x20000 + 64 * i, 0xffffea0000100000 + 64 * i,
                      i < 6 ? 0xaaaa : 0xbbbb);
  }
  mc_order_end(&order.o, 0x9999);
  ASSERT_EQ(order.o.hazards, 2);
  uint64_t total = 0;
  for (int i = 0; i < order.o.hazards; i++) {
    EXPECT_EQ(order.o.hazard[i].kind, MC_HAZARD_RETURN);
    EXPECT_EQ(order.o.hazard[i].pc, 0x9999u);
    total += order.o.hazard[i].count;
    if (order.o.hazard[i].nt_pc == 0xaaaa) {
      EXPECT_EQ(order.o.hazard[i].vaddr, 0xffffea0000100000u);  // the lowest line
      EXPECT_EQ(order.o.hazard[i].count, 6u);
    }
  }
  EXPECT_EQ(total, 10u);
  mc_order_reset_hazards(&order.o);
  mc_order_end(&order.o, 0x9999);  // emptied by the first end
  EXPECT_EQ(order.o.hazards, 0);
}

TEST(MemcostOrder, RepeatedHazardsAreCountedOnce) {
  Order order;
  for (int round = 0; round < 100; round++) {
    mc_order_nt_store(&order.o, 0x10000 + 64 * round, 0x10000 + 64 * round, 0x1111);
    mc_order_access(&order.o, 0x10000 + 64 * round, 0x10000 + 64 * round, 0x2222, 1);
    mc_order_fence(&order.o);  // many generations: the table is reused
  }
  ASSERT_EQ(order.o.hazards, 1);
  EXPECT_EQ(order.o.hazard[0].count, 100u);
  EXPECT_EQ(order.o.hazard[0].vaddr, 0x10000u);
}

TEST(MemcostOrder, LinesALockOrderedAreNamedWithTheLockAtReturn) {
  Order order;
  for (int i = 0; i < 4; i++) {
    mc_order_nt_store(&order.o, 0x20000 + 64 * i, 0x7000 + 64 * i, 0xaaaa);
  }
  mc_order_lock(&order.o, 0xb0b0, 0, 0);  // orders the four lines (on the vendors that say so)
  mc_order_lock(&order.o, 0xc0c0, 0, 0);  // nothing left to order: not the one named
  mc_order_nt_store(&order.o, 0x30000, 0x8000, 0xdddd);  // after the locks: unordered
  mc_order_end(&order.o, 0x9999);
  ASSERT_EQ(order.o.hazards, 2);
  EXPECT_EQ(order.o.locks, 2u);
  EXPECT_EQ(order.o.fences, 0u);
  for (int i = 0; i < order.o.hazards; i++) {
    const mc_hazard& h = order.o.hazard[i];
    if (h.kind == MC_HAZARD_LOCKED_RETURN) {
      EXPECT_EQ(h.nt_pc, 0xaaaau);
      EXPECT_EQ(h.lock_pc, 0xb0b0u);
      EXPECT_EQ(h.count, 4u);
      EXPECT_EQ(h.vaddr, 0x7000u);
    } else {
      EXPECT_EQ(h.kind, MC_HAZARD_RETURN);
      EXPECT_EQ(h.nt_pc, 0xddddu);
      EXPECT_EQ(h.lock_pc, 0u);
    }
  }
}

TEST(MemcostOrder, AFenceAfterTheLockLeavesNothingToReport) {
  Order order;
  mc_order_nt_store(&order.o, 0x20000, 0x20000, 0xaaaa);
  mc_order_lock(&order.o, 0xb0b0, 0, 0);
  mc_order_fence(&order.o);  // the function's own drain
  mc_order_access(&order.o, 0x20000, 0x20000, 0x2222, 1);
  mc_order_end(&order.o, 0x9999);
  EXPECT_EQ(order.o.hazards, 0);
}

TEST(MemcostOrder, AnAccessToALineOnlyALockOrderedIsALockedHazard) {
  Order order;
  mc_order_nt_store(&order.o, 0x20000, 0x20000, 0xaaaa);
  mc_order_lock(&order.o, 0xb0b0, 0, 0);
  mc_order_access(&order.o, 0x20008, 0x20008, 0x2222, 1);
  mc_order_access(&order.o, 0x20010, 0x20010, 0x3333, 0);
  ASSERT_EQ(order.o.hazards, 2);
  EXPECT_EQ(order.o.hazard[0].kind, MC_HAZARD_LOCKED_STORE);
  EXPECT_EQ(order.o.hazard[0].lock_pc, 0xb0b0u);
  EXPECT_EQ(order.o.hazard[1].kind, MC_HAZARD_LOCKED_LOAD);
  // Written again after the lock: unordered anew, an ordinary hazard.
  mc_order_nt_store(&order.o, 0x20000, 0x20000, 0xeeee);
  mc_order_access(&order.o, 0x20000, 0x20000, 0x4444, 1);
  ASSERT_EQ(order.o.hazards, 3);
  EXPECT_EQ(order.o.hazard[2].kind, MC_HAZARD_STORE);
  EXPECT_EQ(order.o.hazard[2].nt_pc, 0xeeeeu);
  EXPECT_EQ(order.o.hazard[2].lock_pc, 0u);
}

TEST(MemcostOrder, TooManyOutstandingLinesIsAnOverflowNotAPass) {
  Order order;  // 4096 slots: at most 2048 lines
  for (int i = 0; i < 3000; i++) {
    mc_order_nt_store(&order.o, 0x100000 + 64 * i, 0, 0x1);
  }
  EXPECT_EQ(order.o.overflow, 1);
}

mc_insn_kind classify(std::initializer_list<uint8_t> bytes, uint64_t* target = nullptr) {
  std::vector<uint8_t> v(bytes);
  return mc_classify_x86(v.data(), v.size(), 0x1000, target);
}

TEST(MemcostX86, NonTemporalStores) {
  EXPECT_EQ(classify({0x48, 0x0f, 0xc3, 0x07}), MC_INSN_NT_STORE);     // movnti %rax,(%rdi)
  EXPECT_EQ(classify({0x0f, 0xc3, 0x47, 0x08}), MC_INSN_NT_STORE);     // movnti %eax,8(%rdi)
  EXPECT_EQ(classify({0x66, 0x0f, 0xe7, 0x07}), MC_INSN_NT_STORE);     // movntdq %xmm0,(%rdi)
  EXPECT_EQ(classify({0x0f, 0x2b, 0x07}), MC_INSN_NT_STORE);           // movntps %xmm0,(%rdi)
  EXPECT_EQ(classify({0xc5, 0xfd, 0xe7, 0x07}), MC_INSN_NT_STORE);     // vmovntdq %ymm0,(%rdi)
  EXPECT_EQ(classify({0x48, 0x89, 0x07}), MC_INSN_OTHER);              // mov %rax,(%rdi)
  EXPECT_EQ(classify({0x66, 0x0f, 0x38, 0x2a, 0x07}), MC_INSN_OTHER);  // movntdqa: a load
}

TEST(MemcostX86, FencesAndFlushes) {
  EXPECT_EQ(classify({0x0f, 0xae, 0xf8}), MC_INSN_FENCE);               // sfence
  EXPECT_EQ(classify({0x0f, 0xae, 0xf0}), MC_INSN_FENCE);               // mfence
  EXPECT_EQ(classify({0x0f, 0xae, 0xe8}), MC_INSN_OTHER);               // lfence
  EXPECT_EQ(classify({0xf0, 0x48, 0x0f, 0xc1, 0x07}), MC_INSN_LOCKED);  // lock xadd
  EXPECT_EQ(classify({0xf0, 0x83, 0x04, 0x24, 0x00}), MC_INSN_LOCKED);  // lock addl $0,(%rsp)
  EXPECT_EQ(classify({0xf0, 0x48, 0x0f, 0xb1, 0x17}), MC_INSN_LOCKED);  // lock cmpxchg %rdx,(%rdi)
  EXPECT_EQ(classify({0x48, 0x87, 0x07}), MC_INSN_LOCKED);              // xchg %rax,(%rdi)
  EXPECT_EQ(classify({0x48, 0x87, 0xc7}), MC_INSN_OTHER);               // xchg %rax,%rdi
  EXPECT_EQ(classify({0x0f, 0xa2}), MC_INSN_FENCE);                     // cpuid
  EXPECT_EQ(classify({0x0f, 0xae, 0x3f}), MC_INSN_CLFLUSH);             // clflush (%rdi)
  EXPECT_EQ(classify({0x66, 0x0f, 0xae, 0x3f}), MC_INSN_CLFLUSH);       // clflushopt (%rdi)
  EXPECT_EQ(classify({0x66, 0x0f, 0xae, 0x37}), MC_INSN_CLWB);          // clwb (%rdi)
  EXPECT_EQ(classify({0x48, 0xcf}), MC_INSN_IRET);                      // iretq
}

TEST(MemcostX86, DirectCallsGiveTheirTarget) {
  uint64_t target = 0;
  EXPECT_EQ(classify({0xe8, 0x10, 0x00, 0x00, 0x00}, &target), MC_INSN_CALL_REL);
  EXPECT_EQ(target, 0x1000u + 5 + 0x10);
  EXPECT_EQ(classify({0xe8, 0xfb, 0xff, 0xff, 0xff}, &target), MC_INSN_CALL_REL);
  EXPECT_EQ(target, 0x1000u);                        // rel -5: itself
  EXPECT_EQ(classify({0xff, 0xd0}), MC_INSN_OTHER);  // call *%rax
}

bool leaves(std::initializer_list<uint8_t> bytes) {
  std::vector<uint8_t> v(bytes);
  return mc_x86_no_mem_callback(v.data(), v.size()) != 0;
}

// Instructions run in a QEMU helper that can end the block or leave the CPU
// loop get no memory callback (a stale callback pointer after a plugin
// reset aborts QEMU 7.2).
TEST(MemcostX86, InstructionsWithoutMemoryCallbacks) {
  EXPECT_TRUE(leaves({0xf4}));                     // hlt
  EXPECT_TRUE(leaves({0xf3, 0x90}));               // pause
  EXPECT_FALSE(leaves({0x90}));                    // nop
  EXPECT_FALSE(leaves({0x66, 0x90}));              // xchg %ax,%ax
  EXPECT_TRUE(leaves({0x0f, 0x01, 0xc9}));         // mwait
  EXPECT_TRUE(leaves({0xcc}));                     // int3
  EXPECT_TRUE(leaves({0xcd, 0x80}));               // int $0x80
  EXPECT_TRUE(leaves({0x0f, 0x0b}));               // ud2
  EXPECT_TRUE(leaves({0x0f, 0x32}));               // rdmsr
  EXPECT_TRUE(leaves({0x0f, 0x30}));               // wrmsr
  EXPECT_TRUE(leaves({0x0f, 0xa2}));               // cpuid
  EXPECT_TRUE(leaves({0x0f, 0x05}));               // syscall
  EXPECT_TRUE(leaves({0x48, 0x0f, 0x07}));         // sysretq
  EXPECT_TRUE(leaves({0xee}));                     // out %al,(%dx)
  EXPECT_TRUE(leaves({0x0f, 0x01, 0xf8}));         // swapgs
  EXPECT_TRUE(leaves({0x9d}));                     // popf
  EXPECT_TRUE(leaves({0x48, 0xcf}));               // iretq
  EXPECT_TRUE(leaves({0x0f, 0x22, 0xd8}));         // mov %rax,%cr3
  EXPECT_TRUE(leaves({0x48, 0x0f, 0xae, 0x27}));   // xsave64 (%rdi)
  EXPECT_TRUE(leaves({0x0f, 0xae, 0xf8}));         // sfence
  EXPECT_TRUE(leaves({0xff, 0x1f}));               // lcall *(%rdi)
  EXPECT_TRUE(leaves({0x48, 0x0f, 0xc7, 0xf0}));   // rdrand %rax
  EXPECT_FALSE(leaves({0x48, 0x0f, 0xc7, 0x0f}));  // cmpxchg16b (%rdi)
  EXPECT_FALSE(leaves({0xff, 0x17}));              // call *(%rdi)
  EXPECT_FALSE(leaves({0x48, 0x89, 0x07}));        // mov %rax,(%rdi)
  EXPECT_FALSE(leaves({0x48, 0x0f, 0xc3, 0x07}));  // movnti %rax,(%rdi)
  EXPECT_FALSE(leaves({0xe8, 0, 0, 0, 0}));        // call
  EXPECT_FALSE(leaves({0xc3}));                    // ret
  EXPECT_FALSE(leaves({0x9c}));                    // pushf
  EXPECT_FALSE(leaves({0x0f}));                    // truncated
}

// The model's counts on a pseudo-random mix of every operation (streams,
// a hot set, random lines, non-temporal streams, fences, flushes, settles),
// pinned to what the model gave before its lookups were made faster
// (2026-12-02: one pass per set, the victim found in the same pass, the
// WC buffers skipped when empty). A faster model must count the same.
struct Golden {
  mc_config config;
  uint64_t loads, stores, nt, hits[3], misses[3], dram_read, dram_write, wc_full, wc_partial;
};

// The mixed stream into MODELS[0..N): by direct calls (PIPE null) or
// through PIPE (the plugin's way: accesses, fences and flushes pushed; what
// reads or changes a model whole after mc_pipe_sync()).
void feed_mixed_stream(mc_model* models, int n_models, mc_pipe* pipe, long n) {
  auto each = [&](auto&& f) {
    for (int k = 0; k < n_models; k++) {
      f(&models[k]);
    }
  };
  auto access = [&](mc_event_kind kind, uint64_t a, unsigned size) {
    if (pipe) {
      mc_pipe_push(pipe, kind, a, size);
      return;
    }
    each([&](mc_model* m) {
      kind == MC_EV_STORE      ? mc_store(m, a, size)
      : kind == MC_EV_LOAD     ? mc_load(m, a, size)
      : kind == MC_EV_STORE_NT ? mc_store_nt(m, a, size)
                               : mc_fence(m);
    });
  };
  auto whole = [&](auto&& f) {
    if (pipe) {
      mc_pipe_sync(pipe);
    }
    each(f);
  };
  uint64_t rng = 88172645463325252ull;
  auto next = [&rng] {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
  };
  uint64_t stream = 0x100000000ull, nt_stream = 0x200000000ull;
  const uint64_t hot = 0x2000000ull;
  for (long i = 0; i < n; i++) {
    const int op = static_cast<int>(next() % 100);
    uint64_t a;
    if (op < 40) {
      a = stream;
      stream += 8;
    } else if (op < 60) {
      a = hot + (next() % 4096) * 8;
    } else if (op < 75) {
      a = 0x40000000ull + (next() % (1 << 24));
    } else {
      a = stream - (next() % 512);
    }
    const unsigned size = 1u << (next() % 5);
    const int kind = static_cast<int>(next() % 100);
    if (kind < 50) {
      access(MC_EV_STORE, a, size);
    } else if (kind < 85) {
      access(MC_EV_LOAD, a, size);
    } else if (kind < 91) {
      access(MC_EV_STORE_NT, a & ~7ull, 8);
    } else if (kind < 97) {
      access(MC_EV_STORE_NT, nt_stream, 8);
      nt_stream += 8;
    } else if (kind < 98) {
      access(MC_EV_FENCE, 0, 0);
    } else if (kind < 99) {
      const int invalidate = static_cast<int>(next() % 2);
      whole([&](mc_model* m) { mc_flush_line(m, a, invalidate); });
    } else if (next() % 1000 == 0) {
      whole([](mc_model* m) {
        mc_settle(m);
        mc_invalidate(m);
      });
    }
  }
  whole([](mc_model* m) { mc_settle(m); });
}

mc_counters mixed_stream(const mc_config& config, long n) {
  mc_model m{};
  EXPECT_EQ(mc_model_init(&m, &config), 0);
  feed_mixed_stream(&m, 1, nullptr, n);
  const mc_counters count = m.count;
  mc_model_free(&m);
  return count;
}

TEST(MemcostModel, MixedStreamKeepsItsCounts) {
  const Golden golden[] = {
      {{{{49152, 12}, {1310720, 20}, {62914560, 12}}, 12},  // icelake-sp
       700353,
       999534,
       240061,
       {1184948, 130946, 4442},
       {595837, 464891, 460449},
       38495232,
       31568832,
       5075,
       141039},
      {{{{768, 12}, {25600, 20}, {1257472, 12}}, 12},  // scaled to a 2 GiB namespace
       700353,
       999534,
       240061,
       {817209, 287408, 210932},
       {963576, 676168, 465236},
       38801600,
       31676224,
       5075,
       141039},
      {{{{256, 2}, {1024, 4}, {4096, 8}}, 4},  // tiny: every eviction path
       700353,
       999534,
       240061,
       {580668, 286945, 136990},
       {1200117, 913172, 776182},
       59149120,
       43147584,
       2906,
       148023},
      {{{{192, 3}, {1920, 5}, {7680, 3}}, 2},  // odd ways and sets
       700353,
       999534,
       240061,
       {533092, 423567, 62972},
       {1247693, 824126, 761154},
       59267200,
       43680896,
       662,
       164896},
  };
  for (const auto& g : golden) {
    const mc_counters c = mixed_stream(g.config, 2000000);
    SCOPED_TRACE("L1 " + std::to_string(g.config.level[0].size));
    EXPECT_EQ(c.loads, g.loads);
    EXPECT_EQ(c.stores, g.stores);
    EXPECT_EQ(c.nt_stores, g.nt);
    for (int k = 0; k < 3; k++) {
      EXPECT_EQ(c.hits[k], g.hits[k]) << "level " << k;
      EXPECT_EQ(c.misses[k], g.misses[k]) << "level " << k;
    }
    EXPECT_EQ(c.dram_read, g.dram_read);
    EXPECT_EQ(c.dram_write, g.dram_write);
    EXPECT_EQ(c.wc_full, g.wc_full);
    EXPECT_EQ(c.wc_partial, g.wc_partial);
  }
}

// The models fed through the pipe, on its thread or inline, count what
// the same calls made directly count, two models at once (a sweep).
TEST(MemcostPipe, ThreadedPipeCountsLikeDirectCalls) {
  const mc_config configs[2] = {{{{768, 12}, {25600, 20}, {1257472, 12}}, 12},
                                {{{256, 2}, {1024, 4}, {4096, 8}}, 4}};
  mc_counters direct[2];
  for (int k = 0; k < 2; k++) {
    direct[k] = mixed_stream(configs[k], 1000000);
  }
  for (const int threaded : {1, 0}) {
    SCOPED_TRACE(threaded ? "threaded" : "inline");
    mc_model models[2]{};
    for (int k = 0; k < 2; k++) {
      ASSERT_EQ(mc_model_init(&models[k], &configs[k]), 0);
    }
    mc_pipe* pipe = mc_pipe_new(models, 2, threaded);
    ASSERT_NE(pipe, nullptr);
    feed_mixed_stream(models, 2, pipe, 1000000);
    if (threaded) {
      EXPECT_GT(mc_pipe_syncs(pipe), 0u);
    }
    mc_pipe_free(pipe);
    for (int k = 0; k < 2; k++) {
      const mc_counters& c = models[k].count;
      EXPECT_EQ(c.loads, direct[k].loads);
      EXPECT_EQ(c.stores, direct[k].stores);
      EXPECT_EQ(c.nt_stores, direct[k].nt_stores);
      EXPECT_EQ(c.fences, direct[k].fences);
      EXPECT_EQ(c.flushes, direct[k].flushes);
      for (int l = 0; l < 3; l++) {
        EXPECT_EQ(c.hits[l], direct[k].hits[l]) << "model " << k << " level " << l;
        EXPECT_EQ(c.misses[l], direct[k].misses[l]) << "model " << k << " level " << l;
      }
      EXPECT_EQ(c.dram_read, direct[k].dram_read);
      EXPECT_EQ(c.dram_write, direct[k].dram_write);
      EXPECT_EQ(c.wc_full, direct[k].wc_full);
      EXPECT_EQ(c.wc_partial, direct[k].wc_partial);
      mc_model_free(&models[k]);
    }
  }
}

// A pipe that is synced never lags: the counts read after mc_pipe_sync()
// include the last access pushed.
TEST(MemcostPipe, SyncAppliesEveryPushedAccess) {
  const mc_config config = {{{768, 12}, {25600, 20}, {1257472, 12}}, 12};
  mc_model model{};
  ASSERT_EQ(mc_model_init(&model, &config), 0);
  mc_pipe* pipe = mc_pipe_new(&model, 1, 1);
  ASSERT_NE(pipe, nullptr);
  for (uint64_t i = 1; i <= 100000; i++) {
    mc_pipe_push(pipe, MC_EV_STORE, i * MC_LINE, 8);
    if (i % 9973 == 0) {
      mc_pipe_sync(pipe);
      ASSERT_EQ(model.count.stores, i);
    }
  }
  mc_pipe_sync(pipe);
  EXPECT_EQ(model.count.stores, 100000u);
  EXPECT_EQ(model.count.dram_read, 100000u * MC_LINE);
  mc_pipe_free(pipe);
  mc_model_free(&model);
}

bool retranslates(std::initializer_list<uint8_t> bytes) {
  std::vector<uint8_t> v(bytes);
  return mc_x86_changes_translation(v.data(), v.size()) != 0;
}

// What ends the plugin's cached translations: the instructions that end a
// TLB's, and nothing that runs in the copy loops.
TEST(MemcostX86, InstructionsThatChangeTranslations) {
  EXPECT_TRUE(retranslates({0x0f, 0x22, 0xd8}));              // mov %rax,%cr3
  EXPECT_TRUE(retranslates({0x0f, 0x22, 0xe7}));              // mov %rdi,%cr4
  EXPECT_TRUE(retranslates({0x0f, 0x22, 0xc0}));              // mov %rax,%cr0
  EXPECT_TRUE(retranslates({0x0f, 0x01, 0x38}));              // invlpg (%rax)
  EXPECT_TRUE(retranslates({0x0f, 0x01, 0x7f, 0x10}));        // invlpg 0x10(%rdi)
  EXPECT_TRUE(retranslates({0x66, 0x0f, 0x38, 0x82, 0x07}));  // invpcid (%rdi),%rax
  EXPECT_FALSE(retranslates({0x0f, 0x38, 0x82, 0x07}));       // no 66: not invpcid
  EXPECT_FALSE(retranslates({0x0f, 0x20, 0xd8}));             // mov %cr3,%rax (a read)
  EXPECT_FALSE(retranslates({0x0f, 0x01, 0xf8}));             // swapgs
  EXPECT_FALSE(retranslates({0x0f, 0x01, 0xf9}));             // rdtscp
  EXPECT_FALSE(retranslates({0x48, 0x0f, 0xc3, 0x07}));       // movnti %rax,(%rdi)
  EXPECT_FALSE(retranslates({0x48, 0x89, 0x07}));             // mov %rax,(%rdi)
  EXPECT_FALSE(retranslates({0x0f}));                         // truncated
  EXPECT_FALSE(retranslates({0x0f, 0x01}));                   // truncated
}

}  // namespace
