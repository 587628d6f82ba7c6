#include "gate/expectations.h"

#include "core/config_lines.h"
#include "core/error.h"
#include "core/text.h"
#include "sys/files.h"

namespace kseries::gate {

namespace fs = std::filesystem;

const Expectation* Expectations::find(const std::string& cell) const {
  for (const auto& e : fails) {
    if (e.cell == cell) {
      return &e;
    }
  }
  return nullptr;
}

Expectations parse_expectations(const std::string& text, const fs::path& file) {
  Expectations out;
  out.file = file;
  refuse_byte_order_mark(text, file.string());
  int line_no = 0;
  for (const auto raw : split_lines(text)) {
    ++line_no;
    const std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#') {
      continue;
    }
    const std::string where = file.string() + ":" + std::to_string(line_no);
    if (line.substr(0, 5) != "fail:") {
      throw usage_error(where + ": expected 'fail: CELL: TEXT'");
    }
    const std::string_view rest = trim(line.substr(5));
    const auto colon = rest.find(':');
    if (colon == std::string_view::npos || trim(rest.substr(0, colon)).empty() ||
        trim(rest.substr(colon + 1)).empty()) {
      throw usage_error(where +
                        ": expected 'fail: CELL: TEXT' (e.g. 'fail: pmem memmap-types: "
                        "_refcount')");
    }
    out.fails.push_back({std::string(trim(rest.substr(0, colon))),
                         std::string(trim(rest.substr(colon + 1))), line_no});
  }
  // A known-bad revision names the cell that must fail: an expect file
  // that names none made every verdict EXPECTED.
  if (out.fails.empty()) {
    throw usage_error(file.string() +
                      ": expects nothing (no 'fail: CELL: TEXT' line); a known-bad revision "
                      "names the cell that must fail and why");
  }
  return out;
}

std::optional<Expectations> load_expectations(const fs::path& series_dir) {
  const fs::path file = series_dir / "expect";
  if (!fs::is_directory(series_dir) || !fs::is_regular_file(file)) {
    return std::nullopt;
  }
  return parse_expectations(read_file(file), file);
}

}  // namespace kseries::gate
