#pragma once
// The kernel's own style checker on each patch: scripts/checkpatch.pl of
// the base tree (read from the store, never a copy of ours), run with
// --no-tree on the patch as a mail. Reported, not fatal.

#include <git2.h>

#include <filesystem>
#include <string>
#include <vector>

#include "git/store.h"
#include "results/gate_record.h"
#include "series/patch_mail.h"
#include "series/series.h"
#include "sys/process.h"

namespace kseries::gate {

struct CheckpatchReport {
  bool ran = false;
  std::string why_not;  // when !ran: no checkpatch.pl in the tree, no perl
  int errors = 0;
  int warnings = 0;
  int checks = 0;
  std::vector<std::string> lines;  // "ERROR:…", "WARNING:…" (terse)
};

// Counts and lines from checkpatch's --terse output.
CheckpatchReport parse_checkpatch(const std::string& output);

class Checkpatch {
 public:
  // Materialises the base tree's checkpatch.pl (and the data files it
  // reads) under WORK_DIR once.
  Checkpatch(const git::Store& store, const git_oid& base, std::filesystem::path work_dir,
             ProcessRunner& runner);
  CheckpatchReport check(const PatchMail& patch, const std::string& name);

 private:
  std::filesystem::path m_dir;
  ProcessRunner& m_runner;
  std::string m_missing;
};

// The gate's checkpatch stage: every patch of SERIES through CHECKER, the
// counts per patch (results/facts.h) and every line; reported, never fatal
// (pass, or skip when the tree has no checkpatch.pl).
results::CellResult checkpatch_stage(const std::string& series_name, const Series& series,
                                     Checkpatch& checker);

}  // namespace kseries::gate
