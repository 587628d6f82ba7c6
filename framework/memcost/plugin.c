/* kseries memcost: a QEMU TCG plugin (API version 1, QEMU 7.2) that costs
 * the calls of one kernel function (memmap_init_zone_device()) in a model of
 * one core's memory system (model.h), and tracks the ordering of their
 * non-temporal stores. Only what runs inside a window is costed: from the
 * direct call of the function (entry=ADDR) to the execution of its return
 * address, callees included. A window belongs to the task that made the
 * call, known by its stack (the address of its pushes, pops, calls and
 * returns, masked to the stack size): a vCPU runs the window while it runs
 * on that stack, so a task that sleeps in cond_resched() and wakes on
 * another vCPU stays in its window, and what runs meanwhile is not costed
 * (counted as switches). Interrupts taken inside (an instruction at one of
 * the IDT entry points in irq_entries=FILE, up to its iret) are counted
 * apart.
 *
 * Arguments (QEMU splits them on commas):
 *   out=FILE           one record per window and model (appended, flushed)
 *   entry=0xADDR       the function's address (System.map)
 *   irq_entries=FILE   hex addresses, one per line (System.map asm_* entries)
 *   stack=BYTES        the kernel's THREAD_SIZE (default 16384)
 *   stack_word=N       the size of a push (default 8; 4 for a 32-bit guest)
 *   model=NAME:L1:W1:L2:W2:LLC:WLLC:WC   a hierarchy (bytes, ways, WC buffers);
 *                      up to 4, all fed the same accesses (a sweep in one boot)
 *   order=on|off       the ordering tracker (default on)
 *   xlat=on|off        keep looked-up translations until the guest can have
 *                      changed them (default on; off: QEMU's lookup for
 *                      every access, the same records, slower)
 *   nt=on|off          off: non-temporal stores modelled as ordinary stores
 *                      (a control: what the series would cost without them)
 *   locked_nt=ordered|unordered  whether the modelled core's locked
 *                      instructions order (and write out the WC buffers of)
 *                      earlier non-temporal stores, as its vendor's manual
 *                      says (the profile's locked-orders-nt; default
 *                      ordered). The tracker reports the lines a lock
 *                      ordered either way (the locked-* hazards); the
 *                      header says which, for the oracle
 *   pipeline=on|off    on (the default): the models run on a second host
 *                      thread, fed in order by the callbacks (memcost/pipe.h;
 *                      the same records); off: inline in the callbacks
 *   cover=FILE         a mode of its own (memcost/cover.c): the executed kernel
 *                      instructions of the whole run, for kseries coverage
 *   instrument=always|windows  always (the default): everything instrumented
 *                      for the whole run. windows (an experiment, not safe
 *                      on QEMU 7.2): outside a window only the direct calls
 *                      of the function are instrumented; the call that opens
 *                      a window resets the plugin (qemu_plugin_reset(): the
 *                      translations are flushed) so that everything is
 *                      instrumented until the window ends, and the end
 *                      resets it back; instructions whose helpers can end
 *                      their block get no memory callback then
 *                      (mc_x86_no_mem_callback()). QEMU 7.2 leaves a stale
 *                      memory-callback pointer behind such flushes and
 *                      aborts in some boots (docs/memory-clock.md)
 * In user mode (qemu-x86_64) there are no physical addresses: the models
 * are fed the virtual ones (one process, one address space).
 * Output lines (key=value words): "window seq=N vcpu=V model=NAME ...",
 * "order seq=N vcpu=V ..." and "hazard seq=N vcpu=V kind=... nt_pc=...
 * lock_pc=... site=... caller=..." (site, caller: where a locked-*
 * hazard's lock was reached from, frames.h). */
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "memcost/cover.h"
#include "memcost/frames.h"
#include "memcost/model.h"
#include "memcost/pipe.h"
#include "memcost/x86_insn.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_MODELS 4
#define MAX_VCPUS 64
#define ORDER_SLOTS (1u << 21) /* 2 M lines: 128 MiB of NT stores outstanding */

