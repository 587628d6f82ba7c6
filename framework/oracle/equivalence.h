#pragma once
// The host verdict of testcases/memmap-equivalence: per setup, the dumps
// the guest sent (<setup>-fast, <setup>-slow, <setup>-unwritten) are read
// from the bulk disk, checked against their sha256, and judged:
//  - fast and slow dumps each pass the 6.12 invariants (invariants.h);
//  - fast equals slow field by field after normalisation (dump_compare.h);
//  - the slow dump was taken with page_ref_set on, the fast one with it off,
//    and the slow bind emitted at least one event per struct page written;
//  - proof the oracle sees stale state: in <setup>-unwritten the module
//    re-poisoned one page after the init, and both the comparison and the
//    invariants must name that PFN (if not, the setup fails: the oracle is
//    blind, whatever the other checks say).

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "guest/protocol.h"
#include "oracle/memmap_dump.h"

namespace kseries::oracle {

enum class VerdictStatus { k_pass, k_fail, k_skip };

struct SetupVerdict {
  std::string setup;  // fsdax-mem, devdax-dev, ...
  VerdictStatus status = VerdictStatus::k_fail;
  std::string summary;  // one line
  std::string details;  // the comparison and invariant reports (JUnit failure text)
};

struct SetupDumps {
  std::string setup;
  std::optional<MemmapDump> fast;
  std::optional<MemmapDump> slow;
  std::optional<MemmapDump> unwritten;
  // page_ref_set events the slow bind produced (the guest's measure), if known.
  std::optional<uint64_t> slow_trace_events;
  // The guest found page_ref_set enabled from outside the case for the
  // fast bind (trace_event= on the command line): that bind was a slow
  // bind by the series' contract, not the fast path (measure
  // tracepoint_on_in_fast_bind).
  bool traced_from_outside = false;
};

// The fewest page_ref_set events a slow-path init of DUMP's range emits:
// one per struct page it writes (init_page_count), i.e. every PFN for
// order 0 or an altmap, 128 per compound page when the vmemmap is
// optimised (compound_nr_pages()), every PFN when it cannot be (a struct
// page of 80 or 96 bytes: not a power of two). Fewer means the fast path
// ran although the tracepoint was on.
uint64_t min_slow_path_events(const MemmapDump& dump);

// Judges one setup's dumps (the part tests drive with generated dumps).
SetupVerdict judge_setup(const SetupDumps& dumps);

// Reads every <setup>-{fast,slow,unwritten} blob the events announce from
// DISK_IMAGE and judges each setup, in the order the blobs appear. A blob
// that fails its checksum or does not parse fails its setup.
std::vector<SetupVerdict> judge_memmap_equivalence(const std::vector<guest::Event>& events,
                                                   const std::filesystem::path& disk_image);

// The dumps the events announce, per setup in blob order; a blob that
// fails its checksum or does not parse is recorded in ERRORS[setup].
std::vector<SetupDumps> collect_setup_dumps(const std::vector<guest::Event>& events,
                                            const std::filesystem::path& disk_image,
                                            std::map<std::string, std::string>& errors);

// memmap-vs-base: the series kernel's dumps of a setup against the base
// kernel's, taken by the same guest sequence in another boot: fast vs fast
// (the series' template path against the base's only path) and slow vs
// slow, after normalisation; the series' fast dump must pass the invariants.
SetupVerdict judge_vs_base(const SetupDumps& base, const SetupDumps& series);

std::string_view verdict_name(VerdictStatus status);

}  // namespace kseries::oracle
