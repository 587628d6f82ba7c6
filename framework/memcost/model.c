/* The memory model of model.h. */
#include "memcost/model.h"

#include <stdlib.h>
#include <string.h>

static uint64_t line_of(uint64_t addr) { return addr / MC_LINE; }

static int level_init(mc_level* level, const mc_level_config* config) {
  uint64_t lines = config->size / MC_LINE;
  if (config->ways == 0 || config->ways > 64 || lines < config->ways) {
    return -1;
  }
  level->ways = config->ways;
  level->sets = (uint32_t)(lines / config->ways);
  level->set_magic = ~(unsigned __int128)0 / level->sets + 1;
  level->way = calloc((size_t)level->sets * level->ways, sizeof *level->way);
  return level->way ? 0 : -1;
}

int mc_model_init(mc_model* model, const mc_config* config) {
  memset(model, 0, sizeof *model);
  model->config = *config;
  if (config->wc_buffers == 0 || config->wc_buffers > MC_MAX_WC) {
    return -1;
  }
  for (int i = 0; i < MC_MAX_LEVELS && config->level[i].size; i++) {
    if (level_init(&model->level[i], &config->level[i]) != 0) {
      mc_model_free(model);
      return -1;
    }
    model->levels = i + 1;
  }
  return model->levels > 0 ? 0 : -1;
}

void mc_model_free(mc_model* model) {
  for (int i = 0; i < MC_MAX_LEVELS; i++) {
    free(model->level[i].way);
  }
  memset(model->level, 0, sizeof model->level);
  model->levels = 0;
}

/* LINE % LEVEL->sets without a division (a tenth of the model's time):
 * Lemire, Kaser and Kurz, "Faster Remainder by Direct Computation" (2019),
 * exact for every 64-bit LINE with a 128-bit magic and a 32-bit divisor. */
static uint64_t set_index(const mc_level* level, uint64_t line) {
  unsigned __int128 low = level->set_magic * line;
  unsigned __int128 lo = (unsigned __int128)(uint64_t)low * level->sets;
  unsigned __int128 hi = (unsigned __int128)(uint64_t)(low >> 64) * level->sets;
  return (uint64_t)((hi + (lo >> 64)) >> 64);
}

/* The first way of LINE's set in LEVEL. */
static mc_way* set_of(const mc_level* level, uint64_t line) {
  return &level->way[(size_t)set_index(level, line) * level->ways];
}

/* LINE's way in LEVEL, or NULL. */
static mc_way* find(const mc_level* level, uint64_t line) {
  mc_way* set = set_of(level, line);
  for (uint32_t w = 0; w < level->ways; w++) {
    if (set[w].tag == line + 1) {
      return &set[w];
    }
  }
  return NULL;
}

/* The least recently used way of a full SET (the valid ways' stamps are
 * distinct: each use takes a new one). */
static mc_way* least_recent(mc_way* set, uint32_t ways) {
  mc_way* lru = set;
  for (uint32_t w = 1; w < ways; w++) {
    if (set[w].stamp < lru->stamp) {
      lru = &set[w];
    }
  }
  return lru;
}

/* The way a fill of SET replaces: the first invalid one, else the least
 * recently used. */
static mc_way* victim_of(mc_way* set, uint32_t ways) {
  for (uint32_t w = 0; w < ways; w++) {
    if (set[w].tag == 0) {
      return &set[w];
    }
  }
  return least_recent(set, ways);
}

/* LINE's way in LEVEL, or NULL and *victim the way a fill would replace
 * (what find() then victim_of() would give), the set's tags read once. */
static mc_way* probe(const mc_level* level, uint64_t line, mc_way** victim) {
  mc_way* set = set_of(level, line);
  mc_way* invalid = NULL;
  for (uint32_t w = 0; w < level->ways; w++) {
    uint64_t tag = set[w].tag;
    if (tag == line + 1) {
      return &set[w];
    }
    if (tag == 0 && !invalid) {
      invalid = &set[w];
    }
  }
  *victim = invalid ? invalid : least_recent(set, level->ways);
  return NULL;
}