typedef struct insn_info {
  uint64_t pc;
  uint64_t next;        /* pc + length: the return address of a call */
  uint8_t kind;         /* mc_insn_kind */
  uint8_t stack;        /* MC_STACK_STORE / MC_STACK_LOAD / 0 */
  uint8_t no_mem;       /* mc_x86_no_mem_callback(): no memory callback */
  uint8_t retranslates; /* mc_x86_changes_translation() */
  uint8_t flow;         /* mc_x86_call_or_ret(): MC_FLOW_CALL / MC_FLOW_RET / 0 */
} insn_info;

/* The physical pages of the virtual ones a vCPU costed last (QEMU's own
 * lookup, qemu_plugin_get_hwaddr(), was a tenth of a memory boot's time):
 * kept until the vCPU runs an instruction that can change a translation
 * (mov to cr0/cr3/cr4, invlpg, invpcid) or a window opens, the events on
 * which a TLB's entries end. Only RAM is kept. xlat=off looks up every
 * access (the same records: tests/memcost_plugin_qemu.sh remaps a page
 * inside a window and compares). */
#define XLAT_ENTRIES 256
typedef struct xlat_entry {
  uint64_t vpage; /* virtual page + 1; 0 = empty */
  uint64_t ppage;
} xlat_entry;

/* Per vCPU: which stack (task) it runs, and its interrupt nesting. */
typedef struct vcpu_state {
  uint64_t stack;     /* the stack of its last push/pop/call/ret, masked */
  uint64_t irq_stack; /* the stack an interrupt came in on, restored by its iret */
  int irq_depth;
  mc_counters irq_start[MAX_MODELS];
  xlat_entry xlat[XLAT_ENTRIES];
} vcpu_state;

/* The window: one call of the function, followed across vCPUs by its stack
 * (a task that sleeps in cond_resched() and wakes on another vCPU stays in
 * its window; the task that runs meanwhile is not costed). */
typedef struct window_state {
  int open;
  uint64_t stack, return_pc, seq;
  unsigned vcpu; /* where it started */
  uint64_t insns, irq_insns, irqs, switches;
  mc_counters start[MAX_MODELS], irq_sum[MAX_MODELS];
  mc_order order;
  int order_ready;
  /* The calls made inside the window and not returned from, on its stack
   * (outside interrupts): where a locked instruction was reached from. */
  mc_frames frames;
} window_state;

static mc_model models[MAX_MODELS];
static char model_names[MAX_MODELS][32];
static int n_models;
static uint64_t entry_addr;
static uint64_t stack_mask = ~(uint64_t)(16384 - 1); /* THREAD_SIZE, stack= */
/* The size of a push or pop (stack_word=, 8 on x86-64). An interrupt's
 * delivery reads the IDT with 4-byte loads that QEMU reports as accesses of
 * the interrupted instruction: a ret's "load" from the IDT is not a stack. */
static unsigned stack_word = 8;
static GHashTable* irq_entries; /* address -> 1 */
static GHashTable* return_pcs;  /* return address of an entry call -> 1 */
static GHashTable* infos;       /* pc -> insn_info*, kept for the whole run */
static vcpu_state vcpus[MAX_VCPUS];
static window_state win;
static FILE* out;
static int order_on = 1;
static int xlat_on = 1; /* xlat=off: every access looked up in QEMU */
static int nt_on = 1;   /* nt=off: non-temporal stores modelled as ordinary ones (a control) */
static int pipeline_on = 1;
static int locked_orders_nt = 1; /* locked_nt=ordered (the default) */
static int virtual_addresses;    /* user mode: no physical addresses */
static mc_pipe* pipe_;           /* every access, fence and flush of the models goes through it */
static uint64_t windows_seen;
static qemu_plugin_id_t plugin_id;
static int instrument_always = 1; /* instrument=always (the default) */
static int installed_full;        /* the translations instrument everything */
static uint64_t resets;

static void install(void);

static vcpu_state* state(unsigned int vcpu) { return vcpu < MAX_VCPUS ? &vcpus[vcpu] : NULL; }

static void snapshot(mc_counters* into) {
  for (int m = 0; m < n_models; m++) {
    into[m] = models[m].count;
  }
}

/* ---- window boundaries ---- */

