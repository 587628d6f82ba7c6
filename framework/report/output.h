#pragma once
// Where a report option (--junit FILE, --json FILE) sends its document: "-"
// is standard output; any other path is written as sys/files.h's
// replace_file() writes it: a regular file replaced whole and atomically, so
// a reader or a run cut short never sees half a report; a FIFO or device
// written into, never replaced.

#include <filesystem>
#include <iostream>
#include <string_view>

namespace kseries::report {

// Throws Error(k_infrastructure) naming the file (or stdout).
void write_report(const std::filesystem::path& file, std::string_view text,
                  std::ostream& standard_output = std::cout);

}  // namespace kseries::report
