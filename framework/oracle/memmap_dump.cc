#include "oracle/memmap_dump.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "core/error.h"

namespace kseries::oracle {

namespace {

constexpr std::array<std::string_view, static_cast<size_t>(Word::k_count)> k_word_names = {
    "sizeof_page",
    "off_flags",
    "off_compound_head",
    "off_lru",
    "off_mapping",
    "off_index",
    "off_private",
    "off_mapcount",
    "off_refcount",
    "off_pgmap",
    "off_zone_device_data",
    "off_memcg_data",
    "off_virtual",
    "off_last_cpupid",
    "off_flags_1",
    "off_head_1",
    "off_large_mapcount",
    "off_entire_mapcount",
    "off_nr_pages_mapped",
    "off_pincount",
    "off_folio_nr_pages",
    "off_flags_2",
    "off_head_2",
    "off_deferred_list",
    "vmemmap_base",
    "direct_map_base",
    "page_shift",
    "section_size_bits",
    "pfn_section_shift",
    "section_in_page_flags",
    "sections_pgshift",
    "sections_mask",
    "nodes_pgshift",
    "nodes_mask",
    "zones_pgshift",
    "zones_mask",
    "zone_device_idx",
    "pg_reserved",
    "pg_head",
    "pgmap_addr",
    "pgmap_type",
    "pgmap_flags",
    "vmemmap_shift",
    "range_start_pfn",
    "range_end_pfn",
    "init_start_pfn",
    "init_end_pfn",
    "dump_start_pfn",
    "dump_end_pfn",
    "altmap_valid",
    "altmap_base_pfn",
    "altmap_reserve",
    "altmap_free",
    "init_calls",
    "poisoned",
    "poison_byte",
    "unwritten_pfn",
    "tracepoint_on_at_init",
    "nid",
    "tail_mapping",
    "off_kmsan_shadow",
    "off_kmsan_origin",
};

uint64_t load_u64(std::string_view bytes, size_t at) {
  uint64_t value = 0;
  std::memcpy(&value, bytes.data() + at, sizeof(value));  // the dump is little-endian, as x86
  return value;
}

uint32_t load_u32(std::string_view bytes, size_t at) {
  uint32_t value = 0;
  std::memcpy(&value, bytes.data() + at, sizeof(value));
  return value;
}

void store(std::string& out, const void* data, size_t size) {
  out.append(static_cast<const char*>(data), size);
}

Error format_error(size_t offset, const std::string& what) {
  return usage_error("memmap dump: " + what + " (at byte " + std::to_string(offset) + ")");
}

}  // namespace

std::string_view word_name(Word word) { return k_word_names[static_cast<size_t>(word)]; }

std::string pgmap_type_name(uint64_t type) {
  switch (static_cast<PgmapType>(type)) {
    case PgmapType::k_private:
      return "MEMORY_DEVICE_PRIVATE";
    case PgmapType::k_coherent:
      return "MEMORY_DEVICE_COHERENT";
    case PgmapType::k_fs_dax:
      return "MEMORY_DEVICE_FS_DAX";
    case PgmapType::k_generic:
      return "MEMORY_DEVICE_GENERIC";
    case PgmapType::k_pci_p2pdma:
      return "MEMORY_DEVICE_PCI_P2PDMA";
  }
  return "memory_type " + std::to_string(type);
}

MemmapDump::MemmapDump(DumpHeader header, std::vector<PageRun> runs)
    : m_header(std::move(header)), m_runs(std::move(runs)) {}

std::optional<std::string_view> MemmapDump::page(uint64_t pfn) const {
  auto it = std::upper_bound(m_runs.begin(), m_runs.end(), pfn,
                             [](uint64_t p, const PageRun& run) { return p < run.first_pfn; });
  if (it == m_runs.begin()) {
    return std::nullopt;
  }
  --it;
  if (pfn >= it->first_pfn + it->count) {
    return std::nullopt;
  }
  return std::string_view(it->bytes);
}

void MemmapDump::set_page(uint64_t pfn, std::string bytes) {
  for (size_t i = 0; i < m_runs.size(); ++i) {
    PageRun run = m_runs[i];
    if (pfn < run.first_pfn || pfn >= run.first_pfn + run.count) {
      continue;
    }
    std::vector<PageRun> pieces;
    if (pfn > run.first_pfn) {
      pieces.push_back({run.first_pfn, pfn - run.first_pfn, run.bytes});
    }
    pieces.push_back({pfn, 1, std::move(bytes)});
    if (pfn + 1 < run.first_pfn + run.count) {
      pieces.push_back({pfn + 1, run.first_pfn + run.count - pfn - 1, run.bytes});
    }
    m_runs.erase(m_runs.begin() + static_cast<long>(i));
    m_runs.insert(m_runs.begin() + static_cast<long>(i), pieces.begin(), pieces.end());
    return;
  }
  throw usage_error("memmap dump: PFN " + std::to_string(pfn) + " is not in the dump");
}

MemmapDump parse_memmap_dump(std::string_view bytes) {
  if (bytes.size() < 16 || bytes.substr(0, 8) != k_dump_magic) {
    throw format_error(0, "not a memmap dump (no " + std::string(k_dump_magic) + " magic)");
  }
  DumpHeader header;
  header.version = load_u32(bytes, 8);
  const uint32_t nwords = load_u32(bytes, 12);
  if (header.version != k_dump_version) {
    throw format_error(8, "version " + std::to_string(header.version) + ", this reader knows " +
                              std::to_string(k_dump_version));
  }
  if (nwords < static_cast<uint32_t>(k_required_words)) {
    throw format_error(12, "header has " + std::to_string(nwords) + " words, expected at least " +
                               std::to_string(k_required_words));
  }
  size_t pos = 16;
  if (bytes.size() < pos + nwords * 8ULL) {
    throw format_error(pos, "truncated header");
  }
  header.words.assign(std::max<size_t>(nwords, static_cast<size_t>(Word::k_count)), k_absent);
  for (uint32_t i = 0; i < nwords; ++i) {
    header.words[i] = load_u64(bytes, pos + i * 8ULL);
  }
  pos += nwords * 8ULL;
  const size_t psz = header.page_size();
  if (psz == 0 || psz > 4096 || psz % 8 != 0) {
    throw format_error(16, "implausible sizeof(struct page) " + std::to_string(psz));
  }
  std::vector<PageRun> runs;
  uint64_t next = header.get(Word::k_dump_start_pfn);
  while (true) {
    if (bytes.size() < pos + 16) {
      throw format_error(pos, "truncated: no end record");
    }
    const uint64_t pfn = load_u64(bytes, pos);
    const uint64_t count = load_u64(bytes, pos + 8);
    if (pfn != next) {
      throw format_error(pos, "record for PFN " + std::to_string(pfn) + " where PFN " +
                                  std::to_string(next) + " was due");
    }
    pos += 16;
    if (count == 0) {
      break;
    }
    if (bytes.size() < pos + psz) {
      throw format_error(pos, "truncated page bytes");
    }
    runs.push_back({pfn, count, std::string(bytes.substr(pos, psz))});
    pos += psz;
    next = pfn + count;
  }
  if (next != header.get(Word::k_dump_end_pfn)) {
    throw format_error(pos, "records end at PFN " + std::to_string(next) + ", header says " +
                                std::to_string(header.get(Word::k_dump_end_pfn)));
  }
  if (pos != bytes.size()) {
    throw format_error(pos, std::to_string(bytes.size() - pos) + " bytes after the end record");
  }
  return MemmapDump(std::move(header), std::move(runs));
}

std::string encode_memmap_dump(const MemmapDump& dump) {
  std::string out(k_dump_magic);
  const DumpHeader& header = dump.header();
  const uint32_t version = header.version;
  const uint32_t nwords = static_cast<uint32_t>(header.words.size());
  store(out, &version, 4);
  store(out, &nwords, 4);
  for (uint64_t word : header.words) {
    store(out, &word, 8);
  }
  const auto& runs = dump.runs();
  for (size_t i = 0; i < runs.size();) {
    uint64_t count = runs[i].count;
    size_t j = i + 1;
    while (j < runs.size() && runs[j].bytes == runs[i].bytes) {
      count += runs[j].count;
      ++j;
    }
    store(out, &runs[i].first_pfn, 8);
    store(out, &count, 8);
    out += runs[i].bytes;
    i = j;
  }
  const uint64_t end = dump.end_pfn();
  const uint64_t zero = 0;
  store(out, &end, 8);
  store(out, &zero, 8);
  return out;
}

}  // namespace kseries::oracle