static void window_start(vcpu_state* v, unsigned vcpu, const insn_info* call) {
  win.open = 1;
  win.stack = v->stack;
  win.return_pc = call->next;
  win.seq = ++windows_seen;
  win.vcpu = vcpu;
  win.insns = 1; /* the call itself */
  win.irq_insns = win.irqs = win.switches = 0;
  memset(win.irq_sum, 0, sizeof win.irq_sum);
  mc_frames_reset(&win.frames);
  mc_pipe_sync(pipe_); /* the models are read and changed below */
  if (!installed_full) {
    /* Outside the windows no vCPU's stack or interrupt nesting was
     * followed: what the others run is unknown until their next push or
     * pop, and none is costed until then. */
    for (unsigned i = 0; i < MAX_VCPUS; i++) {
      if (i != vcpu) {
        vcpus[i].stack = 0;
      }
      vcpus[i].irq_depth = 0;
    }
  }
  for (int m = 0; m < n_models; m++) {
    mc_invalidate(&models[m]); /* cold: the windows are independent of each other */
  }
  for (unsigned i = 0; i < MAX_VCPUS; i++) {
    memset(vcpus[i].xlat, 0, sizeof vcpus[i].xlat);
  }
  snapshot(win.start);
  if (order_on) {
    if (!win.order_ready) {
      win.order_ready = mc_order_init(&win.order, ORDER_SLOTS) == 0;
    }
    if (win.order_ready) {
      mc_order_fence(&win.order); /* what came before the window is not judged */
      mc_order_reset_hazards(&win.order);
    }
  }
  install();
}

static const char* hazard_name(mc_hazard_kind kind) {
  switch (kind) {
    case MC_HAZARD_STORE:
      return "store";
    case MC_HAZARD_LOAD:
      return "load";
    case MC_HAZARD_RETURN:
      return "return";
    case MC_HAZARD_LOCKED_STORE:
      return "locked-store";
    case MC_HAZARD_LOCKED_LOAD:
      return "locked-load";
    case MC_HAZARD_LOCKED_RETURN:
      return "locked-return";
  }
  return "return";
}

#define D(field) (c->field - s->field - irq->field)
static void write_model(int m) {
  const mc_counters *c = &models[m].count, *s = &win.start[m], *irq = &win.irq_sum[m];
  fprintf(out,
          "window seq=%" PRIu64 " vcpu=%u model=%s insns=%" PRIu64 " loads=%" PRIu64
          " stores=%" PRIu64 " nt_stores=%" PRIu64 " fences=%" PRIu64 " l1_miss=%" PRIu64
          " l2_miss=%" PRIu64 " llc_miss=%" PRIu64 " dram_read=%" PRIu64 " dram_write=%" PRIu64
          " wc_full=%" PRIu64 " wc_partial=%" PRIu64 " irqs=%" PRIu64 " irq_insns=%" PRIu64
          " irq_dram_read=%" PRIu64 " irq_dram_write=%" PRIu64 " switches=%" PRIu64 "\n",
          win.seq, win.vcpu, model_names[m], win.insns, D(loads), D(stores), D(nt_stores),
          D(fences), D(misses[0]), D(misses[1]), D(misses[2]), D(dram_read), D(dram_write),
          D(wc_full), D(wc_partial), win.irqs, win.irq_insns, irq->dram_read, irq->dram_write,
          win.switches);
}
#undef D

static void window_end(uint64_t pc) {
  mc_pipe_sync(pipe_);
  for (int m = 0; m < n_models; m++) {
    mc_settle(&models[m]); /* the window pays for every line it dirtied */
  }
  for (int m = 0; m < n_models; m++) {
    write_model(m);
  }
  if (order_on && win.order_ready) {
    mc_order* o = &win.order;
    int overflow = o->overflow;
    mc_order_end(o, pc);
    fprintf(out,
            "order seq=%" PRIu64 " vcpu=%u nt_stores=%" PRIu64 " fences=%" PRIu64 " locks=%" PRIu64
            " overflow=%d hazards=%d dropped=%" PRIu64 "\n",
            win.seq, win.vcpu, o->nt_stores, o->fences, o->locks, overflow, o->hazards, o->dropped);
    for (int i = 0; i < o->hazards; i++) {
      const mc_hazard* h = &o->hazard[i];
      fprintf(out,
              "hazard seq=%" PRIu64 " vcpu=%u kind=%s nt_pc=0x%" PRIx64 " pc=0x%" PRIx64
              " lock_pc=0x%" PRIx64 " site=0x%" PRIx64 " caller=0x%" PRIx64 " vaddr=0x%" PRIx64
              " count=%" PRIu64 "\n",
              win.seq, win.vcpu, hazard_name(h->kind), h->nt_pc, h->pc, h->lock_pc, h->site,
              h->caller, h->vaddr, h->count);
    }
  }
  fflush(out);
  win.open = 0;
  install();
}

