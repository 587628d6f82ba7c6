/* The queue of pipe.h: blocks of events; the producer fills one block at a
 * time and publishes it whole (one atomic store per block, not per event),
 * the consumer applies published blocks in order and marks them consumed.
 * An idle consumer (outside the windows: most of a boot) sleeps on a
 * condition variable after a short spin; the producer wakes it when it
 * publishes a block and sees it asleep. */
#include "memcost/pipe.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#define BLOCK 4096u /* events per block (16 bytes each: 64 KiB) */
#define BLOCKS 16u  /* blocks in the queue */
#define SPINS 20000 /* the consumer's polls before it sleeps */

/* An access, fence or flush. (Folding runs of accesses to one line into
 * one event made the consumer idle and the boot slower: the producer's
 * test of the last event, on every access, is on the critical path.) */
typedef struct mc_event {
  uint64_t addr;
  uint32_t size;
  uint32_t kind;
} mc_event;

struct mc_pipe {
  mc_model* models;
  int n_models;
  int threaded;
  mc_event* events; /* BLOCKS * BLOCK */
  uint32_t len[BLOCKS];
  uint32_t fill; /* the producer's: events in its current block */
  uint64_t full_waits, syncs;
  _Atomic uint64_t published; /* blocks published (written by the producer) */
  _Atomic uint64_t consumed;  /* blocks applied (written by the consumer) */
  _Atomic int sleeping, stop;
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t wake;
};

static void apply(mc_pipe* p, const mc_event* e, uint32_t n) {
  for (uint32_t i = 0; i < n; i++, e++) {
    for (int m = 0; m < p->n_models; m++) {
      mc_model* model = &p->models[m];
      switch (e->kind) {
        case MC_EV_LOAD:
          mc_load(model, e->addr, e->size);
          break;
        case MC_EV_STORE:
          mc_store(model, e->addr, e->size);
          break;
        case MC_EV_STORE_NT:
          mc_store_nt(model, e->addr, e->size);
          break;
        case MC_EV_FENCE:
          mc_fence(model);
          break;
        default:
          model->count.flushes++;
          break;
      }
    }
  }
}

static void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/* The consumer: waits for block C to be published (or the stop). */
static int wait_published(mc_pipe* p, uint64_t c) {
  for (int i = 0; i < SPINS; i++) {
    if (atomic_load_explicit(&p->published, memory_order_acquire) != c) {
      return 1;
    }
    cpu_relax();
  }
  pthread_mutex_lock(&p->lock);
  atomic_store(&p->sleeping, 1); /* seq_cst: against the producer's publish */
  while (atomic_load(&p->published) == c && !atomic_load(&p->stop)) {
    pthread_cond_wait(&p->wake, &p->lock);
  }
  atomic_store(&p->sleeping, 0);
  pthread_mutex_unlock(&p->lock);
  return atomic_load_explicit(&p->published, memory_order_acquire) != c;
}

static void* consume(void* arg) {
  mc_pipe* p = arg;
  for (uint64_t c = 0;; c++) {
    if (!wait_published(p, c)) {
      return NULL; /* stopped with nothing left */
    }
    uint32_t slot = (uint32_t)(c % BLOCKS);
    apply(p, &p->events[(size_t)slot * BLOCK], p->len[slot]);
    atomic_store_explicit(&p->consumed, c + 1, memory_order_release);
  }
}

mc_pipe* mc_pipe_new(mc_model* models, int n, int threaded) {
  mc_pipe* p = calloc(1, sizeof *p);
  if (!p) {
    return NULL;
  }
  p->models = models;
  p->n_models = n;
  p->threaded = threaded;
  if (!threaded) {
    return p;
  }
  p->events = calloc((size_t)BLOCKS * BLOCK, sizeof *p->events);
  pthread_mutex_init(&p->lock, NULL);
  pthread_cond_init(&p->wake, NULL);
  if (!p->events || pthread_create(&p->thread, NULL, consume, p) != 0) {
    free(p->events);
    free(p);
    return NULL;
  }
  return p;
}

static void wake_consumer(mc_pipe* p) {
  if (atomic_load(&p->sleeping)) {
    pthread_mutex_lock(&p->lock);
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
  }
}

static void wait_until(mc_pipe* p, uint64_t consumed_at_least) {
  for (unsigned i = 0;
       atomic_load_explicit(&p->consumed, memory_order_acquire) < consumed_at_least; i++) {
    if (i < 1000) {
      cpu_relax();
    } else {
      sched_yield(); /* on a host with fewer cores than threads */
    }
  }
}

/* Publishes the producer's current block; returns once the next one is free. */
static void publish(mc_pipe* p) {
  uint64_t pub = atomic_load_explicit(&p->published, memory_order_relaxed);
  p->len[pub % BLOCKS] = p->fill;
  p->fill = 0;
  atomic_store(&p->published, pub + 1); /* seq_cst: against the consumer's sleep */
  wake_consumer(p);
  if (pub + 1 - atomic_load_explicit(&p->consumed, memory_order_acquire) >= BLOCKS) {
    p->full_waits++;
    wait_until(p, pub + 2 - BLOCKS);
  }
}

void mc_pipe_push(mc_pipe* p, mc_event_kind kind, uint64_t addr, unsigned size) {
  if (!p->threaded) {
    mc_event e = {addr, size, kind};
    apply(p, &e, 1);
    return;
  }
  uint64_t pub = atomic_load_explicit(&p->published, memory_order_relaxed);
  mc_event* e = &p->events[(size_t)(pub % BLOCKS) * BLOCK + p->fill];
  e->addr = addr;
  e->size = size;
  e->kind = kind;
  if (++p->fill == BLOCK) {
    publish(p);
  }
}

void mc_pipe_sync(mc_pipe* p) {
  if (!p->threaded) {
    return;
  }
  p->syncs++;
  if (p->fill > 0) {
    publish(p);
  }
  wait_until(p, atomic_load_explicit(&p->published, memory_order_relaxed));
}

void mc_pipe_free(mc_pipe* p) {
  if (!p) {
    return;
  }
  if (p->threaded) {
    mc_pipe_sync(p);
    pthread_mutex_lock(&p->lock);
    atomic_store(&p->stop, 1);
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->thread, NULL);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->wake);
    free(p->events);
  }
  free(p);
}

uint64_t mc_pipe_full_waits(const mc_pipe* p) { return p->full_waits; }
uint64_t mc_pipe_syncs(const mc_pipe* p) { return p->syncs; }
