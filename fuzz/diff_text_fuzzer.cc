// Fuzzes the text readers of a diff: DiffScanner (where the diff of a patch
// mail ends), diff_files (the paths a diff names) and check_diff_safety (the
// early, friendly refusals), and quote_git_headers (names with spaces).
#include "core/text.h"
#include "fuzz_input.h"
#include "series/diff_safety.h"
#include "series/diff_scanner.h"
#include "series/git_header.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = kseries::fuzz::text_of(data, size);
  kseries::DiffScanner scanner;
  for (const auto line : kseries::split_lines(text)) {
    if (!scanner.take(line)) {
      break;
    }
  }
  // The header quoting (series/git_header.h): a rewritten line is quoted,
  // and rewriting again changes nothing.
  std::vector<std::string> lines;
  for (const auto line : kseries::split_lines(text)) {
    lines.emplace_back(line);
  }
  auto quoted = lines;
  kseries::quote_git_headers(quoted);
  auto again = quoted;
  kseries::quote_git_headers(again);
  kseries::fuzz::require(again == quoted);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    kseries::fuzz::require(quoted[i] == lines[i] || quoted[i].find('"') != std::string::npos);
  }
  kseries::fuzz::refusal_is_fine([&] { kseries::diff_files(text); });
  kseries::fuzz::refusal_is_fine([&] { kseries::check_diff_safety(text, "fuzz", 1 << 20); });
  return 0;
}