/* Removes LINE from every level above LLC index K (inclusion: the LLC
 * evicted it); *dirty tells whether any copy was dirty. Returns whether
 * any level held it. */
static int back_invalidate(mc_model* model, int k, uint64_t line, int* dirty) {
  int held = 0;
  for (int i = 0; i < k; i++) {
    mc_way* way = find(&model->level[i], line);
    if (way) {
      *dirty |= way->dirty;
      way->tag = 0;
      way->dirty = 0;
      held = 1;
    }
  }
  return held;
}

/* Puts LINE into level K in place of VICTIM (its set's victim_of()).
 * Returns whether the fill invalidated lines of the levels above (an LLC
 * eviction under inclusion), which changes their victims. */
static int fill(mc_model* model, int k, uint64_t line, mc_way* victim) {
  int invalidated = 0;
  if (victim->tag != 0) {
    uint64_t old = victim->tag - 1;
    int dirty = victim->dirty;
    if (k == model->levels - 1) {
      invalidated = back_invalidate(model, k, old, &dirty);
      if (dirty) {
        model->count.dram_write += MC_LINE;
      }
    } else if (dirty) {
      /* Inclusion: the next level holds the line; it becomes dirty there. */
      mc_way* below = find(&model->level[k + 1], old);
      if (below) {
        below->dirty = 1;
      } else {
        model->count.dram_write += MC_LINE;
      }
    }
  }
  victim->tag = line + 1;
  victim->dirty = 0;
  victim->stamp = ++model->clock;
  return invalidated;
}

/* A WC buffer holding LINE is written out before an ordinary access to it
 * (the core does not read its own write-combined bytes back). */
static void wc_write_out(mc_model* model, mc_wc* wc) {
  if (wc->line == 0) {
    return;
  }
  if (wc->mask == ~0ull) {
    model->count.wc_full++;
  } else {
    /* A partial line: the memory controller reads and merges it. */
    model->count.wc_partial++;
    model->count.dram_read += MC_LINE;
  }
  model->count.dram_write += MC_LINE;
  wc->line = 0;
  wc->mask = 0;
  model->wc_live--;
}

static void wc_evict_line(mc_model* model, uint64_t line) {
  if (model->wc_live == 0) {
    return; /* the common case of ordinary accesses: no buffer to look at */
  }
  for (uint32_t i = 0; i < model->config.wc_buffers; i++) {
    if (model->wc[i].line == line + 1) {
      wc_write_out(model, &model->wc[i]);
    }
  }
}

static void access_line(mc_model* model, uint64_t line, int is_store) {
  wc_evict_line(model, line);
  int hit = model->levels;
  mc_way* victim[MC_MAX_LEVELS] = {0};
  mc_way* way = NULL;
  for (int k = 0; k < model->levels; k++) {
    way = probe(&model->level[k], line, &victim[k]);
    if (way) {
      hit = k;
      break;
    }
    model->count.misses[k]++;
  }
  if (hit == model->levels) {
    model->count.dram_read += MC_LINE; /* a load, or a store's read-for-ownership */
  } else {
    model->count.hits[hit]++;
    way->stamp = ++model->clock;
  }
  /* Fill the levels above the hit, the LLC first (inclusion). */
  int stale = 0;
  for (int k = hit - 1; k >= 0; k--) {
    mc_level* level = &model->level[k];
    if (stale) {
      /* An LLC eviction took lines out of this level: its victim anew. */
      victim[k] = victim_of(set_of(level, line), level->ways);
    }
    stale |= fill(model, k, line, victim[k]);
    way = victim[k];
  }
  if (is_store) {
    way->dirty = 1; /* the L1D's way: the hit there, or the last fill */
  }
  model->mru_line[model->mru_next] = line + 1;
  model->mru_way[model->mru_next] = way;
  model->mru_next = (model->mru_next + 1) % 4;
}

/* An access to a line of the MRU still in its L1D way: the hit the full
 * lookup would find, counted alike. */