/* ---- execution callbacks ---- */

static void on_tb(unsigned int vcpu, void* udata) {
  vcpu_state* v = state(vcpu);
  if (!v || !win.open || v->stack != win.stack) {
    return;
  }
  uint64_t n = (uint64_t)(uintptr_t)udata;
  if (v->irq_depth) {
    win.irq_insns += n;
  } else {
    win.insns += n;
  }
}

typedef struct return_tb {
  insn_info* first;
  uint64_t n;
} return_tb;

/* The first instruction of a TB that starts at an entry call's return
 * address: on the window's stack, the call has returned. */
static void on_return_tb(unsigned int vcpu, void* udata) {
  vcpu_state* v = state(vcpu);
  const return_tb* r = udata;
  if (v && win.open && v->stack == win.stack && r->first->pc == win.return_pc) {
    v->irq_depth = 0;
    window_end(r->first->pc);
    return;
  }
  on_tb(vcpu, (void*)(uintptr_t)r->n);
}

static void on_irq_entry(unsigned int vcpu, void* udata) {
  (void)udata;
  vcpu_state* v = state(vcpu);
  if (v && win.open && v->stack == win.stack) {
    if (v->irq_depth++ == 0) {
      mc_pipe_sync(pipe_);
      snapshot(v->irq_start);
      v->irq_stack = v->stack;
    }
    win.irqs++;
  }
}

static void on_iret(unsigned int vcpu, void* udata) {
  (void)udata;
  vcpu_state* v = state(vcpu);
  if (!v || v->irq_depth == 0 || --v->irq_depth > 0) {
    return;
  }
  v->stack = v->irq_stack; /* back on the interrupted task's stack */
  if (!win.open) {
    return;
  }
  mc_pipe_sync(pipe_);
  for (int m = 0; m < n_models; m++) {
    const mc_counters *c = &models[m].count, *s = &v->irq_start[m];
    mc_counters* sum = &win.irq_sum[m];
    sum->loads += c->loads - s->loads;
    sum->stores += c->stores - s->stores;
    sum->nt_stores += c->nt_stores - s->nt_stores;
    sum->fences += c->fences - s->fences;
    for (int k = 0; k < MC_MAX_LEVELS; k++) {
      sum->misses[k] += c->misses[k] - s->misses[k];
    }
    sum->dram_read += c->dram_read - s->dram_read;
    sum->dram_write += c->dram_write - s->dram_write;
    sum->wc_full += c->wc_full - s->wc_full;
    sum->wc_partial += c->wc_partial - s->wc_partial;
  }
}

/* The costs of an interrupt inside the window are taken from the models'
 * counters between its entry and its iret (irq_sum, subtracted). */
static int costed(const vcpu_state* v) { return win.open && v->stack == win.stack; }

static void on_fence(unsigned int vcpu, void* udata) {
  (void)udata;
  vcpu_state* v = state(vcpu);
  if (!v || !costed(v)) {
    return;
  }
  mc_pipe_push(pipe_, MC_EV_FENCE, 0, 0);
  if (order_on && win.order_ready && !v->irq_depth) {
    mc_order_fence(&win.order);
  }
}

/* A locked instruction: a fence to the models where the vendor's locked
 * instructions write out the WC buffers; to the ordering tracker, the
 * lines it orders are named with it (locked-* hazards) either way, and
 * with where the window's frames say it was reached from. */
