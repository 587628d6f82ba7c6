// Fuzzes the text readers of a diff: read_patch_text (where the diff of a
// patch mail ends, as git apply reads it), diff_files (the paths a diff
// names) and check_diff_safety (the early, friendly refusals), and
// quote_git_headers (names with spaces).
#include "core/text.h"
#include "fuzz_input.h"
#include "series/diff_safety.h"
#include "series/git_header.h"
#include "series/patch_text.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = kseries::fuzz::text_of(data, size);
  const auto all = kseries::split_lines(text);
  kseries::fuzz::refusal_is_fine([&] {
    // Every line is in the diff or outside it, never both, never lost; the
    // diff read again is itself, whole.
    const auto read = kseries::read_patch_text(all, 1, "fuzz");
    kseries::fuzz::require(read.diff_lines.size() + read.outside.size() >= all.size());
    std::vector<std::string_view> diff(read.diff_lines.begin(), read.diff_lines.end());
    const auto again = kseries::read_patch_text(diff, 1, "fuzz");
    kseries::fuzz::require(again.outside.empty() && again.diff_lines == read.diff_lines);
  });
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