static int access_recent(mc_model* model, uint64_t line, int is_store) {
  for (int i = 0; i < 4; i++) {
    if (model->mru_line[i] == line + 1) {
      mc_way* way = model->mru_way[i];
      if (way->tag != line + 1) {
        model->mru_line[i] = 0;
        return 0;
      }
      model->count.hits[0]++;
      way->stamp = ++model->clock;
      if (is_store) {
        way->dirty = 1;
      }
      return 1;
    }
  }
  return 0;
}

static void for_each_line(mc_model* model, uint64_t addr, unsigned size, int is_store) {
  uint64_t first = line_of(addr), last = line_of(addr + (size ? size - 1 : 0));
  for (uint64_t line = first; line <= last; line++) {
    if (!access_recent(model, line, is_store)) {
      access_line(model, line, is_store);
    }
  }
}

void mc_load(mc_model* model, uint64_t addr, unsigned size) {
  model->count.loads++;
  for_each_line(model, addr, size, 0);
}

void mc_store(mc_model* model, uint64_t addr, unsigned size) {
  model->count.stores++;
  for_each_line(model, addr, size, 1);
}

/* Removes LINE from every level, writing it back if dirty. */
static void drop_line(mc_model* model, uint64_t line, int invalidate) {
  int dirty = 0;
  for (int k = 0; k < model->levels; k++) {
    mc_way* way = find(&model->level[k], line);
    if (way) {
      dirty |= way->dirty;
      way->dirty = 0;
      if (invalidate) {
        way->tag = 0;
      }
    }
  }
  if (dirty) {
    model->count.dram_write += MC_LINE;
  }
}

static mc_wc* wc_for(mc_model* model, uint64_t line) {
  mc_wc *free_slot = NULL, *oldest = NULL;
  for (uint32_t i = 0; i < model->config.wc_buffers; i++) {
    mc_wc* wc = &model->wc[i];
    if (wc->line == line + 1) {
      return wc;
    }
    if (wc->line == 0) {
      if (!free_slot) {
        free_slot = wc;
      }
    } else if (!oldest || wc->stamp < oldest->stamp) {
      oldest = wc;
    }
  }
  if (!free_slot) {
    wc_write_out(model, oldest); /* every buffer busy: the oldest goes */
    free_slot = oldest;
  }
  free_slot->line = line + 1;
  free_slot->mask = 0;
  free_slot->stamp = ++model->clock;
  model->wc_live++;
  return free_slot;
}

/* The WC buffer that holds LINE, or NULL. */
static mc_wc* wc_holding(mc_model* model, uint64_t line) {
  for (uint32_t i = 0; i < model->config.wc_buffers; i++) {
    if (model->wc[i].line == line + 1) {
      return &model->wc[i];
    }
  }
  return NULL;
}

void mc_store_nt(mc_model* model, uint64_t addr, unsigned size) {
  model->count.nt_stores++;
  while (size > 0) {
    uint64_t line = line_of(addr);
    unsigned offset = (unsigned)(addr % MC_LINE);
    unsigned part = size < MC_LINE - offset ? size : MC_LINE - offset;
    /* A line in a WC buffer is in no cache (its buffer was taken after the
     * line was dropped, and an ordinary access writes the buffer out before
     * filling the line): only a line without one is looked up. */
    mc_wc* wc = wc_holding(model, line);
    if (!wc) {
      drop_line(model, line, 1);
      wc = wc_for(model, line);
    }
    uint64_t bits = part >= 64 ? ~0ull : (((1ull << part) - 1) << offset);
    wc->mask |= bits;
    if (wc->mask == ~0ull) {
      wc_write_out(model, wc); /* a whole line: out at once, nothing read */
    }
    addr += part;
    size -= part;
  }
}

void mc_flush_line(mc_model* model, uint64_t addr, int invalidate) {
  model->count.flushes++;
  wc_evict_line(model, line_of(addr));
  drop_line(model, line_of(addr), invalidate);
}

void mc_fence(mc_model* model) {
  model->count.fences++;
  for (uint32_t i = 0; i < model->config.wc_buffers; i++) {
    wc_write_out(model, &model->wc[i]);
  }
}

