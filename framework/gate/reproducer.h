#pragma once
// reproduce.sh: for a gate cell that failed or erred, the exact kseries
// commands that apply, build and boot that cell again, from the inputs a
// reader elsewhere has (the series as it was given: a message-id with its
// inbox, a range of a named tree, a directory; the base commit id), never
// the gate's own work directory or temporary files.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gate/matrix.h"

namespace kseries::gate {

// What the gate was given, as command line arguments.
struct ReproduceInputs {
  std::vector<std::vector<std::string>> series;  // per --series: "--series X [--inbox URL]"
  std::vector<std::string> base;                 // "--tree DIR --base SHA" / "--tarball FILE"
  std::vector<std::string> directories;          // "--configs DIR --testcases DIR" as given
  std::string accel = "auto";
  std::string clock = "auto";
};

// The commands, one argv each: apply, then for "per-patch T" a per-patch
// build, for a matrix cell a build and a boot of that target and case
// (`--compare-base` for a timing case, NEEDS_BASE_FLAG). MATRIX_CELL is the
// matrix line of a boot cell.
std::vector<std::vector<std::string>> reproduce_commands(const ReproduceInputs& inputs,
                                                         std::size_t series_index,
                                                         const std::string& cell,
                                                         const MatrixCell* matrix_cell,
                                                         bool timing_case);

// For a revision slower than the one before it: apply the newer revision,
// then boot MATRIX_CELL's target and case with it `--against` the older one.
std::vector<std::vector<std::string>> reproduce_against_commands(const ReproduceInputs& inputs,
                                                                 std::size_t newer,
                                                                 std::size_t older,
                                                                 const MatrixCell& matrix_cell);

// A POSIX sh word: as it is when it is only [A-Za-z0-9_./:=@,+-], else in
// single quotes (a quote inside as '\'').
std::string sh_quote(const std::string& word);

// The line that runs a reproducer, to paste into a shell: "sh PATH" with
// PATH quoted (a series directory named x$(touch${IFS}PWNED)y is in it).
// Every printer of a cell's "reproduce" property uses this (the gate's and
// the merge's text report, the watcher's answer).
std::string reproduce_line(const std::string& script);

// A "reproduce" property read back from a shard's gate.json (anyone may
// have edited it): the path, when it names a reproduce.sh below RUN_DIR
// (the shard's run directory, where the gate writes them), else nullopt
// (the merge drops it: a tampered value is never printed or run).
std::optional<std::string> shard_reproducer(const std::string& value,
                                            const std::filesystem::path& run_dir);

// The script: a header naming series, cell and status, `set -e`, the
// commands. Written executable as DIR/reproduce.sh; returns its path.
std::filesystem::path write_reproducer(const std::filesystem::path& dir, const std::string& series,
                                       const std::string& cell, const std::string& status_line,
                                       const std::vector<std::vector<std::string>>& commands);

}  // namespace kseries::gate
