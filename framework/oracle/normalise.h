#pragma once
// Normalisation of one struct page before comparing two dumps: pointers
// that legitimately differ between two binds or two boots become tokens
// (the device's pgmap; a tail's compound_head as a link relative to the
// head; an empty list head pointing into its own page). Anything derived
// from the PFN itself (section bits, page->virtual) is not masked here: it
// is the same for the same PFN, and invariants.h checks it.

#include <cstdint>
#include <string>
#include <string_view>

#include "oracle/memmap_dump.h"
#include "oracle/page_layout.h"

namespace kseries::oracle {

inline constexpr uint64_t k_token_pgmap = 0x50474d4150000000ULL;     // == header pgmap_addr
inline constexpr uint64_t k_token_own_head = 0x4845414400000001ULL;  // compound_head -> own head
inline constexpr uint64_t k_token_self = 0x53454c4600000000ULL;      // | offset: own address+offset
inline constexpr uint64_t k_token_link = 0x4c494e4b00000001ULL;      // | (delta << 1): other head
// | (index << 12) | offset: an address inside another page of the same
// compound page (tail INDEX, at OFFSET): an empty list head copied by value
// from that page (a template) instead of pointing at its own page.
inline constexpr uint64_t k_token_copied_self = 0x434f505900000000ULL;
// How render_value() ends a k_token_copied_self value.
inline constexpr std::string_view k_copied_list_text = "(an empty list head copied from that page)";

// SIZE (<= 8) little-endian bytes of BYTES at AT.
uint64_t load_le(std::string_view bytes, uint64_t at, size_t size);

// "0x1a2b": how the oracle's reports print PFNs, addresses and flags.
std::string hex(uint64_t value);

// The struct page address of PFN in the dump's vmemmap.
uint64_t page_address(const DumpHeader& header, uint64_t pfn);

// RAW (sizeof(struct page) bytes of PFN) with pointers replaced by tokens.
std::string normalise_page(const DumpHeader& header, uint64_t pfn, std::string_view raw);

// True if every byte of BYTES is the dump's poison byte (never written).
bool is_poison(const DumpHeader& header, std::string_view bytes);

// A normalised field value for people: "pgmap", "own head",
// "poison (never written)", "-1 (0xffffffff)", "0xc000000000002000".
std::string render_value(const DumpHeader& header, std::string_view bytes);

// The field's bytes as hex, lowest address first ("ff ff ff ff").
std::string hex_bytes(std::string_view bytes);

}  // namespace kseries::oracle
