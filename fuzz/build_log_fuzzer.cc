// Fuzzes the readers of text the tree under test writes: a kernel build log
// (compiler diagnostics, linker and make failures, Kbuild's progress lines;
// a compiler quotes source lines, so a patch writes part of it) and Kconfig
// files (the index that explains a dropped symbol). Both once used std::regex,
// which overflowed the stack on a long line.
#include <string>

#include "fuzz_input.h"
#include "kernel/build_log.h"
#include "kernel/kconfig_index.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using kseries::fuzz::require;
  const std::string text(kseries::fuzz::text_of(data, size));
  const auto log = kseries::kernel::parse_build_log(text, {"/src/", "../src/"});
  for (const auto* list : {&log.errors, &log.warnings}) {
    for (const auto& diagnostic : *list) {
      // Each diagnostic is one line of the log, its numbers never negative.
      require(diagnostic.text.find('\n') == std::string::npos);
      require(text.find(diagnostic.text) != std::string::npos);
      require(diagnostic.line >= 0 && diagnostic.column >= 0);
    }
  }
  kseries::kernel::KconfigIndex index;
  index.add_file(text, "Kconfig");
  const kseries::kernel::DotConfig config = kseries::kernel::parse_dot_config(text);
  int explained = 0;
  for (const auto& [symbol, value] : config) {
    if (++explained > 16) {
      break;
    }
    const kseries::kernel::Dropped dropped{{symbol, "y", "fuzz.config", 1}, value};
    kseries::kernel::explain_dropped(dropped, index, config);
  }
  return 0;
}
