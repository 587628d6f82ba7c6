#pragma once
// The compiler's own record of which source lines produced code: the DWARF
// line table of an ELF file (vmlinux, a module), read with elfutils' libdw.
// Only the rows of the files asked for are kept. A row's code is the address
// range up to the next row of its sequence; a line may have many rows: one
// per place the compiler put code for it, in one object or, for a line of a
// header (a static inline function), in every object that compiled it (each
// is a compile unit of its own, kept by name).

#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace kseries::coverage {

struct CodeRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;  // exclusive; a row with no instruction of its own gets begin + 1
};

struct LineCode {
  std::vector<CodeRange> ranges;
  std::set<std::string> units;  // compile units (the .c files of the objects) holding its code
};

class LineTable {
 public:
  // One row: PATH (relative to the source tree) LINE has code in RANGE of UNIT.
  void add(const std::string& path, int line, CodeRange range, const std::string& unit);
  // The code of PATH:LINE, or nullptr when no row names it.
  const LineCode* find(const std::string& path, int line) const;
  // Whether any row names PATH at all (the file produced code somewhere).
  bool has_file(const std::string& path) const { return m_files.count(path) > 0; }
  // Whether any row names a line of PATH in [FIRST, LAST] (one lookup).
  bool has_row_in(const std::string& path, int first, int last) const;
  std::size_t rows() const { return m_rows; }
  // Adds OTHER's rows (a module's table to vmlinux's).
  void merge(const LineTable& other);

 private:
  std::map<std::string, std::map<int, LineCode>> m_files;
  std::size_t m_rows = 0;
};

// The relative path of WANTED that the row's file name FILE stands for, or
// "" when none: FILE, made lexically normal, equals a wanted path or ends
// with "/" + it (an out-of-tree build names its sources by absolute path).
std::string match_wanted(const std::string& file, const std::set<std::string>& wanted);

// Reads the line table of ELF (an executable, or a relocatable .ko, whose
// relocations libdwfl applies), keeping the rows of the WANTED files.
// Throws Error(k_usage) naming the file when it is no ELF file or has no
// DWARF line table (a kernel built without CONFIG_DEBUG_INFO).
LineTable read_line_table(const std::filesystem::path& elf, const std::set<std::string>& wanted);

}  // namespace kseries::coverage
