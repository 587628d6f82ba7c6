#ifndef KSERIES_MEMCOST_FRAMES_H
#define KSERIES_MEMCOST_FRAMES_H
/* The calls a window has made and not yet returned from: a small shadow
 * stack, bounded, driven by the calls and returns the plugin sees on the
 * window's own stack. It tells where an instruction of a callee was
 * reached from: the call site in the window's own function (the outermost
 * frame) and the innermost call. The ordering tracker names a locked
 * instruction with both (docs/memory-clock.md).
 *
 * A frame is keyed by the stack slot its call pushed the return address
 * to; a return pops every frame at or below the slot it loads from. So
 * returns that reuse a slot (a retpoline's call and ret, SRSO's return
 * thunk, a call that never returns here) do not unbalance it: a frame
 * whose return was not seen goes when a return or a call above it is.
 *
 * Pure C, no QEMU: the plugin (plugin.c) feeds it, the unit tests feed it
 * synthetic streams. */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MC_MAX_FRAMES 32

typedef struct mc_frame {
  uint64_t slot; /* the address the call's push wrote (the callee's return address) */
  uint64_t site; /* the call instruction's address */
} mc_frame;

typedef struct mc_frames {
  mc_frame frame[MC_MAX_FRAMES]; /* outermost first */
  int depth;                     /* frames held */
  /* Calls made while MC_MAX_FRAMES were held are not kept: deep is set
   * and deep_slot is the shallowest of their slots, until a return or call
   * at or above it. */
  int deep;
  uint64_t deep_slot;
} mc_frames;

/* Empty: the window's own function runs. */
void mc_frames_reset(mc_frames* frames);
/* A call at SITE pushed its return address to SLOT. */
void mc_frames_call(mc_frames* frames, uint64_t slot, uint64_t site);
/* A return loaded its return address from SLOT. */
void mc_frames_ret(mc_frames* frames, uint64_t slot);
/* The call site in the window's own function of what runs now; 0 when the
 * window's own function runs. */
uint64_t mc_frames_outer(const mc_frames* frames);
/* The innermost call (the site in the caller of what runs now); 0 when the
 * window's own function runs, or when it lies deeper than the frames held
 * (unknown). */
uint64_t mc_frames_inner(const mc_frames* frames);

#ifdef __cplusplus
}
#endif
#endif
