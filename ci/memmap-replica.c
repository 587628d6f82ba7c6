/* A user-space replica of the three ways the ZONE_DEVICE series initialises
 * struct pages (memmap_init_zone_device() of the 6.12.117 port), for
 * ci/memmap-replica: timed natively on the host, and the same binary costed
 * by the memcost plugin under qemu-x86_64 (docs/memory-clock.md, "The clock
 * against this host").
 *
 *   slow  the base's path: __init_single_page() (a call per page; the
 *         struct page zeroed word by word, then its fields one store each)
 *         and __init_zone_device_page()'s reserved bit, pgmap and
 *         zone_device_data (v10 1-5's first page and the template's seed)
 *   tmpl  v10 1-5: the template refreshed, then memcpy() of sizeof(struct
 *         page): GCC's inline copy, one 8-byte load and store a word
 *   nt    v10 1-8: the same copy with movnti (memcpy_flushcache()'s fixed
 *         sizes, v10 8/8) and memcpy_nontemporal_drain() (sfence) at the end
 *
 * each at 64, 80 and 96 bytes a struct page, over a memmap of PAGES struct
 * pages (vmemmap-like: a 2 MiB-aligned buffer asked for transparent huge
 * pages, as the kernel maps its vmemmap with PMDs), every pageblock's
 * migratetype then set with a lock cmpxchg as pageblock_migratetype_init_range()
 * does. Build it as the kernel builds mm/ (no SSE: -mgeneral-regs-only); it
 * does no floating point.
 *
 * Besides, STREAM-like streams over the same buffer (the host profile's
 * bandwidths): read (8-byte loads, four sums), write (ordinary 8-byte
 * stores: every line read for ownership) and ntwrite (movnti, sfence).
 *
 * Every measurement is one call of replica_window() (the plugin's entry=),
 * printed as one line "sample seq=N round=R job=NAME pages=P bytes=B ns=T
 * cpu_ns=C": T the wall time, C the thread's CPU time (what a loaded machine
 * does not add: the time the thread waited for a CPU is not in it);
 * a round runs every job once, in an order rotated each round, so that a
 * trend in the machine's load weighs on every job alike.
 *
 *   memmap-replica [--pages N] [--rounds R] [--cpu C] [--jobs a,b,...]
 *                  [--no-warmup]
 *
 * jobs: slow64 tmpl64 nt64 slow80 tmpl80 nt80 slow96 tmpl96 nt96 read write
 * ntwrite (default: all). Exit 0, or 2 on a usage error. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define PAGEBLOCK_PAGES 512 /* pageblock_order 9 on x86-64 */
#define SECTION_PAGES 32768 /* PAGES_PER_SECTION: 128 MiB sections */
#define MAX_WORDS 12        /* a 96-byte struct page */
#define MAX_JOBS 12

/* struct page of 6.12 as ZONE_DEVICE uses it: flags, pgmap and
 * zone_device_data over lru, mapping, index, private, _mapcount,
 * _refcount, memcg_data, then (80 and 96 bytes) the words KMSAN or
 * _last_cpupid add. */
typedef struct rpage {
  uint64_t flags;
  void* pgmap;            /* lru.next */
  void* zone_device_data; /* lru.prev */
  void* mapping;
  uint64_t index;
  uint64_t private_;
  int32_t mapcount;
  int32_t refcount;
  uint64_t memcg_data;
  uint64_t extra[MAX_WORDS - 8];
} rpage;

typedef struct dev_pagemap {
  int type; /* MEMORY_DEVICE_FS_DAX: no set_page_count(page, 0) */
} dev_pagemap;

enum { DEVICE_PRIVATE = 1, DEVICE_COHERENT = 2, DEVICE_FS_DAX = 4 };
enum { ZONE_DEVICE_IDX = 4, ZONES_SHIFT = 60, NODES_SHIFT = 50, PG_RESERVED = 10 };

typedef enum job_kind { JOB_SLOW, JOB_TMPL, JOB_NT, JOB_READ, JOB_WRITE, JOB_NTWRITE } job_kind;

typedef struct job {
  const char* name;
  job_kind kind;
  unsigned size; /* bytes a struct page */
} job;

static const job k_jobs[MAX_JOBS] = {
    {"slow64", JOB_SLOW, 64}, {"tmpl64", JOB_TMPL, 64}, {"nt64", JOB_NT, 64},
    {"slow80", JOB_SLOW, 80}, {"tmpl80", JOB_TMPL, 80}, {"nt80", JOB_NT, 80},
    {"slow96", JOB_SLOW, 96}, {"tmpl96", JOB_TMPL, 96}, {"nt96", JOB_NT, 96},
    {"read", JOB_READ, 0},    {"write", JOB_WRITE, 0},  {"ntwrite", JOB_NTWRITE, 0},
};