void mc_invalidate(mc_model* model) {
  for (int k = 0; k < model->levels; k++) {
    mc_level* level = &model->level[k];
    size_t n = (size_t)level->sets * level->ways;
    for (size_t i = 0; i < n; i++) {
      level->way[i].tag = 0;
      level->way[i].dirty = 0;
    }
  }
  memset(model->wc, 0, sizeof model->wc);
  model->wc_live = 0;
}

void mc_settle(mc_model* model) {
  for (uint32_t i = 0; i < model->config.wc_buffers; i++) {
    wc_write_out(model, &model->wc[i]);
  }
  for (int k = 0; k < model->levels; k++) {
    mc_level* level = &model->level[k];
    size_t n = (size_t)level->sets * level->ways;
    for (size_t i = 0; i < n; i++) {
      if (level->way[i].dirty) {
        /* One write per line: clean it in every level holding it. */
        uint64_t line = level->way[i].tag - 1;
        for (int j = k; j < model->levels; j++) {
          mc_way* way = find(&model->level[j], line);
          if (way) {
            way->dirty = 0;
          }
        }
        model->count.dram_write += MC_LINE;
      }
    }
  }
}

/* ---- ordering ---- */

int mc_order_init(mc_order* order, uint64_t slots) {
  memset(order, 0, sizeof *order);
  if (slots == 0 || (slots & (slots - 1)) != 0) {
    return -1;
  }
  order->table = calloc(slots, sizeof *order->table);
  order->mask = slots - 1;
  order->gen = 1;
  return order->table ? 0 : -1;
}

void mc_order_free(mc_order* order) {
  free(order->table);
  order->table = NULL;
}

static uint64_t hash(uint64_t key) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdull;
  key ^= key >> 33;
  return key;
}

/* The live entry for KEY, or NULL; *insert_at gets a reusable slot. */
static mc_order_entry* lookup(mc_order* order, uint64_t key, mc_order_entry** insert_at) {
  mc_order_entry* reusable = NULL;
  for (uint64_t i = hash(key) & order->mask, n = 0; n <= order->mask;
       i = (i + 1) & order->mask, n++) {
    mc_order_entry* e = &order->table[i];
    if (e->key == 0) {
      if (insert_at) {
        *insert_at = reusable ? reusable : e;
      }
      return NULL;
    }
    if (e->gen != order->gen) {
      if (!reusable) {
        reusable = e;
      }
      continue;
    }
    if (e->key == key) {
      return e;
    }
  }
  if (insert_at) {
    *insert_at = reusable;
  }
  return NULL;
}

/* The lock that ordered lines of EPOCH and where it was reached from, or
 * zeros when it is out of the ring. */
typedef struct lock_of {
  uint64_t pc, site, caller;
} lock_of;

static lock_of lock_of_epoch(const mc_order* order, uint64_t epoch) {
  lock_of lock = {0, 0, 0};
  if (order->epoch - epoch <= MC_LOCK_PCS) {
    lock.pc = order->lock_pc[epoch % MC_LOCK_PCS];
    lock.site = order->lock_site[epoch % MC_LOCK_PCS];
    lock.caller = order->lock_caller[epoch % MC_LOCK_PCS];
  }
  return lock;
}

void mc_order_nt_store(mc_order* order, uint64_t paddr, uint64_t vaddr, uint64_t pc) {
  order->nt_stores++;
  uint64_t key = paddr / MC_LINE + 1;
  mc_order_entry* slot = NULL;
  mc_order_entry* e = lookup(order, key, &slot);
  if (e) {
    if (e->epoch != order->epoch) {
      /* A line a lock ordered is written again: unordered anew, named by
       * this store. */
      e->epoch = order->epoch;
      e->nt_pc = pc;
      order->unordered++;
    }
    return; /* else the first NT store of the line names it */
  }
  if (!slot || order->used * 2 > order->mask) {
    order->overflow = 1;
    return;
  }
  if (slot->key == 0) {
    order->used++;
  }
  slot->key = key;
  slot->gen = order->gen;
  slot->epoch = order->epoch;
  slot->nt_pc = pc;
  slot->vaddr = vaddr & ~(uint64_t)(MC_LINE - 1);
  order->live++;
  order->unordered++;
}

