#pragma once
// Reading a kernel build log: compiler errors and warnings as file:line,
// linker errors, make's own failures, the objects compiled (for progress and
// for the per-file warning state), and "disk full".

#include <string>
#include <string_view>
#include <vector>

namespace kseries::kernel {

enum class Severity { k_error, k_warning };

struct Diagnostic {
  Severity severity = Severity::k_error;
  std::string file;  // relative to the source tree
  int line = 0;
  int column = 0;
  std::string message;
  std::string text;  // the whole log line
  // "mm/mm_init.c: unused variable 'x'": what the warning delta compares
  // (line numbers move between revisions, the message does not).
  std::string key() const { return file + ": " + message; }
};

struct BuildLog {
  std::vector<Diagnostic> errors;
  std::vector<Diagnostic> warnings;
  std::vector<std::string> make_failures;  // "make[2]: *** [...] Error 1"
  std::vector<std::string> compiled;       // sources compiled ("mm/mm_init.c")
  bool disk_full = false;
};

// `source_prefixes`: how the source tree appears in paths ("/abs/src/",
// "../src/"); stripped so files read relative to the tree.
BuildLog parse_build_log(std::string_view log, const std::vector<std::string>& source_prefixes);

// Kbuild's quiet progress line ("  CC      mm/mm_init.o") -> "mm/mm_init.c",
// or "" for other lines.
std::string compiled_source(std::string_view line);

}  // namespace kseries::kernel
