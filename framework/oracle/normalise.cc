#include "oracle/normalise.h"

#include <cstdio>
#include <cstring>

namespace kseries::oracle {

namespace {

void put(std::string& bytes, size_t at, uint64_t value) {
  std::memcpy(bytes.data() + at, &value, sizeof(value));
}

}  // namespace

uint64_t load_le(std::string_view bytes, uint64_t at, size_t size) {
  uint64_t value = 0;
  std::memcpy(&value, bytes.data() + at, size);
  return value;
}

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

uint64_t page_address(const DumpHeader& header, uint64_t pfn) {
  return header.get(Word::k_vmemmap_base) + pfn * header.page_size();
}

std::string normalise_page(const DumpHeader& header, uint64_t pfn, std::string_view raw) {
  std::string page(raw);
  const size_t psz = header.page_size();
  const uint64_t self = page_address(header, pfn);
  const uint64_t vmemmap = header.get(Word::k_vmemmap_base);
  const size_t link_off = static_cast<size_t>(header.get(Word::k_off_compound_head));
  const PagePosition pos = position_of(header, pfn);
  for (size_t off = 0; off + 8 <= psz; off += 8) {
    const uint64_t value = load_le(page, off, 8);
    if (off == link_off && header.has(Word::k_pgmap_addr) &&
        value == header.get(Word::k_pgmap_addr)) {
      put(page, off, k_token_pgmap);
    } else if (off == link_off && (value & 1) && value - 1 >= vmemmap &&
               (value - 1 - vmemmap) % psz == 0) {
      // A tail's compound_head: head address | 1.
      const uint64_t target = (value - 1 - vmemmap) / psz;
      if (target == pos.head_pfn && pos.is_tail()) {
        put(page, off, k_token_own_head);
      } else {
        put(page, off, k_token_link | ((pfn - target) << 1));
      }
    } else if (value >= self && value < self + psz) {
      put(page, off, k_token_self | (value - self));  // an empty list_head in this page
    } else if (pos.role != PageRole::k_outside && value >= vmemmap && (value & 7) == 0) {
      // Into another page of this compound page: a list head that was empty
      // in that page (pointing at itself), copied here by value.
      const uint64_t target = (value - vmemmap) / psz;
      const PagePosition tp = position_of(header, target);
      if (tp.role != PageRole::k_outside && tp.head_pfn == pos.head_pfn && target != pfn) {
        put(page, off, k_token_copied_self | (tp.index << 12) | ((value - vmemmap) % psz));
      }
    }
  }
  return page;
}

bool is_poison(const DumpHeader& header, std::string_view bytes) {
  if (!header.has(Word::k_poison_byte) || bytes.empty()) {
    return false;
  }
  const char poison = static_cast<char>(header.get(Word::k_poison_byte));
  for (char c : bytes) {
    if (c != poison) {
      return false;
    }
  }
  return true;
}

std::string render_value(const DumpHeader& header, std::string_view bytes) {
  if (is_poison(header, bytes) && header.get(Word::k_poisoned) == 1) {
    return "poison (never written)";
  }
  if (bytes.size() == 8) {
    const uint64_t value = load_le(bytes, 0, 8);
    if (value == k_token_pgmap) {
      return "pgmap";
    }
    if (value == k_token_own_head) {
      return "own head|1";
    }
    if ((value & 0xffffffff00000000ULL) == k_token_self) {
      return "self+" + std::to_string(value & 0xffffffffULL) + " (empty list)";
    }
    if ((value & 0xffffffff00000000ULL) == k_token_copied_self) {
      return "tail " + std::to_string((value & 0xffffffffULL) >> 12) + "'s own address+" +
             std::to_string(value & 0xfff) + " " + std::string(k_copied_list_text);
    }
    if ((value & 0xffffffff00000001ULL) == k_token_link) {
      const auto delta = static_cast<int64_t>(static_cast<int32_t>((value & 0xffffffffULL) >> 1));
      return "head at pfn" + std::string(delta > 0 ? "-" : "+") +
             std::to_string(delta > 0 ? delta : -delta) + "|1";
    }
    return hex(value);
  }
  if (bytes.size() == 4) {
    const auto value = static_cast<uint32_t>(load_le(bytes, 0, 4));
    return std::to_string(static_cast<int32_t>(value)) + " (" + hex(value) + ")";
  }
  return hex_bytes(bytes);
}

std::string hex_bytes(std::string_view bytes) {
  std::string out;
  char text[4];
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::snprintf(text, sizeof(text), "%02x", static_cast<unsigned char>(bytes[i]));
    if (i > 0) {
      out += ' ';
    }
    out += text;
  }
  return out;
}

}  // namespace kseries::oracle