static const lock_of k_no_lock = {0, 0, 0};

static void add_hazard(mc_order* order, mc_hazard_kind kind, uint64_t nt_pc, uint64_t pc,
                       lock_of lock, uint64_t vaddr, uint64_t count) {
  for (int i = 0; i < order->hazards; i++) {
    mc_hazard* h = &order->hazard[i];
    if (h->kind == kind && h->nt_pc == nt_pc && h->pc == pc && h->lock_pc == lock.pc &&
        h->site == lock.site && h->caller == lock.caller) {
      h->count += count;
      if (vaddr < h->vaddr) {
        h->vaddr = vaddr; /* the lowest line: the first struct page */
      }
      return;
    }
  }
  if (order->hazards == MC_MAX_HAZARDS) {
    order->dropped += count;
    return;
  }
  mc_hazard* h = &order->hazard[order->hazards++];
  h->kind = kind;
  h->nt_pc = nt_pc;
  h->pc = pc;
  h->lock_pc = lock.pc;
  h->site = lock.site;
  h->caller = lock.caller;
  h->vaddr = vaddr;
  h->count = count;
}

void mc_order_access(mc_order* order, uint64_t paddr, uint64_t vaddr, uint64_t pc, int is_store) {
  if (order->live == 0) {
    return;
  }
  mc_order_entry* e = lookup(order, paddr / MC_LINE + 1, NULL);
  if (!e) {
    return;
  }
  if (e->epoch == order->epoch) {
    add_hazard(order, is_store ? MC_HAZARD_STORE : MC_HAZARD_LOAD, e->nt_pc, pc, k_no_lock, vaddr,
               1);
  } else {
    add_hazard(order, is_store ? MC_HAZARD_LOCKED_STORE : MC_HAZARD_LOCKED_LOAD, e->nt_pc, pc,
               lock_of_epoch(order, e->epoch), vaddr, 1);
  }
}

static void clear(mc_order* order) {
  order->live = 0;
  order->unordered = 0;
  order->overflow = 0;
  if (order->used * 8 > order->mask) {
    memset(order->table, 0, (order->mask + 1) * sizeof *order->table);
    order->used = 0;
  }
  order->gen++;
}

void mc_order_fence(mc_order* order) {
  order->fences++;
  if (order->live || order->overflow) {
    clear(order);
  }
}

void mc_order_lock(mc_order* order, uint64_t pc, uint64_t site, uint64_t caller) {
  order->locks++;
  if (order->unordered) {
    order->lock_pc[order->epoch % MC_LOCK_PCS] = pc;
    order->lock_site[order->epoch % MC_LOCK_PCS] = site;
    order->lock_caller[order->epoch % MC_LOCK_PCS] = caller;
    order->epoch++;
    order->unordered = 0;
  }
}

void mc_order_end(mc_order* order, uint64_t return_pc) {
  if (order->live) {
    /* One hazard per NT store PC (and lock PC) among the outstanding lines. */
    for (uint64_t i = 0; i <= order->mask; i++) {
      mc_order_entry* e = &order->table[i];
      if (e->key == 0 || e->gen != order->gen) {
        continue;
      }
      if (e->epoch == order->epoch) {
        add_hazard(order, MC_HAZARD_RETURN, e->nt_pc, return_pc, k_no_lock, e->vaddr, 1);
      } else {
        add_hazard(order, MC_HAZARD_LOCKED_RETURN, e->nt_pc, return_pc,
                   lock_of_epoch(order, e->epoch), e->vaddr, 1);
      }
    }
  }
  clear(order);
}

void mc_order_reset_hazards(mc_order* order) {
  order->hazards = 0;
  order->dropped = 0;
  order->nt_stores = 0;
  order->fences = 0;
  order->locks = 0;
}
