#include "coverage/line_table.h"

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include <memory>

#include "core/error.h"

namespace kseries::coverage {

void LineTable::add(const std::string& path, int line, CodeRange range, const std::string& unit) {
  LineCode& code = m_files[path][line];
  code.ranges.push_back(range);
  code.units.insert(unit);
  ++m_rows;
}

const LineCode* LineTable::find(const std::string& path, int line) const {
  const auto file = m_files.find(path);
  if (file == m_files.end()) {
    return nullptr;
  }
  const auto code = file->second.find(line);
  return code == file->second.end() ? nullptr : &code->second;
}

bool LineTable::has_row_in(const std::string& path, int first, int last) const {
  const auto file = m_files.find(path);
  if (file == m_files.end()) {
    return false;
  }
  const auto code = file->second.lower_bound(first);
  return code != file->second.end() && code->first <= last;
}

void LineTable::merge(const LineTable& other) {
  for (const auto& [path, lines] : other.m_files) {
    for (const auto& [line, code] : lines) {
      LineCode& mine = m_files[path][line];
      mine.ranges.insert(mine.ranges.end(), code.ranges.begin(), code.ranges.end());
      mine.units.insert(code.units.begin(), code.units.end());
    }
  }
  m_rows += other.m_rows;
}

std::string match_wanted(const std::string& file, const std::set<std::string>& wanted) {
  const std::string normal = std::filesystem::path(file).lexically_normal().string();
  // The whole name, else the longest wanted suffix after a '/':
  // "include/linux/mm.h" and "linux/mm.h" both end "…/include/linux/mm.h";
  // the longer is the tree's file. One lookup per component, not one
  // comparison per wanted file (a series may change thousands).
  if (wanted.count(normal)) {
    return normal;
  }
  for (std::size_t slash = normal.find('/'); slash != std::string::npos;
       slash = normal.find('/', slash + 1)) {
    const std::string suffix = normal.substr(slash + 1);
    if (!suffix.empty() && wanted.count(suffix)) {
      return suffix;
    }
  }
  return "";
}

namespace {

struct DwflDeleter {
  void operator()(Dwfl* dwfl) const { dwfl_end(dwfl); }
};

// What libdwfl needs to lay out one file offline (relocating a .ko).
char* no_debuginfo_path = nullptr;
const Dwfl_Callbacks k_offline_callbacks = {dwfl_build_id_find_elf, dwfl_standard_find_debuginfo,
                                            dwfl_offline_section_address, &no_debuginfo_path};

void read_unit(Dwarf_Die& unit, const std::set<std::string>& wanted, LineTable& table) {
  Dwarf_Lines* lines = nullptr;
  std::size_t count = 0;
  if (dwarf_getsrclines(&unit, &lines, &count) != 0) {
    return;  // a unit without a line table (assembler without -g)
  }
  const char* unit_name = dwarf_diename(&unit);
  const std::string name = unit_name ? unit_name : "?";
  // A unit names few files in many rows: each is matched once.
  std::map<const char*, std::string> matched;
  for (std::size_t i = 0; i < count; ++i) {
    Dwarf_Line* row = dwarf_onesrcline(lines, i);
    bool end_sequence = false;
    int line = 0;
    Dwarf_Addr addr = 0;
    if (!row || dwarf_lineendsequence(row, &end_sequence) != 0 || end_sequence ||
        dwarf_lineno(row, &line) != 0 || line <= 0 || dwarf_lineaddr(row, &addr) != 0) {
      continue;
    }
    const char* file = dwarf_linesrc(row, nullptr, nullptr);
    if (!file) {
      continue;
    }
    auto known = matched.find(file);
    if (known == matched.end()) {
      known = matched.emplace(file, match_wanted(file, wanted)).first;
    }
    const std::string& path = known->second;
    if (path.empty()) {
      continue;
    }
    Dwarf_Addr next = addr;
    if (Dwarf_Line* after = i + 1 < count ? dwarf_onesrcline(lines, i + 1) : nullptr) {
      dwarf_lineaddr(after, &next);
    }
    // A row at the same address as the next one (a "view": an inlined
    // call's line, a statement with no instruction of its own) is credited
    // with the instruction at its address.
    table.add(path, line, {addr, next > addr ? next : addr + 1}, name);
  }
}

}  // namespace

LineTable read_line_table(const std::filesystem::path& elf, const std::set<std::string>& wanted) {
  const std::unique_ptr<Dwfl, DwflDeleter> dwfl(dwfl_begin(&k_offline_callbacks));
  if (!dwfl) {
    throw infra_error(std::string("libdwfl: ") + dwfl_errmsg(-1));
  }
  Dwfl_Module* module = dwfl_report_offline(dwfl.get(), elf.filename().c_str(), elf.c_str(), -1);
  if (!module) {
    throw usage_error(elf.string() + ": not an ELF file libdw can read (" + dwfl_errmsg(-1) + ")");
  }
  dwfl_report_end(dwfl.get(), nullptr, nullptr);
  Dwarf_Addr bias = 0;
  Dwarf* dwarf = dwfl_module_getdwarf(module, &bias);
  if (!dwarf) {
    throw usage_error(elf.string() +
                      ": no DWARF debug information (build the target's coverage variant, "
                      "CONFIG_DEBUG_INFO_DWARF5=y)");
  }
  LineTable table;
  Dwarf_Off offset = 0;
  Dwarf_Off next = 0;
  std::size_t header = 0;
  std::size_t units = 0;
  while (dwarf_nextcu(dwarf, offset, &next, &header, nullptr, nullptr, nullptr) == 0) {
    Dwarf_Die unit;
    if (dwarf_offdie(dwarf, offset + header, &unit)) {
      read_unit(unit, wanted, table);
      ++units;
    }
    offset = next;
  }
  if (units == 0) {
    throw usage_error(elf.string() + ": no DWARF compile unit");
  }
  return table;
}

}  // namespace kseries::coverage
