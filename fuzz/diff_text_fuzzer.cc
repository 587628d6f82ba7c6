// Fuzzes the text readers of a diff: DiffScanner (where the diff of a patch
// mail ends), diff_files (the paths a diff names) and check_diff_safety (the
// early, friendly refusals).
#include "core/text.h"
#include "fuzz_input.h"
#include "series/diff_safety.h"
#include "series/diff_scanner.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = kseries::fuzz::text_of(data, size);
  kseries::DiffScanner scanner;
  for (const auto line : kseries::split_lines(text)) {
    if (!scanner.take(line)) {
      break;
    }
  }
  kseries::fuzz::refusal_is_fine([&] { kseries::diff_files(text); });
  kseries::fuzz::refusal_is_fine([&] { kseries::check_diff_safety(text, "fuzz", 1 << 20); });
  return 0;
}
