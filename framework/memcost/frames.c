/* The window's shadow stack of frames.h. */
#include "memcost/frames.h"

#include <string.h>

void mc_frames_reset(mc_frames* frames) { memset(frames, 0, sizeof *frames); }

/* Every frame pushed to SLOT or below has returned (a stack grows down). */
static void pop_to(mc_frames* frames, uint64_t slot) {
  if (frames->deep && slot >= frames->deep_slot) {
    frames->deep = 0;
  }
  while (frames->depth > 0 && frames->frame[frames->depth - 1].slot <= slot) {
    frames->depth--;
  }
}

void mc_frames_call(mc_frames* frames, uint64_t slot, uint64_t site) {
  /* A call into a slot at or above a held frame: that frame returned
   * without a return seen here. */
  pop_to(frames, slot);
  if (frames->depth == MC_MAX_FRAMES || frames->deep) {
    if (!frames->deep) {
      frames->deep = 1;
      frames->deep_slot = slot;
    }
    return;
  }
  frames->frame[frames->depth].slot = slot;
  frames->frame[frames->depth].site = site;
  frames->depth++;
}

void mc_frames_ret(mc_frames* frames, uint64_t slot) { pop_to(frames, slot); }

uint64_t mc_frames_outer(const mc_frames* frames) {
  return frames->depth > 0 ? frames->frame[0].site : 0;
}

uint64_t mc_frames_inner(const mc_frames* frames) {
  return frames->depth > 0 && !frames->deep ? frames->frame[frames->depth - 1].site : 0;
}
