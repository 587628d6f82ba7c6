#pragma once
// Field-by-field comparison of two memmap dumps of the same device (fast
// path vs slow path, base vs series) after normalisation. Differences are
// grouped: one group per (field, page role, expected bytes, actual bytes),
// with the number of pages that share it and the first PFNs.

#include <cstdint>
#include <string>
#include <vector>

#include "oracle/memmap_dump.h"
#include "oracle/page_layout.h"

namespace kseries::oracle {

struct MismatchGroup {
  std::string field;
  PageRole role = PageRole::k_outside;
  std::string expected;  // normalised bytes of the field, hex
  std::string actual;
  std::string expected_text;  // render_value()
  std::string actual_text;
  uint64_t count = 0;      // pages with exactly this mismatch
  uint64_t first_pfn = 0;  // the first of them, and its place in its compound page
  std::string first_position;
  std::vector<uint64_t> sample_pfns;  // up to k_samples
};

struct Comparison {
  static constexpr size_t k_samples = 8;
  // Dumps that cannot be compared (different struct page layout, range,
  // geometry) say why here and have no groups.
  std::vector<std::string> incompatible;
  std::vector<MismatchGroup> groups;  // largest count first
  uint64_t pages_compared = 0;
  uint64_t pages_differing = 0;

  bool equal() const { return incompatible.empty() && groups.empty(); }
};

// Compares the PFNs both dumps hold. EXPECTED is the reference (slow path,
// base kernel), ACTUAL the one under test (fast path, series).
Comparison compare_dumps(const MemmapDump& expected, const MemmapDump& actual);

// A report for people and for JUnit failure text, at most MAX_GROUPS groups:
//   pfn 0x100201 (tail 1 of head 0x100200) field _folio_nr_pages: expected
//   512 (0x200) [00 02 00 00], actual poison (never written) [c3 c3 c3 c3];
//   1 page(s) share this mismatch (first: 0x100201)
std::string format_comparison(const Comparison& comparison, size_t max_groups = 20);

}  // namespace kseries::oracle
