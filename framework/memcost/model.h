#ifndef KSERIES_MEMCOST_MODEL_H
#define KSERIES_MEMCOST_MODEL_H
/* The memory system of one core, deterministic, for the memory-cost clock:
 * an inclusive hierarchy of set-associative write-back caches (L1D, L2, LLC;
 * 64-byte lines, LRU), write-allocate for ordinary stores (a store miss reads
 * the line), non-temporal stores through write-combining buffers that never
 * read the line, clflush/clwb, and fences that drain the buffers. It counts
 * the bytes that reach DRAM. Beside it, per vCPU, the ordering tracker: the
 * lines written by non-temporal stores and not yet ordered by a fence, and
 * the accesses that touch them (see docs/memory-clock.md).
 *
 * Pure C, no QEMU: the plugin (plugin.c) feeds it, the unit tests feed it
 * synthetic address streams. */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MC_LINE 64u
#define MC_MAX_LEVELS 3
#define MC_MAX_WC 32

typedef struct mc_level_config {
  uint64_t size; /* bytes */
  uint32_t ways;
} mc_level_config;

typedef struct mc_config {
  mc_level_config level[MC_MAX_LEVELS]; /* L1D, L2, LLC; size 0 = absent */
  uint32_t wc_buffers;                  /* write-combining buffers (fill buffers) */
} mc_config;

typedef struct mc_counters {
  uint64_t loads, stores, nt_stores; /* accesses (a split access counts per line) */
  uint64_t hits[MC_MAX_LEVELS], misses[MC_MAX_LEVELS];
  uint64_t dram_read, dram_write; /* bytes */
  uint64_t wc_full, wc_partial;   /* lines written out by the WC buffers */
  uint64_t fences, flushes;       /* drains seen, clflush/clwb lines */
} mc_counters;

/* One way of a set: what a lookup reads together, side by side. */
typedef struct mc_way {
  uint64_t tag;   /* line address + 1; 0 = invalid */
  uint64_t stamp; /* LRU: last use */
  uint8_t dirty;
} mc_way;

typedef struct mc_level {
  uint32_t sets, ways;
  unsigned __int128 set_magic; /* for the remainder by sets (model.c) */
  mc_way* way;                 /* sets * ways, set by set */
} mc_level;

typedef struct mc_wc {
  uint64_t line; /* line address + 1; 0 = free */
  uint64_t mask; /* bytes written */
  uint64_t stamp;
} mc_wc;

typedef struct mc_model {
  mc_config config;
  int levels;
  mc_level level[MC_MAX_LEVELS];
  mc_wc wc[MC_MAX_WC];
  uint32_t wc_live; /* buffers holding a line */
  uint64_t clock;
  mc_counters count;
  /* The L1D ways of the lines accessed last (line + 1; 0 = none): an
   * access to one of them whose slot still holds it is an L1D hit, counted
   * as the full lookup would count it (a line in the L1D is never in a
   * write-combining buffer: a non-temporal store drops it from the caches,
   * an ordinary access writes the buffer out before filling it). */
  uint64_t mru_line[4];
  mc_way* mru_way[4];
  uint32_t mru_next;
} mc_model;

/* 0 on success; -1 if a level has no set or more than 64 ways. */
int mc_model_init(mc_model* model, const mc_config* config);
void mc_model_free(mc_model* model);

/* An ordinary load or store of SIZE bytes at physical address ADDR. */
void mc_load(mc_model* model, uint64_t addr, unsigned size);
void mc_store(mc_model* model, uint64_t addr, unsigned size);
/* A non-temporal store: the line leaves the caches (written back if dirty)
 * and the bytes gather in a write-combining buffer; a full line is written
 * out at once, without reading it. */
void mc_store_nt(mc_model* model, uint64_t addr, unsigned size);
/* clflush (INVALIDATE = 1) or clwb (0) of the line holding ADDR. */
void mc_flush_line(mc_model* model, uint64_t addr, int invalidate);
/* sfence, mfence, a locked instruction: every WC buffer is written out. */
void mc_fence(mc_model* model);
/* Every cache line and WC buffer forgotten (a window starts cold: what ran
 * between two windows is not modelled, so what the last one left is not a
 * state the hardware would have). Call after mc_settle, which cleans. */
void mc_invalidate(mc_model* model);
/* The end of a measured window: WC buffers written out and every dirty line
 * written back (and kept, clean), so a window is charged for all its writes. */
void mc_settle(mc_model* model);

/* ---- ordering: non-temporal stores not yet ordered by a fence ---- */

