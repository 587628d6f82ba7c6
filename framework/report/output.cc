#include "report/output.h"

#include <unistd.h>

#include <system_error>

#include "core/error.h"
#include "sys/files.h"

namespace kseries::report {

void write_report(const std::filesystem::path& file, std::string_view text,
                  std::ostream& standard_output) {
  if (file == "-") {
    standard_output << text << std::flush;
    if (!standard_output) {
      throw infra_error("cannot write the report to stdout");
    }
    return;
  }
  // Beside the file (same file system, so the rename is atomic), private to
  // this process.
  std::filesystem::path partial = file;
  partial += ".partial-" + std::to_string(::getpid());
  write_file(partial, text);
  std::error_code ec;
  std::filesystem::rename(partial, file, ec);
  if (ec) {
    std::filesystem::remove(partial);
    throw infra_error("cannot write " + file.string() + ": " + ec.message());
  }
}

}  // namespace kseries::report
