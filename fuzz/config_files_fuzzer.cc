// Fuzzes the small line-oriented files kseries reads, each on the whole
// input: config lines ("series", "depends", *.target), a testcase's
// case.conf, a gate matrix, a known-bad revision's "expect" file, a Kconfig
// fragment and a resolved .config. They come from the repository and from a
// series' directory (expect, series, depends), so from the same mail.
#include "cases/case_def.h"
#include "core/config_lines.h"
#include "fuzz_input.h"
#include "gate/expectations.h"
#include "gate/matrix.h"
#include "kernel/kconfig.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using kseries::fuzz::refusal_is_fine;
  const std::string text(kseries::fuzz::text_of(data, size));
  kseries::content_lines(text);
  refusal_is_fine([&] { kseries::parse_key_values(text, "fuzz.conf"); });
  refusal_is_fine([&] { kseries::cases::parse_case_conf(text, "fuzz/case.conf", "fuzz", "fuzz"); });
  refusal_is_fine([&] { kseries::gate::parse_matrix(text, "fuzz.matrix"); });
  refusal_is_fine([&] { kseries::gate::parse_expectations(text, "expect"); });
  refusal_is_fine([&] { kseries::kernel::parse_fragment(text, "fuzz.config"); });
  refusal_is_fine([&] { kseries::kernel::parse_dot_config(text); });
  return 0;
}
