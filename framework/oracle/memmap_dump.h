#pragma once
// The memmap dump format written by testcases/memmap-dump/memmap_dump.c
// (described in testcases/memmap-dump/README.md): a header of u64 words
// (sizeof/offsetof of struct page and folio fields, vmemmap base, the
// pgmap, the PFN ranges) and run-length records of raw struct pages.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kseries::oracle {

inline constexpr std::string_view k_dump_magic = "KSMMDMP1";
inline constexpr uint32_t k_dump_version = 1;
// A header word the kernel does not have (no WANT_PAGE_VIRTUAL, no altmap).
inline constexpr uint64_t k_absent = ~0ULL;

// Header words in file order; the module appends, never reorders.
enum class Word : int {
  k_sizeof_page,
  k_off_flags,
  k_off_compound_head,
  k_off_lru,
  k_off_mapping,
  k_off_index,
  k_off_private,
  k_off_mapcount,
  k_off_refcount,
  k_off_pgmap,
  k_off_zone_device_data,
  k_off_memcg_data,
  k_off_virtual,
  k_off_last_cpupid,
  k_off_flags_1,  // folio fields: offsets within the tail page that holds them
  k_off_head_1,
  k_off_large_mapcount,
  k_off_entire_mapcount,
  k_off_nr_pages_mapped,
  k_off_pincount,
  k_off_folio_nr_pages,
  k_off_flags_2,
  k_off_head_2,
  k_off_deferred_list,
  k_vmemmap_base,
  k_direct_map_base,
  k_page_shift,
  k_section_size_bits,
  k_pfn_section_shift,
  k_section_in_page_flags,
  k_sections_pgshift,
  k_sections_mask,
  k_nodes_pgshift,
  k_nodes_mask,
  k_zones_pgshift,
  k_zones_mask,
  k_zone_device_idx,
  k_pg_reserved,
  k_pg_head,
  k_pgmap_addr,
  k_pgmap_type,
  k_pgmap_flags,
  k_vmemmap_shift,
  k_range_start_pfn,
  k_range_end_pfn,
  k_init_start_pfn,
  k_init_end_pfn,
  k_dump_start_pfn,
  k_dump_end_pfn,
  k_altmap_valid,
  k_altmap_base_pfn,
  k_altmap_reserve,
  k_altmap_free,
  k_init_calls,
  k_poisoned,
  k_poison_byte,
  k_unwritten_pfn,
  k_tracepoint_on_at_init,
  k_nid,
  k_tail_mapping,  // TAIL_MAPPING (added after the first dumps: may be absent)
  // CONFIG_KMSAN's struct page pointers (added with the 80/96-byte layouts:
  // absent in older dumps and in kernels without KMSAN).
  k_off_kmsan_shadow,
  k_off_kmsan_origin,
  k_count  // number of words this reader knows
};
// Dumps written before a word was appended have fewer words: those read as
// k_absent. Every version-1 dump has at least these.
inline constexpr int k_required_words = static_cast<int>(Word::k_nid) + 1;

// The name of a header word ("sizeof_page", "off_flags", ...).
std::string_view word_name(Word word);

// enum memory_type in 6.12 include/linux/memremap.h.
enum class PgmapType : uint64_t {
  k_private = 1,
  k_coherent = 2,
  k_fs_dax = 3,
  k_generic = 4,
  k_pci_p2pdma = 5,
};
std::string pgmap_type_name(uint64_t type);

struct DumpHeader {
  uint32_t version = k_dump_version;
  // At least Word::k_count entries (an older reader ignores the extra ones).
  std::vector<uint64_t> words = std::vector<uint64_t>(static_cast<size_t>(Word::k_count), k_absent);

  uint64_t get(Word word) const { return words[static_cast<size_t>(word)]; }
  void set(Word word, uint64_t value) { words[static_cast<size_t>(word)] = value; }
  bool has(Word word) const { return get(word) != k_absent; }
  size_t page_size() const { return static_cast<size_t>(get(Word::k_sizeof_page)); }
};

// Consecutive PFNs whose raw struct pages are byte-identical.
struct PageRun {
  uint64_t first_pfn = 0;
  uint64_t count = 0;
  std::string bytes;  // sizeof(struct page) raw bytes
};

class MemmapDump {
 public:
  MemmapDump() = default;
  MemmapDump(DumpHeader header, std::vector<PageRun> runs);

  const DumpHeader& header() const { return m_header; }
  DumpHeader& header() { return m_header; }
  const std::vector<PageRun>& runs() const { return m_runs; }
  uint64_t start_pfn() const { return m_header.get(Word::k_dump_start_pfn); }
  uint64_t end_pfn() const { return m_header.get(Word::k_dump_end_pfn); }
  bool contains(uint64_t pfn) const { return pfn >= start_pfn() && pfn < end_pfn(); }
  // The raw bytes of PFN's struct page; nullopt outside the dump.
  std::optional<std::string_view> page(uint64_t pfn) const;
  // Replaces PFN's bytes (splitting its run): for tests that corrupt a dump.
  void set_page(uint64_t pfn, std::string bytes);

 private:
  DumpHeader m_header;
  std::vector<PageRun> m_runs;  // sorted, contiguous, covering [start, end)
};

// Parses a dump; throws Error(k_usage) saying what is wrong and at which
// byte offset (bad magic, truncated record, runs that leave a gap).
MemmapDump parse_memmap_dump(std::string_view bytes);
// Writes the format the module writes, merging equal neighbouring runs.
std::string encode_memmap_dump(const MemmapDump& dump);

}  // namespace kseries::oracle
