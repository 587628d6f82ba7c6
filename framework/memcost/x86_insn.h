#ifndef KSERIES_MEMCOST_X86_INSN_H
#define KSERIES_MEMCOST_X86_INSN_H
/* What an x86-64 instruction means to the memory model, from its bytes:
 * non-temporal store, fence (sfence, mfence, serialising instructions),
 * locked instruction (a lock prefix, xchg with memory), cache-line flush,
 * iret, direct call.
 * Decoded once, when QEMU translates the instruction. */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mc_insn_kind {
  MC_INSN_OTHER = 0,
  MC_INSN_NT_STORE, /* movnti, movntdq, movntps/pd, movntq, maskmov*, vmovnt* */
  MC_INSN_FENCE,    /* sfence, mfence, cpuid, wbinvd, serialize */
  MC_INSN_LOCKED,   /* lock-prefixed, xchg with memory: a fence to the caches'
                       WC buffers; to the ordering, per vendor (docs/memory-clock.md) */
  MC_INSN_CLFLUSH,  /* clflush, clflushopt: write back and invalidate */
  MC_INSN_CLWB,     /* clwb: write back, keep */
  MC_INSN_IRET,     /* iret / iretq */
  MC_INSN_CALL_REL  /* call rel32: *target set */
} mc_insn_kind;

/* Classifies the LEN bytes at BYTES, an instruction at guest address PC.
 * For MC_INSN_CALL_REL, *TARGET gets the callee's address. */
mc_insn_kind mc_classify_x86(const uint8_t* bytes, size_t len, uint64_t pc, uint64_t* target);

/* Whether the instruction accesses the stack (push, pop, call, ret, enter,
 * leave, pushf, popf, iret), and with which access: MC_STACK_STORE (push,
 * call: its store is on the stack; a push of a memory operand also loads
 * elsewhere) or MC_STACK_LOAD (pop, ret, leave); 0 otherwise (iret pops
 * from an interrupt's stack: the plugin restores the interrupted one). The
 * address tells which stack, and so which task, the vCPU runs. */
#define MC_STACK_STORE 1
#define MC_STACK_LOAD 2
int mc_x86_is_stack_op(const uint8_t* bytes, size_t len);

/* Whether the instruction is a near call (call rel32, call r/m: FF /2),
 * MC_FLOW_CALL, or a near return (ret, ret imm16), MC_FLOW_RET; 0
 * otherwise (a far call or return, iret, a push or pop). The window's
 * frames (frames.h) follow them. */
#define MC_FLOW_CALL 1
#define MC_FLOW_RET 2
int mc_x86_call_or_ret(const uint8_t* bytes, size_t len);

/* Whether the instruction must get no memory callback: QEMU 7.2 runs it in
 * a helper that can end its translation block or leave the CPU loop (hlt,
 * pause, mwait, int*, ud*, popf, iret, lret, cli/sti, mov to a segment,
 * control or debug register, far jumps and calls, in/out, ins/outs,
 * rdmsr/wrmsr, rdtsc(p), rdpmc, cpuid, rdrand/rdseed, syscall/sysret/
 * sysenter/sysexit, the 0F 00 and 0F 01 system groups, the 0F AE group:
 * fxsave/xsave/xrstor, ldmxcsr, clflush, the fences). For such an
 * instruction with memory callbacks QEMU points the vCPU at them while its
 * helper runs and clears the pointer in code that the end of the block
 * makes dead: the pointer stays set, so the next interrupt's delivery is
 * reported as the instruction's accesses (the IDT reads of
 * docs/memory-clock.md), and after a translation flush (a plugin reset)
 * it points at freed memory and QEMU aborts ("qemu_plugin_vcpu_mem_cb:
 * code should not be reached"). Their own accesses are few (a popf's or
 * iret's pops, an xsave area) and none is in the measured copy loops.
 * The fences, flushes and irets keep their execution callbacks. */
int mc_x86_no_mem_callback(const uint8_t* bytes, size_t len);

/* Whether the instruction can change what a virtual address translates to
 * and so ends what a TLB may keep: mov to a control register (cr3: another
 * address space; cr4: global pages, PCIDs; cr0: paging), invlpg, invpcid.
 * The plugin keeps the translations it looked up until one runs. */
int mc_x86_changes_translation(const uint8_t* bytes, size_t len);

#ifdef __cplusplus
}
#endif
#endif
