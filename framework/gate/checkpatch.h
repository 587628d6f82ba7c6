#pragma once
// The kernel's own style checker on each patch: scripts/checkpatch.pl of
// the base tree (read from the store, never a copy of ours), run with
// --no-tree on the patch as a mail. Reported by type and patch, never
// fatal by itself; errors a revision adds against its predecessor are a
// finding (gate/checkpatch_findings.h), which a matrix may make fail.

#include <git2.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gate/stage.h"
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
  // Per severity and type: {"ERROR", "TRAILING_STATEMENTS"} -> 9.
  std::map<std::pair<std::string, std::string>, int> types;
};

// Counts and lines from checkpatch's --terse --show-types output.
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

// A port's patches that are an upstream posting as it was posted (the
// series directory's `upstream` file: "PATCH POSTING [what]", POSTING a
// path relative to the directory): what checkpatch finds in them is the
// author's, not the port's. A patch is taken as posted only when every
// line it adds or removes is in the posting (whitespace folded: a seed
// whose line breaks were lost still counts); the others are NOTES.
struct UpstreamPatches {
  std::set<int> as_posted;  // 1-based
  std::vector<std::string> notes;
};
UpstreamPatches upstream_patches(const Series& series);

// True when every line DIFF adds or removes ('+'/'-', not the file
// headers), whitespace folded, occurs in POSTING (whitespace folded).
bool diff_lines_in_posting(const std::string& diff, const std::string& posting);

// The property of a checkpatch cell with its findings by patch and type,
// one "PATCH SEVERITY TYPE COUNT" a line ("8 ERROR TRAILING_STATEMENTS 9"),
// and the one with the patches posted upstream as they are ("8 3").
inline constexpr const char* k_checkpatch_types = "checkpatch.types";
inline constexpr const char* k_checkpatch_upstream = "checkpatch.upstream";

// The gate's checkpatch stage (the cell "checkpatch"): every patch of the
// series through the base tree's checkpatch.pl, the counts per patch
// (results/facts.h) and per type, every line; the summary names the types
// and how many errors are upstream's; reported, never fatal (pass, or skip
// when the tree has no checkpatch.pl).
const Stage& checkpatch_stage();

}  // namespace kseries::gate