static unsigned char* memmap;
static uint64_t pageblock_bits[1 << 16];
static dev_pagemap pgmap = {DEVICE_FS_DAX};
volatile uint64_t sink; /* what the read stream sums, so it is not elided */

static rpage* pfn_to_page(unsigned char* base, uint64_t pfn, unsigned size) {
  return (rpage*)(base + pfn * size);
}

/* cond_resched(): a call, nothing to do. */
__attribute__((noinline)) static void cond_resched(void) { __asm__ volatile("" ::: "memory"); }

/* mm_zero_struct_page(): one store a word, from the last (the kernel's
 * switch on sizeof(struct page) falls through from 96 down to 56). */
static inline void zero_struct_page(rpage* page, unsigned size) {
  uint64_t* w = (uint64_t*)page;
  switch (size) {
    case 96:
      w[11] = 0;
      w[10] = 0;
      /* fall through */
    case 80:
      w[9] = 0;
      w[8] = 0;
      /* fall through */
    default:
      w[7] = 0;
      w[6] = 0;
      w[5] = 0;
      w[4] = 0;
      w[3] = 0;
      w[2] = 0;
      w[1] = 0;
      w[0] = 0;
  }
}

/* __init_single_page(): not inlined in the kernel (mm/mm_init.c exports
 * it to the hotplug code), so a call per page. */
__attribute__((noinline)) static void init_single_page(rpage* page, uint64_t pfn, unsigned size,
                                                       uint64_t zone, uint64_t nid) {
  zero_struct_page(page, size);
  /* set_page_links(): zone, then node, each a read-modify-write of flags */
  page->flags = (page->flags & ~(7ull << ZONES_SHIFT)) | zone << ZONES_SHIFT;
  __asm__ volatile("" ::: "memory");
  page->flags = (page->flags & ~(1023ull << NODES_SHIFT)) | nid << NODES_SHIFT;
  __asm__ volatile("" ::: "memory");
  *(volatile int32_t*)&page->refcount = 1;  /* init_page_count() */
  *(volatile int32_t*)&page->mapcount = -1; /* page_mapcount_reset() */
  page->flags |= 0xfffull << 20;            /* page_cpupid_reset_last() */
  __asm__ volatile("" ::: "memory");
  *(void* volatile*)&page->pgmap = &page->pgmap; /* INIT_LIST_HEAD(&page->lru) */
  page->zone_device_data = &page->pgmap;
  (void)pfn;
}

/* __init_zone_device_page() without its pageblock part (v10 moves it to
 * pageblock_migratetype_init_range(); the base does it every 512 pages). */
static inline void init_zone_device_page(rpage* page, uint64_t pfn, unsigned size,
                                         dev_pagemap* map) {
  init_single_page(page, pfn, size, ZONE_DEVICE_IDX, 0);
  page->flags |= 1ull << PG_RESERVED; /* __SetPageReserved() */
  __asm__ volatile("" ::: "memory");
  page->pgmap = map;
  page->zone_device_data = NULL;
  if (map->type == DEVICE_PRIVATE || map->type == DEVICE_COHERENT) {
    *(volatile int32_t*)&page->refcount = 0; /* set_page_count(page, 0) */
  }
}

