// Fuzzes what turns outside text into reports (issue 32): printable_text,
// the one sanitiser before a terminal or a text report (no ESC, BEL, C1 or
// bare CR survives; idempotent); parse_json_text, the reader of every JSON
// file of a run (no crash at any depth), and the JSON as a session's
// results.json (results::session_record_from: a kseries::Error or a record
// that writes and reads back to the same JSON); the strip plot of the HTML
// report on whatever numbers the input spells (always a bounded picture).
#include <cstring>
#include <string>

#include "core/json_text.h"
#include "core/utf8.h"
#include "fuzz_input.h"
#include "report/svg_plot.h"
#include "results/session_record.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using kseries::fuzz::require;
  const std::string_view text = kseries::fuzz::text_of(data, size);
  const std::string clean = kseries::printable_text(text);
  require(kseries::printable_text(clean) == clean);
  for (std::size_t i = 0; i < clean.size(); ++i) {
    const auto c = static_cast<unsigned char>(clean[i]);
    require(c != 0x1b && c != 0x07 && c != 0x00 && c != 0x7f);
    require(c >= 0x20 || c == '\n' || c == '\t' ||
            (c == '\r' && i + 1 < clean.size() && clean[i + 1] == '\n'));
    require(!(c == 0xC2 && i + 1 < clean.size() &&
              static_cast<unsigned char>(clean[i + 1]) >= 0x80 &&
              static_cast<unsigned char>(clean[i + 1]) <= 0x9F));
  }
  const auto json = kseries::parse_json_text(text);
  if (!json.is_discarded()) {
    const nlohmann::json copy = json;  // the recursive copy that overflowed
    require(copy == json);
    kseries::fuzz::refusal_is_fine([&] {
      const auto written = kseries::results::to_json(kseries::results::session_record_from(json));
      const auto again = kseries::results::to_json(kseries::results::session_record_from(written));
      require(again.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) ==
              written.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    });
  }
  // Eight bytes at a time as doubles: any value a results.json may carry.
  kseries::report::StripRow row;
  for (std::size_t i = 0; i + sizeof(double) <= size && i < 64 * sizeof(double);
       i += sizeof(double)) {
    double value = 0;
    std::memcpy(&value, data + i, sizeof value);
    row.samples.push_back(value);
  }
  if (!row.samples.empty()) {
    row.mean = row.samples.front();
    row.high = row.samples.back();
    const std::string svg = kseries::report::render_strip_plot({"fuzz", "ns", {row}});
    require(svg.size() < 100000);
  }
  return 0;
}
