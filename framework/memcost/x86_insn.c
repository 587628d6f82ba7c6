/* Instruction classes for the memory model (x86_insn.h). Only the opcodes
 * the model cares about are decoded; everything else is MC_INSN_OTHER. */
#include "memcost/x86_insn.h"

static int modrm_mem(uint8_t modrm) { return (modrm >> 6) != 3; }
static int modrm_reg(uint8_t modrm) { return (modrm >> 3) & 7; }

/* The 0F map (legacy or VEX map 1): OP is the byte after 0F. */
static mc_insn_kind map_0f(const uint8_t* p, size_t n, int opsize66, int rep) {
  uint8_t op = p[0];
  uint8_t modrm = n > 1 ? p[1] : 0;
  switch (op) {
    case 0xC3: /* movnti m32/m64, r */
    case 0x2B: /* movntps / movntpd (66) */
    case 0xE7: /* movntq (mmx) / movntdq (66) */
      return n > 1 && modrm_mem(modrm) ? MC_INSN_NT_STORE : MC_INSN_OTHER;
    case 0xF7: /* maskmovq / maskmovdqu: register form, non-temporal */
      return MC_INSN_NT_STORE;
    case 0xAE:
      if (n < 2) {
        return MC_INSN_OTHER;
      }
      if (!modrm_mem(modrm)) {
        if (modrm == 0xF8 || modrm == 0xF0) {
          return MC_INSN_FENCE; /* sfence, mfence (lfence orders loads only) */
        }
        return MC_INSN_OTHER;
      }
      if (rep) {
        return MC_INSN_OTHER;
      }
      if (modrm_reg(modrm) == 7) {
        return MC_INSN_CLFLUSH; /* clflush, clflushopt (66) */
      }
      if (modrm_reg(modrm) == 6 && opsize66) {
        return MC_INSN_CLWB;
      }
      return MC_INSN_OTHER;
    case 0xA2: /* cpuid */
    case 0x09: /* wbinvd */
      return MC_INSN_FENCE;
    case 0x01: /* serialize: 0F 01 E8 */
      return n > 1 && modrm == 0xE8 && !opsize66 && !rep ? MC_INSN_FENCE : MC_INSN_OTHER;
    default:
      return MC_INSN_OTHER;
  }
}

mc_insn_kind mc_classify_x86(const uint8_t* bytes, size_t len, uint64_t pc, uint64_t* target) {
  size_t i = 0;
  int lock = 0, opsize66 = 0, rep = 0, rex_w = 0;
  for (; i < len; i++) {
    uint8_t b = bytes[i];
    if (b == 0xF0) {
      lock = 1;
    } else if (b == 0x66) {
      opsize66 = 1;
    } else if (b == 0xF2 || b == 0xF3) {
      rep = 1;
    } else if (b == 0x2E || b == 0x3E || b == 0x26 || b == 0x36 || b == 0x64 || b == 0x65 ||
               b == 0x67) {
      /* segment / address size */
    } else {
      break;
    }
  }
  if (i < len && (bytes[i] & 0xF0) == 0x40) {
    rex_w = (bytes[i] & 8) != 0;
    i++;
  }
  if (i >= len) {
    return MC_INSN_OTHER;
  }
  if (lock) {
    return MC_INSN_LOCKED; /* a locked read-modify-write */
  }
  const uint8_t* p = bytes + i;
  size_t n = len - i;
  (void)rex_w;
  switch (p[0]) {
    case 0x0F:
      return n > 1 ? map_0f(p + 1, n - 1, opsize66, rep) : MC_INSN_OTHER;
    case 0xC5: /* 2-byte VEX: map 0F; pp in the low bits of byte 1 */
      return n > 2 ? map_0f(p + 2, n - 2, (p[1] & 3) == 1, 0) : MC_INSN_OTHER;
    case 0xC4: /* 3-byte VEX: map in byte 1, pp in byte 2 */
    case 0x62: /* EVEX: map in byte 1, pp in byte 2, one more payload byte */
      if (p[0] == 0xC4 && n > 3 && (p[1] & 0x1F) == 1) {
        return map_0f(p + 3, n - 3, (p[2] & 3) == 1, 0);
      }
      if (p[0] == 0x62 && n > 4 && (p[1] & 0x07) == 1) {
        return map_0f(p + 4, n - 4, (p[2] & 3) == 1, 0);
      }
      return MC_INSN_OTHER;
    case 0x86: /* xchg r/m8, r8 */
    case 0x87: /* xchg r/m, r: with memory it is locked */
      return n > 1 && modrm_mem(p[1]) ? MC_INSN_LOCKED : MC_INSN_OTHER;
    case 0xCF:
      return MC_INSN_IRET;
    case 0xE8:
      if (n >= 5 && !opsize66) {
        int32_t rel = (int32_t)((uint32_t)p[1] | (uint32_t)p[2] << 8 | (uint32_t)p[3] << 16 |
                                (uint32_t)p[4] << 24);
        if (target) {
          *target = pc + len + (int64_t)rel;
        }
        return MC_INSN_CALL_REL;
      }
      return MC_INSN_OTHER;
    default:
      return MC_INSN_OTHER;
  }
}