static void on_locked(unsigned int vcpu, void* udata) {
  const insn_info* insn = udata;
  vcpu_state* v = state(vcpu);
  if (!v || !costed(v)) {
    return;
  }
  if (locked_orders_nt) {
    mc_pipe_push(pipe_, MC_EV_FENCE, 0, 0);
  }
  if (order_on && win.order_ready && !v->irq_depth) {
    mc_order_lock(&win.order, insn->pc, mc_frames_outer(&win.frames), mc_frames_inner(&win.frames));
  }
}

/* VADDR's physical address, for RAM; 0 for I/O (not modelled). In user
 * mode, VADDR itself. */
static int physical(vcpu_state* v, qemu_plugin_meminfo_t info, uint64_t vaddr, uint64_t* pa) {
  if (virtual_addresses) {
    *pa = vaddr;
    return 1;
  }
  uint64_t vpage = vaddr >> 12;
  xlat_entry* e = &v->xlat[vpage % XLAT_ENTRIES];
  if (e->vpage == vpage + 1) {
    *pa = e->ppage << 12 | (vaddr & 0xfff);
    return 1;
  }
  struct qemu_plugin_hwaddr* hw = qemu_plugin_get_hwaddr(info, vaddr);
  if (!hw || qemu_plugin_hwaddr_is_io(hw)) {
    return 0;
  }
  *pa = qemu_plugin_hwaddr_phys_addr(hw);
  if (xlat_on) {
    e->vpage = vpage + 1;
    e->ppage = *pa >> 12;
  }
  return 1;
}

/* An instruction that can change translations ran on this vCPU. */
static void on_retranslate(unsigned int vcpu, void* udata) {
  (void)udata;
  vcpu_state* v = state(vcpu);
  if (v) {
    memset(v->xlat, 0, sizeof v->xlat);
  }
}

/* An access of a costed instruction: into every model and the ordering.
 * NT: the instruction is a non-temporal store (its callback says so, so
 * that the instruction's record is read only for a hazard). */
static void cost(vcpu_state* v, qemu_plugin_meminfo_t info, uint64_t vaddr, const insn_info* insn,
                 int store, int nt_insn) {
  uint64_t pa;
  if (!physical(v, info, vaddr, &pa)) {
    return;
  }
  unsigned size = 1u << qemu_plugin_mem_size_shift(info);
  int nt = nt_on && store && nt_insn;
  mc_pipe_push(pipe_, nt ? MC_EV_STORE_NT : store ? MC_EV_STORE : MC_EV_LOAD, pa, size);
  if (order_on && win.order_ready) {
    if (nt) {
      mc_order_nt_store(&win.order, pa, vaddr, insn->pc);
    } else if (win.order.live) {
      mc_order_access(&win.order, pa, vaddr, insn->pc, store);
    }
  }
}

/* The accesses of an instruction that does not touch the stack: outside a
 * window (most of a boot) it returns before reading anything but the
 * window's state. */
static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void* udata) {
  if (!win.open) {
    return;
  }
  vcpu_state* v = state(vcpu);
  if (!v || !costed(v) || v->irq_depth) {
    return; /* an interrupt's accesses are not modelled: its instructions are counted apart */
  }
  cost(v, info, vaddr, udata, qemu_plugin_mem_is_store(info), 0);
}

/* The same for a non-temporal store instruction. */
static void on_mem_nt(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void* udata) {
  if (!win.open) {
    return;
  }
  vcpu_state* v = state(vcpu);
  if (!v || !costed(v) || v->irq_depth) {
    return;
  }
  cost(v, info, vaddr, udata, qemu_plugin_mem_is_store(info), 1);
}

/* The accesses of a push, pop, call or return: which stack, and so which
 * task, the vCPU runs; a call of the function opens a window, and the
 * window's task's calls and returns are its frames. */
