// Fuzzes the struct page dump reader: the dumps are written by a module in
// the guest kernel under test and read back on the host (the oracle's input).
// A dump that parses must encode again and read back the same.
#include <optional>

#include "fuzz_input.h"
#include "oracle/memmap_dump.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::optional<kseries::oracle::MemmapDump> dump;
  kseries::fuzz::refusal_is_fine(
      [&] { dump = kseries::oracle::parse_memmap_dump(kseries::fuzz::text_of(data, size)); });
  if (!dump) {
    return 0;
  }
  for (std::uint64_t pfn = dump->start_pfn(); pfn < dump->end_pfn() && pfn < dump->start_pfn() + 64;
       ++pfn) {
    dump->page(pfn);
  }
  // No catch: what the reader accepted, the writer must write readably.
  const auto again = kseries::oracle::parse_memmap_dump(kseries::oracle::encode_memmap_dump(*dump));
  kseries::fuzz::require(again.start_pfn() == dump->start_pfn() &&
                         again.end_pfn() == dump->end_pfn());
  return 0;
}
