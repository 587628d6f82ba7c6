#pragma once
// The executed instruction addresses the memcost plugin's cover= mode
// writes (framework/memcost/cover.c): untrusted text from a guest run,
// parsed without trusting it.
//
//   kseries-cover version=1 min=0xffff800000000000
//   0xffffffff81234567 12
//   ...
//   end pcs=N
//
// one line per distinct executed instruction of the kernel half of the
// address space, ascending, with how often it ran (a lower bound under
// multi-threaded TCG: the plugin's counters are not atomic).
//
// Read as it streams: a cover file lists every instruction a boot ran
// (millions), of which the changed lines hold a few; memory holds only
// those, whatever the file's size.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kseries::coverage {

// The most addresses one file may list (a kernel's text is far smaller),
// the longest line (an address and a count take 40 bytes) and the most
// bytes read of one file.
inline constexpr std::size_t k_max_cover_pcs = std::size_t{1} << 26;
inline constexpr std::size_t k_max_cover_line_bytes = 256;
inline constexpr std::uint64_t k_max_cover_bytes = std::uint64_t{4} << 30;

struct ExecutedPc {
  std::uint64_t pc = 0;
  std::uint64_t count = 0;
};

// One file's lines, checked as they come. Each throws Error(k_usage)
// "WHAT:LINE: why" for a missing or unknown header, a malformed line,
// addresses out of order, text after the end line, or more than max_pcs
// addresses.
class CoverParser {
 public:
  explicit CoverParser(std::string what, std::size_t max_pcs = k_max_cover_pcs);
  // Line NUMBER (1-based, without its newline): the address it lists, if any.
  std::optional<ExecutedPc> line(std::string_view text, std::size_t number);
  // After the last line: a file without even a header is refused.
  void finish() const;
  // The "end" line came and counted the addresses (a file cut short, the
  // guest killed before QEMU's atexit, has the addresses that came).
  bool complete() const { return m_complete; }

 private:
  std::string m_what;
  std::size_t m_max_pcs;
  bool m_header = false;
  bool m_complete = false;
  std::size_t m_pcs = 0;
  std::uint64_t m_last = 0;
};

struct CoverFile {
  std::vector<ExecutedPc> pcs;  // ascending, distinct
  bool complete = false;
};

// A whole file's text (tests and the fuzzer); as CoverParser.
CoverFile parse_cover_text(std::string_view text, const std::string& what,
                           std::size_t max_pcs = k_max_cover_pcs);

// Several runs (a cell's boots) merged: union of the addresses, counts added.
std::vector<ExecutedPc> merge_executed(const std::vector<CoverFile>& files);

// [begin, end) address ranges, ascending and disjoint.
using AddressRanges = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
// RANGES sorted and overlapping ones joined.
AddressRanges normalise_ranges(AddressRanges ranges);

struct Executed {
  std::vector<ExecutedPc> pcs;         // in the ranges kept, ascending, counts added
  std::size_t distinct = 0;            // distinct addresses over all the files
  std::vector<std::string> cut_short;  // the files without an "end" line
};

// FILES streamed side by side (each is sorted: a merge, one pass, memory
// for one line of each), keeping the addresses inside KEEP. Throws as
// CoverParser, and as LineReader for a file that cannot be read or passes
// the caps.
Executed read_executed(const std::vector<std::filesystem::path>& files, const AddressRanges& keep);

// How often code in [begin, end) ran: the largest count of an address of
// sorted PCS in it (0 when none ran).
std::uint64_t executions_in(const std::vector<ExecutedPc>& pcs, std::uint64_t begin,
                            std::uint64_t end);

}  // namespace kseries::coverage