static void on_mem_stack(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr,
                         void* udata) {
  vcpu_state* v = state(vcpu);
  if (!v) {
    return;
  }
  const insn_info* insn = udata;
  int store = qemu_plugin_mem_is_store(info);
  if ((insn->stack == MC_STACK_STORE) == (store != 0) &&
      (1u << qemu_plugin_mem_size_shift(info)) == stack_word) {
    uint64_t stack = vaddr & stack_mask;
    if (win.open && v->stack == win.stack && stack != win.stack && !v->irq_depth) {
      win.switches++; /* the window's task leaves this vCPU (or switches stacks) */
    }
    v->stack = stack;
    if (insn->kind == MC_INSN_CALL_REL && !win.open) {
      window_start(v, vcpu, insn); /* the call's push of its return address */
    } else if (insn->flow && costed(v) && !v->irq_depth) {
      if (insn->flow == MC_FLOW_CALL) {
        mc_frames_call(&win.frames, vaddr, insn->pc);
      } else {
        mc_frames_ret(&win.frames, vaddr);
      }
    }
  }
  if (costed(v) && !v->irq_depth) {
    cost(v, info, vaddr, insn, store, insn->kind == MC_INSN_NT_STORE);
  }
}

/* clflush/clwb: TCG performs no memory access for them and API version 1
 * cannot read the address register, so they are counted, not applied. */
static void on_flush(unsigned int vcpu, void* udata) {
  (void)udata;
  vcpu_state* v = state(vcpu);
  if (v && costed(v)) {
    mc_pipe_push(pipe_, MC_EV_FLUSH, 0, 0);
  }
}

/* ---- translation ---- */

static insn_info* info_for(struct qemu_plugin_insn* insn) {
  uint64_t pc = qemu_plugin_insn_vaddr(insn);
  insn_info* info = g_hash_table_lookup(infos, &pc);
  if (info) {
    return info;
  }
  info = g_new0(insn_info, 1);
  info->pc = pc;
  size_t len = qemu_plugin_insn_size(insn);
  info->next = pc + len;
  uint64_t target = 0;
  info->kind = (uint8_t)mc_classify_x86(qemu_plugin_insn_data(insn), len, pc, &target);
  info->stack = (uint8_t)mc_x86_is_stack_op(qemu_plugin_insn_data(insn), len);
  info->retranslates = (uint8_t)mc_x86_changes_translation(qemu_plugin_insn_data(insn), len);
  info->flow = (uint8_t)mc_x86_call_or_ret(qemu_plugin_insn_data(insn), len);
  info->no_mem = !instrument_always && mc_x86_no_mem_callback(qemu_plugin_insn_data(insn), len);
  if (info->kind == MC_INSN_CALL_REL) {
    /* A call of the function (or of its call-depth thunk just before it). */
    if (target <= entry_addr && target + 32 >= entry_addr) {
      g_hash_table_add(return_pcs, g_memdup2(&info->next, sizeof info->next));
    } else {
      info->kind = MC_INSN_OTHER;
    }
  }
  g_hash_table_insert(infos, &info->pc, info);
  return info;
}

/* Outside a window: only the direct calls of the function, whose push of
 * the return address opens one. */
