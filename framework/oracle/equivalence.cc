#include "oracle/equivalence.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/error.h"
#include "oracle/bulk_blobs.h"
#include "oracle/dump_compare.h"
#include "oracle/invariants.h"
#include "oracle/normalise.h"

namespace kseries::oracle {

namespace {

// One line for a comparison that is not equal: "<what> N page(s), first:
// field F at pfn P (tail K of head H)", or why the dumps cannot be compared.
std::string describe_difference(const Comparison& c, const std::string& what,
                                const std::string& prefix) {
  if (!c.incompatible.empty()) {
    return prefix + "dumps not comparable: " + c.incompatible[0];
  }
  return prefix + what + std::to_string(c.pages_differing) + " page(s), first: field " +
         c.groups[0].field + " at pfn " + hex(c.groups[0].first_pfn) + " (" +
         c.groups[0].first_position + ")";
}

// The proof: the deliberately unwritten page must be found by both checks.
std::string check_unwritten(const SetupDumps& d, std::string& details) {
  const DumpHeader& h = d.unwritten->header();
  if (!h.has(Word::k_unwritten_pfn)) {
    return "the unwritten dump names no unwritten PFN (module parameter not applied)";
  }
  const uint64_t pfn = h.get(Word::k_unwritten_pfn);
  const Comparison c = compare_dumps(*d.slow, *d.unwritten);
  const InvariantReport r = check_invariants(*d.unwritten);
  details += "[proof] slow vs unwritten (pfn " + hex(pfn) + " re-poisoned after the init):\n" +
             format_comparison(c, 5) + format_invariants(r, 5);
  // Other differences (a broken fast path) may be there too: the proof
  // only asks that this PFN is named, as poison, by both checks.
  bool compared = false;
  for (const MismatchGroup& g : c.groups) {
    const bool has_pfn =
        std::find(g.sample_pfns.begin(), g.sample_pfns.end(), pfn) != g.sample_pfns.end();
    compared = compared || (has_pfn && g.actual_text == "poison (never written)");
  }
  bool flagged = false;
  for (const InvariantViolation& v : r.violations) {
    flagged = flagged || (v.first_pfn == pfn && v.rule == "never written (poison)");
  }
  if (!compared || !flagged) {
    return "the oracle missed the page left unwritten on purpose at pfn " + hex(pfn) +
           " (comparison " + (compared ? "saw it" : "blind") + ", invariants " +
           (flagged ? "saw it" : "blind") + ")";
  }
  return "";
}

}  // namespace

uint64_t min_slow_path_events(const MemmapDump& dump) {
  const DumpHeader& h = dump.header();
  const uint64_t pages = h.get(Word::k_init_end_pfn) - h.get(Word::k_init_start_pfn);
  const uint64_t shift = h.get(Word::k_vmemmap_shift);
  // __vmemmap_can_optimize() refuses a struct page whose size is not a
  // power of two (80 or 96 bytes): every tail is then written.
  const uint64_t psz = h.page_size();
  if (shift == 0 || h.get(Word::k_altmap_valid) == 1 || psz == 0 || (psz & (psz - 1)) != 0) {
    return pages;
  }
  // VMEMMAP_RESERVE_NR (2) vmemmap pages of PAGE_SIZE / sizeof(struct page).
  const uint64_t unique = 2 * ((1ULL << h.get(Word::k_page_shift)) / psz);
  return (pages >> shift) * std::min<uint64_t>(unique, 1ULL << shift);
}

std::string_view verdict_name(VerdictStatus status) {
  switch (status) {
    case VerdictStatus::k_pass:
      return "pass";
    case VerdictStatus::k_fail:
      return "fail";
    case VerdictStatus::k_skip:
      return "skip";
  }
  return "?";
}

SetupVerdict judge_setup(const SetupDumps& d) {
  SetupVerdict v;
  v.setup = d.setup;
  if (!d.fast || !d.slow) {
    v.status = VerdictStatus::k_fail;
    v.summary = std::string("missing dump: ") + (d.fast ? "" : "fast ") + (d.slow ? "" : "slow");
    return v;
  }
  std::vector<std::string> problems;
  const InvariantReport fast_inv = check_invariants(*d.fast);
  const InvariantReport slow_inv = check_invariants(*d.slow);
  const Comparison c = compare_dumps(*d.slow, *d.fast);
  v.details = "[fast path] " + format_invariants(fast_inv) + "[slow path] " +
              format_invariants(slow_inv) + "[slow vs fast] " + format_comparison(c);
  if (!c.equal()) {
    problems.push_back(describe_difference(c, "fast path differs from slow path: ", ""));
  }
  if (!fast_inv.ok()) {
    const InvariantViolation& f = fast_inv.violations[0];
    problems.push_back("fast dump breaks " + std::to_string(fast_inv.violations.size()) +
                       " invariant(s), first: " + f.rule + " (" + f.field + ") at pfn " +
                       hex(f.first_pfn) + " (" + f.first_position + ")");
  }
  if (!slow_inv.ok()) {
    problems.push_back("slow dump breaks " + std::to_string(slow_inv.violations.size()) +
                       " invariant(s), first: " + slow_inv.violations[0].rule);
  }
  if (d.slow->header().get(Word::k_tracepoint_on_at_init) != 1) {
    problems.push_back("the slow dump's init ran with page_ref_set off");
  }
  if (!d.slow_trace_events) {
    // Without the count nothing shows the "slow" dump came from the slow
    // path: a series that ignores the tracepoint would compare its fast
    // path with itself.
    problems.push_back(
        "no page_ref_set event count for the slow bind: nothing shows the slow dump came from "
        "the slow path");
  } else if (*d.slow_trace_events < min_slow_path_events(*d.slow)) {
    problems.push_back("the slow bind emitted " + std::to_string(*d.slow_trace_events) +
                       " page_ref_set events, fewer than the " +
                       std::to_string(min_slow_path_events(*d.slow)) +
                       " struct pages a slow-path init writes: the fast path ran with the "
                       "tracepoint on");
  }
  std::string traced;
  if (d.fast->header().get(Word::k_tracepoint_on_at_init) != 0) {
    if (d.traced_from_outside) {
      traced =
          "; page_ref_set was on from outside the case for the fast bind (trace_event=), "
          "so its init was a slow-path init by the series' contract";
    } else {
      problems.push_back("the fast dump's init ran with page_ref_set on");
    }
  }
  if (d.fast->header().get(Word::k_poisoned) != 1 || d.slow->header().get(Word::k_poisoned) != 1) {
    problems.push_back("a range was not poisoned before its init: stale pages could pass");
  }
  std::string proof = "no unwritten-page proof";
  if (d.unwritten) {
    const std::string missed = check_unwritten(d, v.details);
    if (!missed.empty()) {
      problems.push_back(missed);
    } else {
      proof =
          "unwritten pfn " + hex(d.unwritten->header().get(Word::k_unwritten_pfn)) + " detected";
    }
  }
  if (problems.empty()) {
    v.status = VerdictStatus::k_pass;
    v.summary = std::to_string(c.pages_compared) + " struct pages identical fast vs slow (" +
                pgmap_type_name(d.fast->header().get(Word::k_pgmap_type)) + ", order " +
                std::to_string(d.fast->header().get(Word::k_vmemmap_shift)) +
                (d.fast->header().get(Word::k_altmap_valid) == 1 ? ", altmap" : "") +
                "), invariants hold; " + proof +
                (d.slow_trace_events ? "; slow bind " + std::to_string(*d.slow_trace_events) +
                                           " page_ref_set events"
                                     : "") +
                traced;
    return v;
  }
  v.status = VerdictStatus::k_fail;
  for (const std::string& p : problems) {
    v.summary += (v.summary.empty() ? "" : "; ") + p;
  }
  return v;
}

std::vector<SetupDumps> collect_setup_dumps(const std::vector<guest::Event>& events,
                                            const std::filesystem::path& disk_image,
                                            std::map<std::string, std::string>& errors) {
  std::vector<std::string> order;
  std::map<std::string, SetupDumps> setups;
  for (const BlobRef& ref : blob_refs(events)) {
    const size_t dash = ref.name.rfind('-');
    if (dash == std::string::npos) {
      continue;
    }
    const std::string setup = ref.name.substr(0, dash);
    const std::string kind = ref.name.substr(dash + 1);
    if (kind != "fast" && kind != "slow" && kind != "unwritten") {
      continue;
    }
    if (!setups.count(setup)) {
      order.push_back(setup);
      setups[setup].setup = setup;
    }
    try {
      MemmapDump dump = parse_memmap_dump(read_blob(disk_image, ref));
      auto& slot = kind == "fast"   ? setups[setup].fast
                   : kind == "slow" ? setups[setup].slow
                                    : setups[setup].unwritten;
      slot = std::move(dump);
    } catch (const Error& e) {
      errors[setup] += std::string(errors[setup].empty() ? "" : "; ") + e.what();
    }
  }
  for (const guest::Measurement& m : guest::measurements(events)) {
    if (m.metric == "page_ref_set_events" && m.kind == "slow" && setups.count(m.setup)) {
      setups[m.setup].slow_trace_events = static_cast<uint64_t>(m.value);
    }
    if (m.metric == "tracepoint_on_in_fast_bind" && m.value > 0 && setups.count(m.setup)) {
      setups[m.setup].traced_from_outside = true;
    }
  }
  std::vector<SetupDumps> out;
  for (const std::string& setup : order) {
    out.push_back(std::move(setups[setup]));
  }
  return out;
}

std::vector<SetupVerdict> judge_memmap_equivalence(const std::vector<guest::Event>& events,
                                                   const std::filesystem::path& disk_image) {
  std::map<std::string, std::string> errors;
  std::vector<SetupVerdict> verdicts;
  for (const SetupDumps& dumps : collect_setup_dumps(events, disk_image, errors)) {
    if (errors.count(dumps.setup)) {
      verdicts.push_back({dumps.setup, VerdictStatus::k_fail, errors[dumps.setup], ""});
      continue;
    }
    verdicts.push_back(judge_setup(dumps));
  }
  return verdicts;
}

SetupVerdict judge_vs_base(const SetupDumps& base, const SetupDumps& series) {
  SetupVerdict v;
  v.setup = series.setup;
  std::vector<std::string> problems;
  uint64_t compared = 0;
  for (const char* kind : {"fast", "slow"}) {
    const bool fast = std::string(kind) == "fast";
    const auto& expected = fast ? base.fast : base.slow;
    const auto& actual = fast ? series.fast : series.slow;
    if (!expected || !actual) {
      problems.push_back(std::string("missing ") + kind + " dump on " +
                         (!expected ? "the base" : "the series"));
      continue;
    }
    const Comparison c = compare_dumps(*expected, *actual);
    compared += c.pages_compared;
    v.details += std::string("[base vs series, ") + kind + " bind] " + format_comparison(c);
    if (!c.equal()) {
      problems.push_back(describe_difference(c, "the series differs from the base in ",
                                             std::string(kind) + " bind: "));
    }
  }
  if (series.fast) {
    const InvariantReport inv = check_invariants(*series.fast);
    v.details += "[series, fast bind] " + format_invariants(inv);
    if (!inv.ok()) {
      problems.push_back("the series' fast dump breaks " + std::to_string(inv.violations.size()) +
                         " invariant(s), first: " + inv.violations[0].rule + " (" +
                         inv.violations[0].field + ") at pfn " + hex(inv.violations[0].first_pfn));
    }
  }
  if (problems.empty()) {
    v.status = VerdictStatus::k_pass;
    v.summary = std::to_string(compared) +
                " struct pages identical to the base kernel's (fast and slow binds)";
    return v;
  }
  v.status = VerdictStatus::k_fail;
  for (const std::string& p : problems) {
    v.summary += (v.summary.empty() ? "" : "; ") + p;
  }
  return v;
}

}  // namespace kseries::oracle
