/* The models' accesses on a second host thread: the QEMU plugin's callbacks
 * push each costed access (and each fence and flush) into a
 * single-producer, single-consumer queue, and one thread applies them to
 * every model in the order they were pushed, so the counts are those of
 * the same calls made inline (the unit test MemcostPipe.* and
 * tests/memcost_plugin_qemu.sh compare them). The producer reads or changes
 * a model only after mc_pipe_sync(): every pushed event applied. Under
 * icount QEMU runs every vCPU on one thread, the only producer. */
#ifndef KSERIES_MEMCOST_PIPE_H
#define KSERIES_MEMCOST_PIPE_H

#include <stdint.h>

#include "memcost/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mc_event_kind {
  MC_EV_LOAD = 0,
  MC_EV_STORE = 1,
  MC_EV_STORE_NT = 2,
  MC_EV_FENCE = 3,
  MC_EV_FLUSH = 4 /* a clflush/clwb counted (not applied: model.h) */
} mc_event_kind;

typedef struct mc_pipe mc_pipe;

/* A pipe into MODELS[0..N): THREADED 0 applies every event at once in the
 * caller (no thread, the same counts). NULL when out of memory or threads. */
mc_pipe* mc_pipe_new(mc_model* models, int n, int threaded);
void mc_pipe_push(mc_pipe* pipe, mc_event_kind kind, uint64_t addr, unsigned size);
/* Returns once every event pushed so far has been applied. */
void mc_pipe_sync(mc_pipe* pipe);
/* Applies what is left, stops the thread, frees the pipe (not the models). */
void mc_pipe_free(mc_pipe* pipe);
/* Times the producer waited for a full queue, and syncs, for the record. */
uint64_t mc_pipe_full_waits(const mc_pipe* pipe);
uint64_t mc_pipe_syncs(const mc_pipe* pipe);

#ifdef __cplusplus
}
#endif

#endif
