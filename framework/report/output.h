#pragma once
// Where a report option (--junit FILE, --json FILE) sends its document: "-"
// is standard output; any other path is replaced whole (written beside it,
// then renamed), so a reader or a run cut short never sees half a report.

#include <filesystem>
#include <iostream>
#include <string_view>

namespace kseries::report {

// Throws Error(k_infrastructure) naming the file (or stdout).
void write_report(const std::filesystem::path& file, std::string_view text,
                  std::ostream& standard_output = std::cout);

}  // namespace kseries::report