typedef enum mc_hazard_kind {
  MC_HAZARD_STORE = 0,  /* an ordinary store to a line with an unordered NT store */
  MC_HAZARD_LOAD = 1,   /* an ordinary load of such a line */
  MC_HAZARD_RETURN = 2, /* the window ended with unordered NT stores outstanding */
  /* The same three for lines that no fence ordered but a locked instruction
   * did (lock_pc): ordered on a core whose vendor orders earlier
   * non-temporal stores with locked instructions, by accident rather than
   * by the function's own fence; not ordered on one that does not. */
  MC_HAZARD_LOCKED_STORE = 3,
  MC_HAZARD_LOCKED_LOAD = 4,
  MC_HAZARD_LOCKED_RETURN = 5
} mc_hazard_kind;

typedef struct mc_hazard {
  mc_hazard_kind kind;
  uint64_t nt_pc;   /* the non-temporal store */
  uint64_t pc;      /* the access (or, for RETURN, the return address) */
  uint64_t lock_pc; /* LOCKED_*: the first locked instruction after the NT store; else 0 */
  /* LOCKED_*: where the lock was reached from (frames.h): the call site in
   * the window's own function (site) and the innermost call (caller); 0
   * when the lock is in the window's own function (or, caller only,
   * deeper than the frames held; both when lock_pc is 0). Else 0. */
  uint64_t site, caller;
  uint64_t vaddr; /* first line seen (guest virtual) */
  uint64_t count; /* accesses (RETURN: lines outstanding) */
} mc_hazard;

#define MC_MAX_HAZARDS 64

typedef struct mc_order_entry {
  uint64_t key; /* physical line + 1 */
  uint64_t gen;
  uint64_t epoch; /* the lock epoch of its last NT store (mc_order.epoch) */
  uint64_t nt_pc;
  uint64_t vaddr; /* guest virtual line */
} mc_order_entry;

/* The PCs of the locked instructions that ordered lines, by epoch (a ring:
 * an epoch older than this many is named with lock_pc 0, unknown). */
#define MC_LOCK_PCS 64

typedef struct mc_order {
  mc_order_entry* table;
  uint64_t mask; /* table size - 1 (a power of two) */
  uint64_t gen;  /* a fence starts a new generation: every line ordered */
  /* A locked instruction that finds unordered lines ends their epoch: they
   * are then "ordered by a lock" (lock_pc[their epoch % MC_LOCK_PCS]). */
  uint64_t epoch;
  uint64_t lock_pc[MC_LOCK_PCS];
  uint64_t lock_site[MC_LOCK_PCS], lock_caller[MC_LOCK_PCS]; /* mc_hazard's site, caller */
  uint64_t used, live; /* live: lines of this generation, unordered or by a lock */
  uint64_t unordered;  /* lines of this generation and epoch */
  int overflow;        /* more lines outstanding than the table tracks */
  uint64_t nt_stores, fences, locks;
  mc_hazard hazard[MC_MAX_HAZARDS];
  int hazards;
  uint64_t dropped; /* hazards beyond MC_MAX_HAZARDS distinct (kind, PCs, site, caller) */
} mc_order;

/* SLOTS: a power of two; 0 on success. */
int mc_order_init(mc_order* order, uint64_t slots);
void mc_order_free(mc_order* order);
void mc_order_nt_store(mc_order* order, uint64_t paddr, uint64_t vaddr, uint64_t pc);
/* An ordinary access: a hazard if its line has an unordered NT store. */
void mc_order_access(mc_order* order, uint64_t paddr, uint64_t vaddr, uint64_t pc, int is_store);
/* sfence, mfence, a serializing instruction: every line ordered. */
void mc_order_fence(mc_order* order);
/* A locked instruction at PC (lock prefix, xchg with memory), reached from
 * the call SITE in the window's own function through the innermost call
 * CALLER (mc_frames_outer(), mc_frames_inner(); 0 and 0 in the function
 * itself): the lines not yet ordered become ordered by it (the LOCKED_*
 * kinds, which carry all three). */
void mc_order_lock(mc_order* order, uint64_t pc, uint64_t site, uint64_t caller);
/* The window ends at RETURN_PC: outstanding lines become RETURN hazards, one
 * per NT PC, and LOCKED_RETURN ones per NT PC and lock PC for the lines a
 * locked instruction ordered; the tracker is emptied. */
void mc_order_end(mc_order* order, uint64_t return_pc);
/* Forget the hazards (a new window), keep the table. */
void mc_order_reset_hazards(mc_order* order);

#ifdef __cplusplus
}
#endif
#endif