static void tb_trans_calls(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
  (void)id;
  size_t n = qemu_plugin_tb_n_insns(tb);
  for (size_t i = 0; i < n; i++) {
    struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
    insn_info* info = info_for(insn);
    if (info->kind == MC_INSN_CALL_REL) {
      qemu_plugin_register_vcpu_mem_cb(insn, on_mem_stack, QEMU_PLUGIN_CB_NO_REGS,
                                       QEMU_PLUGIN_MEM_W, info);
    }
  }
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
  (void)id;
  size_t n = qemu_plugin_tb_n_insns(tb);
  for (size_t i = 0; i < n; i++) {
    struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
    insn_info* info = info_for(insn);
    if (i == 0) {
      if (g_hash_table_contains(return_pcs, &info->pc)) {
        return_tb* r = g_new0(return_tb, 1);
        r->first = info;
        r->n = n;
        qemu_plugin_register_vcpu_insn_exec_cb(insn, on_return_tb, QEMU_PLUGIN_CB_NO_REGS, r);
      } else {
        qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb, QEMU_PLUGIN_CB_NO_REGS,
                                             (void*)(uintptr_t)n);
      }
    }
    if (g_hash_table_contains(irq_entries, &info->pc)) {
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_irq_entry, QEMU_PLUGIN_CB_NO_REGS, info);
    }
    if (info->retranslates) {
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_retranslate, QEMU_PLUGIN_CB_NO_REGS, info);
    }
    switch (info->kind) {
      case MC_INSN_FENCE:
        qemu_plugin_register_vcpu_insn_exec_cb(insn, on_fence, QEMU_PLUGIN_CB_NO_REGS, info);
        break;
      case MC_INSN_LOCKED:
        qemu_plugin_register_vcpu_insn_exec_cb(insn, on_locked, QEMU_PLUGIN_CB_NO_REGS, info);
        break;
      case MC_INSN_IRET:
        qemu_plugin_register_vcpu_insn_exec_cb(insn, on_iret, QEMU_PLUGIN_CB_NO_REGS, info);
        break;
      case MC_INSN_CLFLUSH:
      case MC_INSN_CLWB:
        qemu_plugin_register_vcpu_insn_exec_cb(insn, on_flush, QEMU_PLUGIN_CB_NO_REGS, info);
        break;
      default:
        break;
    }
    if (!info->no_mem) {
      qemu_plugin_register_vcpu_mem_cb(insn,
                                       info->stack                      ? on_mem_stack
                                       : info->kind == MC_INSN_NT_STORE ? on_mem_nt
                                                                        : on_mem,
                                       QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, info);
    }
  }
}

/* ---- what is instrumented ---- */

static void at_exit(qemu_plugin_id_t id, void* udata);

static void register_callbacks(void) {
  installed_full = instrument_always || win.open;
  qemu_plugin_register_vcpu_tb_trans_cb(plugin_id, installed_full ? tb_trans : tb_trans_calls);
  qemu_plugin_register_atexit_cb(plugin_id, at_exit, NULL);
}

/* Called by QEMU once the reset is done: every callback is unregistered and
 * the translations are flushed; the new ones follow the window's state at
 * this moment (a window that opened or closed while the reset was pending
 * is seen here). */
static void on_reset(qemu_plugin_id_t id) {
  (void)id;
  resets++;
  register_callbacks();
}

/* After a window opens or closes: translate anew if what must be
 * instrumented changed. QEMU ignores a reset asked while one is pending;
 * on_reset() reads the state when it runs, so none is lost. */
static void install(void) {
  if (!instrument_always && installed_full != win.open) {
    qemu_plugin_reset(plugin_id, on_reset);
  }
}

/* ---- arguments ---- */

static int parse_model(const char* spec) {
  if (n_models == MAX_MODELS) {
    return -1;
  }
  char name[32];
  unsigned long long l1, l2, llc;
  unsigned w1, w2, wllc, wc;
  if (sscanf(spec, "%31[^:]:%llu:%u:%llu:%u:%llu:%u:%u", name, &l1, &w1, &l2, &w2, &llc, &wllc,
             &wc) != 8) {
    return -1;
  }
  mc_config config = {{{l1, w1}, {l2, w2}, {llc, wllc}}, wc};
  if (mc_model_init(&models[n_models], &config) != 0) {
    return -1;
  }
  snprintf(model_names[n_models], sizeof model_names[n_models], "%s", name);
  n_models++;
  return 0;
}

static int read_irq_entries(const char* path) {
  FILE* f = fopen(path, "r");
  if (!f) {
    return -1;
  }
  char line[64];
  int lines = 0;
  while (fgets(line, sizeof line, f) && lines < 100000) {
    uint64_t addr = strtoull(line, NULL, 16);
    if (addr) {
      g_hash_table_add(irq_entries, g_memdup2(&addr, sizeof addr));
    }
    lines++;
  }
  fclose(f);
  return 0;
}

static void at_exit(qemu_plugin_id_t id, void* udata) {
  (void)id;
  (void)udata;
  if (out) {
    fprintf(out, "end windows=%" PRIu64 " resets=%" PRIu64 " pipeline=%s full_waits=%" PRIu64 "\n",
            windows_seen, resets, pipeline_on ? "on" : "off", mc_pipe_full_waits(pipe_));
    fclose(out);
    out = NULL;
  }
  mc_pipe_free(pipe_);
  pipe_ = NULL;
}

