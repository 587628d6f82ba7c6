/* kseries memcost plugin, cover= mode: the distinct guest instructions of
 * the kernel half of the address space that executed during the whole run,
 * with how often each ran, for `kseries coverage` (docs/coverage.md). A mode
 * of its own: with cover= the plugin costs nothing and writes no memcost
 * records, so the timing cells' plugin runs are untouched.
 *
 * Every translated instruction at or above min= gets an inline counter (an
 * add, no helper call): exact per instruction, also for a block left early
 * by an exception. One slot per address, kept across retranslations.
 * Counters are plain adds: under multi-threaded TCG two vCPUs may lose an
 * increment, never turn a count to 0.
 *
 * Arguments:  cover=FILE  min=0xADDR (default 0xffff800000000000, the kernel
 * half of x86-64 and arm64 48-bit).
 * Output: "kseries-cover version=1 min=0x..." then "0xPC COUNT" ascending,
 * then "end pcs=N" (framework/coverage/cover_file.h reads it). */
#include "memcost/cover.h"

#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COVER_CHUNK 65536

static char* cover_path;
static uint64_t cover_min = 0xffff800000000000ULL;
static GHashTable* cover_slots;  /* pc -> uint64_t* (a slot in a chunk) */
static GPtrArray* cover_chunks;  /* uint64_t[COVER_CHUNK] each: never moved */
static unsigned cover_used = COVER_CHUNK;
static GMutex cover_lock;        /* translation may run on several threads */

static uint64_t* cover_slot(uint64_t pc) {
  uint64_t* slot = g_hash_table_lookup(cover_slots, &pc);
  if (slot) {
    return slot;
  }
  if (cover_used == COVER_CHUNK) {
    g_ptr_array_add(cover_chunks, g_new0(uint64_t, COVER_CHUNK));
    cover_used = 0;
  }
  slot = (uint64_t*)g_ptr_array_index(cover_chunks, cover_chunks->len - 1) + cover_used++;
  g_hash_table_insert(cover_slots, g_memdup2(&pc, sizeof pc), slot);
  return slot;
}

static void cover_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
  (void)id;
  g_mutex_lock(&cover_lock);
  for (size_t i = 0; i < qemu_plugin_tb_n_insns(tb); i++) {
    struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
    const uint64_t pc = qemu_plugin_insn_vaddr(insn);
    if (pc >= cover_min) {
      qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, cover_slot(pc),
                                                 1);
    }
  }
  g_mutex_unlock(&cover_lock);
}

static gint cover_compare(gconstpointer a, gconstpointer b) {
  const uint64_t x = **(const uint64_t* const*)a;
  const uint64_t y = **(const uint64_t* const*)b;
  return x < y ? -1 : x > y;
}

static void cover_exit(qemu_plugin_id_t id, void* udata) {
  (void)id;
  (void)udata;
  FILE* out = fopen(cover_path, "w");
  if (!out) {
    fprintf(stderr, "kseries memcost plugin: cannot write '%s'\n", cover_path);
    return;
  }
  GPtrArray* pcs = g_ptr_array_new();
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init(&it, cover_slots);
  while (g_hash_table_iter_next(&it, &key, &value)) {
    if (*(uint64_t*)value) {
      g_ptr_array_add(pcs, key);
    }
  }
  g_ptr_array_sort(pcs, cover_compare);
  fprintf(out, "kseries-cover version=1 min=0x%" PRIx64 "\n", cover_min);
  for (guint i = 0; i < pcs->len; i++) {
    const uint64_t pc = *(uint64_t*)g_ptr_array_index(pcs, i);
    fprintf(out, "0x%" PRIx64 " %" PRIu64 "\n", pc,
            *(uint64_t*)g_hash_table_lookup(cover_slots, &pc));
  }
  fprintf(out, "end pcs=%u\n", pcs->len);
  fclose(out);
  g_ptr_array_free(pcs, TRUE);
}

const char* cover_requested(int argc, char** argv) {
  for (int i = 0; i < argc; i++) {
    if (g_str_has_prefix(argv[i], "cover=")) {
      return argv[i] + 6;
    }
  }
  return NULL;
}

int cover_install(qemu_plugin_id_t id, int argc, char** argv) {
  for (int i = 0; i < argc; i++) {
    const char* a = argv[i];
    if (g_str_has_prefix(a, "cover=")) {
      cover_path = g_strdup(a + 6);
    } else if (g_str_has_prefix(a, "min=")) {
      cover_min = strtoull(a + 4, NULL, 16);
    } else {
      fprintf(stderr, "kseries memcost plugin: cover= takes only min=, not '%s'\n", a);
      return -1;
    }
  }
  FILE* probe = fopen(cover_path, "w"); /* fail now, not at the end of a boot */
  if (!probe) {
    fprintf(stderr, "kseries memcost plugin: cannot write '%s'\n", cover_path);
    return -1;
  }
  fclose(probe);
  cover_slots = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
  cover_chunks = g_ptr_array_new_with_free_func(g_free);
  qemu_plugin_register_vcpu_tb_trans_cb(id, cover_tb_trans);
  qemu_plugin_register_atexit_cb(id, cover_exit, NULL);
  return 0;
}