/* set_pfnblock_flags_mask(): a try_cmpxchg() loop, a lock cmpxchg. */
static inline void set_pageblock_movable(uint64_t pfn) {
  uint64_t* word = &pageblock_bits[(pfn / PAGEBLOCK_PAGES / 16) % (1 << 16)];
  unsigned shift = (unsigned)(pfn / PAGEBLOCK_PAGES % 16) * 4;
  uint64_t old = __atomic_load_n(word, __ATOMIC_RELAXED);
  uint64_t want;
  do {
    want = (old & ~(15ull << shift)) | (1ull << shift);
  } while (!__atomic_compare_exchange_n(word, &old, want, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
}

static void pageblock_init_range(uint64_t pages) {
  for (uint64_t pfn = 0; pfn < pages; pfn += PAGEBLOCK_PAGES) {
    set_pageblock_movable(pfn);
  }
}

/* The base: every page through the slow path. */
static void run_slow(uint64_t pages, unsigned size) {
  for (uint64_t pfn = 0; pfn < pages; pfn++) {
    rpage* page = pfn_to_page(memmap, pfn, size);
    init_zone_device_page(page, pfn, size, &pgmap);
    if (pfn % PAGEBLOCK_PAGES == 0) {
      set_pageblock_movable(pfn);
      cond_resched();
    }
    if (pfn % SECTION_PAGES == 0) {
      cond_resched();
    }
  }
}

/* memcpy(page, template, size): GCC's inline copy of a constant size. */
static inline void copy_page(rpage* page, const rpage* tmpl, unsigned size) {
  switch (size) {
    case 96:
      __builtin_memcpy(page, tmpl, 96);
      break;
    case 80:
      __builtin_memcpy(page, tmpl, 80);
      break;
    default:
      __builtin_memcpy(page, tmpl, 64);
  }
}

static inline void movnti_8(void* dst, const void* src) {
  __asm__ volatile("movntiq %1, %0"
                   : "=m"(*(uint64_t*)dst)
                   : "r"(*(const uint64_t*)src)
                   : "memory");
}

/* memcpy_flushcache() of v10 8/8 for the fixed sizes: movnti a word. */
static inline void copy_page_nt(rpage* page, const rpage* tmpl, unsigned size) {
  uint64_t* d = (uint64_t*)page;
  const uint64_t* s = (const uint64_t*)tmpl;
  movnti_8(d + 0, s + 0);
  movnti_8(d + 1, s + 1);
  movnti_8(d + 2, s + 2);
  movnti_8(d + 3, s + 3);
  movnti_8(d + 4, s + 4);
  movnti_8(d + 5, s + 5);
  movnti_8(d + 6, s + 6);
  movnti_8(d + 7, s + 7);
  if (size >= 80) {
    movnti_8(d + 8, s + 8);
    movnti_8(d + 9, s + 9);
  }
  if (size >= 96) {
    movnti_8(d + 10, s + 10);
    movnti_8(d + 11, s + 11);
  }
}

/* v10 1-5 and 1-8: the first page through the slow path and into the
 * template, the rest copied from it, then the pageblocks. */
static void run_template(uint64_t pages, unsigned size, int nt) {
  rpage tmpl;
  rpage* page = pfn_to_page(memmap, 0, size);
  init_zone_device_page(page, 0, size, &pgmap);
  memcpy(&tmpl, page, size);
  for (uint64_t pfn = 1; pfn < pages; pfn++) {
    page = pfn_to_page(memmap, pfn, size);
    /* set_page_section_from_pfn(): no section bits in flags with
     * SPARSEMEM_VMEMMAP on x86-64; the compiler keeps the call site. */
    __asm__ volatile("" : : "r"(&tmpl) : "memory");
    if (nt) {
      copy_page_nt(page, &tmpl, size);
    } else {
      copy_page(page, &tmpl, size);
    }
    if (pfn % SECTION_PAGES == 0) {
      cond_resched();
    }
  }
  if (nt) {
    __asm__ volatile("sfence" ::: "memory"); /* memcpy_nontemporal_drain() */
  }
  pageblock_init_range(pages);
}

/* The streams: one 64-byte line an iteration, its eight words written (or
 * read) by eight instructions, as the inits write a struct page. */
static void stream_read(uint64_t bytes) {
  const uint64_t* p = (const uint64_t*)memmap;
  uint64_t a = 0, b = 0, c = 0, d = 0;
  for (uint64_t i = 0; i < bytes / 8; i += 8) {
    a += p[i] + p[i + 4];
    b += p[i + 1] + p[i + 5];
    c += p[i + 2] + p[i + 6];
    d += p[i + 3] + p[i + 7];
  }
  sink = a + b + c + d;
}

static void stream_write(uint64_t bytes, int nt) {
  uint64_t* p = (uint64_t*)memmap;
  const uint64_t v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  if (nt) {
    for (uint64_t i = 0; i < bytes / 8; i += 8) {
      copy_page_nt((rpage*)(p + i), (const rpage*)v, 64);
    }
    __asm__ volatile("sfence" ::: "memory");
    return;
  }
  for (uint64_t i = 0; i < bytes / 8; i += 8) {
    __builtin_memcpy(p + i, v, 64);
    __asm__ volatile("" : : "r"(p + i) : "memory");
  }
}

/* One measurement: the memcost plugin's window (entry=replica_window). */
__attribute__((noinline)) void replica_window(const job* j, uint64_t pages) {
  switch (j->kind) {
    case JOB_SLOW:
      run_slow(pages, j->size);
      break;
    case JOB_TMPL:
      run_template(pages, j->size, 0);
      break;
    case JOB_NT:
      run_template(pages, j->size, 1);
      break;
    case JOB_READ:
      stream_read(pages * 64);
      break;
    case JOB_WRITE:
      stream_write(pages * 64, 0);
      break;
    case JOB_NTWRITE:
      stream_write(pages * 64, 1);
      break;
  }
}

static uint64_t now_ns(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static int usage(const char* why) {
  fprintf(stderr, "memmap-replica: %s\n", why);
  return 2;
}

static int parse_jobs(const char* text, int* chosen, int* n) {
  char copy[512];
  snprintf(copy, sizeof copy, "%s", text);
  *n = 0;
  for (char *save = NULL, *word = strtok_r(copy, ",", &save); word;
       word = strtok_r(NULL, ",", &save)) {
    int found = -1;
    for (int k = 0; k < MAX_JOBS; k++) {
      if (strcmp(word, k_jobs[k].name) == 0) {
        found = k;
      }
    }
    if (found < 0 || *n == MAX_JOBS) {
      return -1;
    }
    chosen[(*n)++] = found;
  }
  return *n > 0 ? 0 : -1;
}

static int number(const char* text, uint64_t low, uint64_t high, uint64_t* value) {
  char* end = NULL;
  if (!text || text[0] < '0' || text[0] > '9') {
    return -1;
  }
  unsigned long long v = strtoull(text, &end, 10);
  if (*end != '\0' || v < low || v > high) {
    return -1;
  }
  *value = v;
  return 0;
}

int main(int argc, char** argv) {
  uint64_t pages = 32ull << 20, rounds = 5, cpu = UINT64_MAX;
  int chosen[MAX_JOBS], n = MAX_JOBS, warmup = 1;
  for (int k = 0; k < MAX_JOBS; k++) {
    chosen[k] = k;
  }
  for (int i = 1; i < argc; i++) {
    const char* value = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(argv[i], "--pages") == 0) {
      if (number(value, 1024, 1ull << 28, &pages) != 0) {
        return usage("--pages: a count from 1024 to 2^28");
      }
      i++;
    } else if (strcmp(argv[i], "--rounds") == 0) {
      if (number(value, 1, 1000, &rounds) != 0) {
        return usage("--rounds: from 1 to 1000");
      }
      i++;
    } else if (strcmp(argv[i], "--cpu") == 0) {
      if (number(value, 0, 4095, &cpu) != 0) {
        return usage("--cpu: a CPU number");
      }
      i++;
    } else if (strcmp(argv[i], "--jobs") == 0) {
      if (!value || parse_jobs(value, chosen, &n) != 0) {
        return usage(
            "--jobs: a comma-separated list of slow64 tmpl64 nt64 slow80 ... read write ntwrite");
      }
      i++;
    } else if (strcmp(argv[i], "--no-warmup") == 0) {
      warmup = 0;
    } else {
      return usage("unknown argument (see the comment at the top of ci/memmap-replica.c)");
    }
  }
  if (cpu != UINT64_MAX) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET((int)cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
      return usage("--cpu: cannot pin to that CPU");
    }
  }
  /* 96 bytes a page at most; 2 MiB aligned, huge pages asked for. */
  const uint64_t bytes = pages * 96, huge = 2ull << 20;
  unsigned char* raw = mmap(NULL, bytes + huge, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) {
    return usage("cannot map the memmap");
  }
  memmap = (unsigned char*)(((uintptr_t)raw + huge - 1) & ~(uintptr_t)(huge - 1));
  madvise(memmap, bytes, MADV_HUGEPAGE);
  memset(memmap, 0x6b, bytes); /* every page present before any window */
  printf("replica pages=%llu rounds=%llu jobs=%d warmup=%d\n", (unsigned long long)pages,
         (unsigned long long)rounds, n, warmup);
  uint64_t seq = 0;
  for (uint64_t round = warmup ? 0 : 1; round <= rounds; round++) {
    for (int k = 0; k < n; k++) {
      const job* j = &k_jobs[chosen[(k + round) % (uint64_t)n]];
      const uint64_t start = now_ns(CLOCK_MONOTONIC), cpu_start = now_ns(CLOCK_THREAD_CPUTIME_ID);
      replica_window(j, pages);
      const uint64_t cpu_ns = now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu_start;
      const uint64_t ns = now_ns(CLOCK_MONOTONIC) - start;
      const uint64_t moved = j->size ? pages * j->size : pages * 64;
      printf("sample seq=%llu round=%llu job=%s pages=%llu bytes=%llu ns=%llu cpu_ns=%llu\n",
             (unsigned long long)++seq, (unsigned long long)round, j->name,
             (unsigned long long)pages, (unsigned long long)moved, (unsigned long long)ns,
             (unsigned long long)cpu_ns);
      fflush(stdout);
    }
  }
  munmap(raw, bytes + huge);
  return 0;
}