/* The index of the opcode after the legacy prefixes (operand size,
 * rep/repne, segment, address size) and a REX prefix; *SEEN gets the
 * prefixes seen, as bits: 1 for 66, 2 for F3. */
static size_t skip_prefixes(const uint8_t* bytes, size_t len, int* seen) {
  size_t i = 0;
  *seen = 0;
  while (i < len && (bytes[i] == 0x66 || bytes[i] == 0xF2 || bytes[i] == 0xF3 || bytes[i] == 0x2E ||
                     bytes[i] == 0x3E || bytes[i] == 0x26 || bytes[i] == 0x36 || bytes[i] == 0x64 ||
                     bytes[i] == 0x65 || bytes[i] == 0x67)) {
    *seen |= (bytes[i] == 0x66 ? 1 : 0) | (bytes[i] == 0xF3 ? 2 : 0);
    i++;
  }
  if (i < len && (bytes[i] & 0xF0) == 0x40) {
    i++;
  }
  return i;
}

int mc_x86_is_stack_op(const uint8_t* bytes, size_t len) {
  int seen;
  size_t i = skip_prefixes(bytes, len, &seen);
  if (i >= len) {
    return 0;
  }
  uint8_t op = bytes[i];
  if ((op >= 0x50 && op <= 0x57) || op == 0x68 || op == 0x6A || op == 0x9C || op == 0xC8 ||
      op == 0xE8) {
    return MC_STACK_STORE;
  }
  if ((op >= 0x58 && op <= 0x5F) || op == 0x9D || op == 0xC2 || op == 0xC3 || op == 0xC9) {
    return MC_STACK_LOAD;
  }
  if (op == 0x8F && i + 1 < len) {
    return modrm_reg(bytes[i + 1]) == 0 ? MC_STACK_LOAD : 0; /* pop r/m */
  }
  if (op == 0xFF && i + 1 < len) {
    int reg = modrm_reg(bytes[i + 1]);
    return reg == 2 || reg == 3 || reg == 6 ? MC_STACK_STORE : 0; /* call, call far, push r/m */
  }
  return 0;
}

int mc_x86_call_or_ret(const uint8_t* bytes, size_t len) {
  int seen;
  size_t i = skip_prefixes(bytes, len, &seen);
  if (i >= len) {
    return 0;
  }
  uint8_t op = bytes[i];
  if (op == 0xE8) {
    return MC_FLOW_CALL;
  }
  if (op == 0xFF && i + 1 < len && modrm_reg(bytes[i + 1]) == 2) {
    return MC_FLOW_CALL;
  }
  if (op == 0xC3 || op == 0xC2) {
    return MC_FLOW_RET;
  }
  return 0;
}