static int fail(const char* what, const char* arg) {
  fprintf(stderr, "kseries memcost plugin: %s: '%s'\n", what, arg);
  return -1;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t* info, int argc,
                                           char** argv) {
  if (strcmp(info->target_name, "x86_64") != 0) {
    return fail("x86_64 guests only, not", info->target_name);
  }
  if (cover_requested(argc, argv)) {
    return cover_install(id, argc, argv);
  }
  virtual_addresses = !info->system_emulation;
  irq_entries = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
  return_pcs = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
  infos = g_hash_table_new(g_int64_hash, g_int64_equal);
  const char* out_path = NULL;
  for (int i = 0; i < argc; i++) {
    const char* a = argv[i];
    if (g_str_has_prefix(a, "out=")) {
      out_path = a + 4;
    } else if (g_str_has_prefix(a, "entry=")) {
      entry_addr = strtoull(a + 6, NULL, 16);
    } else if (g_str_has_prefix(a, "switch=")) {
      /* accepted for compatibility: the window follows its stack instead */
    } else if (g_str_has_prefix(a, "stack=")) {
      uint64_t size = strtoull(a + 6, NULL, 0);
      if (size < 4096 || (size & (size - 1)) != 0) {
        return fail("stack= must be a power of two of at least 4096", a + 6);
      }
      stack_mask = ~(size - 1);
    } else if (g_str_has_prefix(a, "irq_entries=")) {
      if (read_irq_entries(a + 12) != 0) {
        return fail("cannot read", a + 12);
      }
    } else if (g_str_has_prefix(a, "model=")) {
      if (parse_model(a + 6) != 0) {
        return fail("bad model (NAME:L1:W:L2:W:LLC:W:WC, at most 4)", a + 6);
      }
    } else if (g_str_has_prefix(a, "stack_word=")) {
      stack_word = (unsigned)strtoul(a + 11, NULL, 0);
      if (stack_word != 2 && stack_word != 4 && stack_word != 8) {
        return fail("stack_word= must be 2, 4 or 8", a + 11);
      }
    } else if (g_str_has_prefix(a, "nt=")) {
      nt_on = strcmp(a + 3, "off") != 0;
    } else if (g_str_has_prefix(a, "instrument=")) {
      if (strcmp(a + 11, "always") != 0 && strcmp(a + 11, "windows") != 0) {
        return fail("instrument= must be windows or always", a + 11);
      }
      instrument_always = strcmp(a + 11, "always") == 0;
    } else if (g_str_has_prefix(a, "pipeline=")) {
      pipeline_on = strcmp(a + 9, "off") != 0;
    } else if (g_str_has_prefix(a, "xlat=")) {
      xlat_on = strcmp(a + 5, "off") != 0;
    } else if (g_str_has_prefix(a, "order=")) {
      order_on = strcmp(a + 6, "off") != 0;
    } else if (g_str_has_prefix(a, "locked_nt=")) {
      if (strcmp(a + 10, "ordered") != 0 && strcmp(a + 10, "unordered") != 0) {
        return fail("locked_nt= must be ordered or unordered", a + 10);
      }
      locked_orders_nt = strcmp(a + 10, "ordered") == 0;
    } else {
      return fail("unknown argument", a);
    }
  }
  if (!out_path || !entry_addr || n_models == 0) {
    return fail("needs out=, entry= and model=", "");
  }
  out = fopen(out_path, "a");
  if (!out) {
    return fail("cannot write", out_path);
  }
  pipe_ = mc_pipe_new(models, n_models, pipeline_on);
  if (!pipe_) {
    return fail("cannot start the models' thread", "");
  }
  fprintf(out,
          "memcost version=1 entry=0x%" PRIx64
          " models=%d irq_entries=%u order=%s instrument=%s locked_nt=%s addresses=%s\n",
          entry_addr, n_models, g_hash_table_size(irq_entries), order_on ? "on" : "off",
          instrument_always ? "always" : "windows", locked_orders_nt ? "ordered" : "unordered",
          virtual_addresses ? "virtual" : "physical");
  fflush(out);
  plugin_id = id;
  register_callbacks();
  return 0;
}
