#include "report/output.h"

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
  replace_file(file, text);
}

}  // namespace kseries::report