int mc_x86_no_mem_callback(const uint8_t* bytes, size_t len) {
  int seen;
  size_t i = skip_prefixes(bytes, len, &seen);
  const int rep = (seen & 2) != 0;
  if (i >= len) {
    return 0;
  }
  uint8_t op = bytes[i];
  switch (op) {
    case 0xF4: /* hlt */
    case 0xCC:
    case 0xCD:
    case 0xCE:
    case 0xF1: /* int3, int, into, int1 */
    case 0xE4:
    case 0xE5:
    case 0xE6:
    case 0xE7: /* in/out imm8 */
    case 0xEC:
    case 0xED:
    case 0xEE:
    case 0xEF: /* in/out dx */
    case 0x6C:
    case 0x6D:
    case 0x6E:
    case 0x6F: /* ins/outs */
    case 0x9D: /* popf: helper, ends the block */
    case 0xCF: /* iret */
    case 0xCA:
    case 0xCB: /* lret */
    case 0xFA:
    case 0xFB: /* cli, sti */
    case 0x8E: /* mov to a segment register */
    case 0xEA:
    case 0x9A: /* far jmp/call */
      return 1;
    case 0x90:
      return rep; /* pause (F3 90); a plain nop is not */
    case 0xFF:    /* far call/jmp through memory (FF /3, /5) */
      return i + 1 < len && (modrm_reg(bytes[i + 1]) == 3 || modrm_reg(bytes[i + 1]) == 5);
    case 0x0F:
      break;
    default:
      return 0;
  }
  if (i + 1 >= len) {
    return 0;
  }
  uint8_t op2 = bytes[i + 1];
  switch (op2) {
    case 0x00: /* sldt, str, lldt, ltr, verr, verw */
    case 0x01: /* lgdt, lidt, lmsw, invlpg, monitor, mwait, xgetbv, xsetbv, swapgs, rdtscp, ... */
    case 0x05:
    case 0x07:
    case 0x34:
    case 0x35: /* syscall, sysret, sysenter, sysexit */
    case 0x06:
    case 0x08:
    case 0x09: /* clts, invd, wbinvd */
    case 0x0B:
    case 0xB9:
    case 0xFF: /* ud2, ud1, ud0 */
    case 0x20:
    case 0x21:
    case 0x22:
    case 0x23: /* mov to/from control and debug registers */
    case 0x30:
    case 0x31:
    case 0x32:
    case 0x33: /* wrmsr, rdtsc, rdmsr, rdpmc */
    case 0xA2: /* cpuid */
    case 0xAE: /* fxsave, fxrstor, ldmxcsr, stmxcsr, xsave, xrstor, xsaveopt, clflush, fences */
      return 1;
    case 0xC7: /* rdrand, rdseed (register forms); cmpxchg8b/16b keep theirs */
      return i + 2 < len && (bytes[i + 2] >> 6) == 3;
    default:
      return 0;
  }
}

int mc_x86_changes_translation(const uint8_t* bytes, size_t len) {
  int seen;
  size_t i = skip_prefixes(bytes, len, &seen);
  const int opsize66 = (seen & 1) != 0;
  if (i + 1 >= len || bytes[i] != 0x0F) {
    return 0;
  }
  uint8_t op2 = bytes[i + 1];
  if (op2 == 0x22) {
    return 1; /* mov to cr0, cr3, cr4, ...: paging, the page tables, PGE, PCIDs */
  }
  if (op2 == 0x01 && i + 2 < len) {
    uint8_t modrm = bytes[i + 2];
    return modrm_mem(modrm) && modrm_reg(modrm) == 7; /* invlpg m */
  }
  if (op2 == 0x38 && i + 2 < len && opsize66) {
    return bytes[i + 2] == 0x82; /* invpcid */
  }
  return 0;
}
