#pragma once
// What a ZONE_DEVICE bind and its teardown leave beyond the struct pages
// (issue 46), from testcases/memmap-state: at four moments of each setup
// (before the bind, bound, unbound, after the namespace is reconfigured)
// the vmstat memmap counters, every zone of the node (start pfn, spanned,
// present, zone->contiguous) and, bound, the migratetype of every pageblock
// of the device range. Upstream bugs in this code were visible only there:
// per-pageblock state set only for the struct pages a path initialised
// (devdax with 1 GiB compound pages), a teardown that walks the wrong zone
// or leaves a span behind, memmap accounting that does not shrink back.
//
// Two judges: a setup alone (its own arithmetic: the counters return to
// their value before the bind, every zone but ZONE_DEVICE (which 6.12 never
// shrinks) to its span, every pageblock of the initialised range
// MIGRATE_MOVABLE) and the series kernel against the
// base kernel (every counter's change, every zone and every pageblock run
// at every moment the same). What the base itself gets wrong is reported as
// the base's, never blamed on the series.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "guest/protocol.h"
#include "oracle/equivalence.h"

namespace kseries::oracle {

struct ZoneSpan {
  std::string name;
  uint64_t start_pfn = 0, spanned = 0, present = 0;
  int contiguous = 0;
  bool operator==(const ZoneSpan&) const = default;
};

struct PageblockRun {
  uint64_t first_pfn = 0, count = 0, migratetype = 0;
  bool operator==(const PageblockRun&) const = default;
};

struct StateMoment {
  std::string moment;  // before, bound, unbound, destroyed
  std::map<std::string, int64_t> vmstat;
  std::vector<ZoneSpan> zones;
  std::vector<PageblockRun> pageblocks;  // bound only: the device range's
  uint64_t init_start_pfn = 0, init_end_pfn = 0;
  unsigned pageblock_order = 9;
  // The device range as mapped (bound): what its memmap costs.
  uint64_t range_start_pfn = 0, range_end_pfn = 0;
  uint64_t struct_page = 0, section_pages = 0;
  bool altmap = false;
  uint64_t vmemmap_shift = 0;
  uint64_t early_pages = 0;  // in sections shared with boot RAM (the boot's memmap)
  bool has_device = false;   // the "device" line was there
};

// What a bind of the range STATE describes should add to nr_memmap_pages
// (mm/sparse-vmemmap.c, section_nr_vmemmap_pages()): the memmap's pages,
// DIV_ROUND_UP(pages * sizeof(struct page), PAGE_SIZE) per section, of the
// pages outside early sections (theirs is the boot's); for a devdax range
// with the memmap in RAM and a power-of-two struct page (its vmemmap
// deduplicated) VMEMMAP_RESERVE_NR = 2 pages per compound page, or per
// section that starts a compound page larger than a section. Also says how
// it was reckoned.
int64_t expected_memmap_pages(const StateMoment& bound, std::string& how);

struct SetupState {
  std::string setup;
  std::string layout;
  std::vector<StateMoment> moments;
  const StateMoment* at(const std::string& moment) const;
};

// The guest's text (testcases/memmap-state/guest.sh); throws Error(k_usage)
// naming the line on a malformed one.
SetupState parse_setup_state(const std::string& text);

// Every <setup>-state blob the events announce; a blob that does not read or
// parse is an error of its setup.
std::vector<SetupState> collect_setup_states(const std::vector<guest::Event>& events,
                                             const std::filesystem::path& disk_image,
                                             std::map<std::string, std::string>& errors);

// A setup's own arithmetic.
SetupVerdict judge_state(const SetupState& state);

// The series kernel's setup against the base kernel's.
SetupVerdict judge_state_vs_base(const SetupState& base, const SetupState& series);

}  // namespace kseries::oracle
