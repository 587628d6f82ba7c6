#include "oracle/ktap_compare.h"

#include <algorithm>
#include <map>
#include <set>

namespace kseries::oracle {

namespace {

// One path's outcomes over one side's boots. A boot that reported the
// suite but not this path counts as missing: a bad outcome.
struct Counts {
  int boots = 0;  // boots of the side that reported the suite
  int pass = 0, fail = 0, crashed = 0, skip = 0;
  int present() const { return pass + fail + crashed + skip; }
  int missing() const { return present() > 0 ? boots - present() : 0; }
  int bad() const { return fail + crashed + missing(); }
  int ran() const { return pass + bad(); }
  bool reported() const { return present() > 0; }
};

std::string describe(const Counts& c) {
  if (!c.reported()) {
    return "not reported";
  }
  std::string parts;
  const auto add = [&](int n, const char* what) {
    if (n > 0) {
      parts += (parts.empty() ? "" : ", ") + std::string(what) + " " + std::to_string(n);
    }
  };
  add(c.pass, "pass");
  add(c.fail, "fail");
  add(c.crashed, "crashed");
  add(c.skip, "skip");
  add(c.missing(), "missing");
  return parts + " of " + std::to_string(c.boots) + " boot" + (c.boots == 1 ? "" : "s");
}

struct Table {
  std::vector<std::string> order;
  std::map<std::string, Counts> counts;
};

Table count(const KtapSide& side) {
  Table table;
  for (const auto& boot : side.boots) {
    std::set<std::string> in_boot;
    for (const auto& test : boot) {
      if (!in_boot.insert(test.path).second) {
        continue;  // flatten_ktap names duplicates apart; a repeat here is a decoding slip
      }
      auto [it, added] = table.counts.try_emplace(test.path);
      if (added) {
        table.order.push_back(test.path);
      }
      Counts& c = it->second;
      switch (test.outcome) {
        case KtapOutcome::k_pass:
          ++c.pass;
          break;
        case KtapOutcome::k_fail:
          ++c.fail;
          break;
        case KtapOutcome::k_crashed:
          ++c.crashed;
          break;
        case KtapOutcome::k_skip:
          ++c.skip;
          break;
      }
    }
  }
  for (auto& [path, c] : table.counts) {
    c.boots = static_cast<int>(side.boots.size());
  }
  return table;
}

// What the verdicts of one suite add up to, for its summary.
struct Tally {
  int pass = 0, new_failures = 0, pre_existing = 0, flaky = 0, one_side = 0, skipped = 0;
  std::vector<std::string> failed;
};

SetupVerdict verdict_for(const std::string& path, const Counts& c, const Counts& b,
                         const KtapSide& base, const KtapSide& cand, Tally& tally) {
  const std::string here = "candidate " + describe(c);
  const std::string there = "base " + describe(b);
  const std::string sides = here + "; " + there;
  const auto fail = [&](const std::string& why) {
    ++tally.new_failures;
    tally.failed.push_back(path);
    return SetupVerdict{path, VerdictStatus::k_fail, why + " (" + sides + ")", ""};
  };
  const auto skip = [&](int& bucket, const std::string& why) {
    ++bucket;
    return SetupVerdict{path, VerdictStatus::k_skip, why + " (" + sides + ")", ""};
  };
  if (!c.reported()) {
    return b.ran() > 0 ? fail("no longer reported: it ran on " + base.kernel + ", " + cand.kernel +
                              " does not report it")
                       : skip(tally.skipped, "skipped on the base, not reported on the candidate");
  }
  if (c.ran() == 0) {
    return b.ran() > 0 ? skip(tally.one_side, "skipped on the candidate, ran on the base")
                       : skip(tally.skipped, "skipped");
  }
  const std::string base_note = !b.reported()  ? "; a test the base does not have"
                                : b.ran() == 0 ? "; skipped on the base"
                                               : "";
  if (base_note == "; skipped on the base") {
    ++tally.one_side;
  }
  if (c.bad() == 0) {
    ++tally.pass;
    return {path, VerdictStatus::k_pass,
            std::string(b.bad() > 0 ? "pass, and fails on the base: fixed" : "pass") + base_note +
                " (" + sides + ")",
            ""};
  }
  if (c.pass == 0) {
    return b.bad() > 0 ? skip(tally.pre_existing, "pre-existing failure: fails on the base too")
                       : fail("new failure" + base_note);
  }
  // Flaky on the candidate: passes in some boots, fails in others.
  if (b.bad() == 0 && c.bad() >= ktap_failures_needed(c.ran())) {
    return fail("new failure, flaky: fails in " + std::to_string(c.bad()) + " of " +
                std::to_string(c.ran()) + " runs, never on the base" + base_note);
  }
  return skip(tally.flaky, std::string("flaky") +
                               (b.bad() > 0 ? ", and fails on the base too" : "") + base_note);
}

std::string first_names(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size() && i < 10; ++i) {
    text += (i ? ", " : "") + names[i];
  }
  return names.size() > 10 ? text + ", ... (" + std::to_string(names.size()) + " in all)" : text;
}

}  // namespace

int ktap_failures_needed(int boots) { return std::min(boots, std::max(2, boots / 6)); }

std::vector<SetupVerdict> judge_ktap_vs_base(const std::string& suite, const KtapSide& base,
                                             const KtapSide& candidate) {
  const std::string summary_name = suite + " (summary)";
  if (candidate.boots.empty() || base.boots.empty()) {
    const KtapSide& missing = candidate.boots.empty() ? candidate : base;
    return {{summary_name, VerdictStatus::k_fail,
             "inconclusive: no KTAP of " + suite + " from " + missing.kernel +
                 ", so nothing to compare",
             ""}};
  }
  const Table cand = count(candidate);
  const Table ref = count(base);
  Tally tally;
  std::vector<SetupVerdict> verdicts;
  const Counts none_cand{static_cast<int>(candidate.boots.size())};
  const Counts none_base{static_cast<int>(base.boots.size())};
  for (const auto& path : cand.order) {
    const auto b = ref.counts.find(path);
    verdicts.push_back(verdict_for(path, cand.counts.at(path),
                                   b == ref.counts.end() ? none_base : b->second, base, candidate,
                                   tally));
  }
  for (const auto& path : ref.order) {
    if (!cand.counts.count(path)) {
      verdicts.push_back(verdict_for(path, none_cand, ref.counts.at(path), base, candidate, tally));
    }
  }
  std::string text = std::to_string(verdicts.size()) + " tests against " + base.kernel + ": " +
                     std::to_string(tally.pass) + " pass, " + std::to_string(tally.new_failures) +
                     " new failure(s), " + std::to_string(tally.pre_existing) + " pre-existing, " +
                     std::to_string(tally.flaky) + " flaky, " + std::to_string(tally.one_side) +
                     " skipped on one side only, " + std::to_string(tally.skipped) + " skipped";
  if (!tally.failed.empty()) {
    text += "; new: " + first_names(tally.failed);
  }
  verdicts.insert(
      verdicts.begin(),
      {summary_name, tally.new_failures > 0 ? VerdictStatus::k_fail : VerdictStatus::k_pass, text,
       ""});
  return verdicts;
}

SetupVerdict summarize_ktap(const std::string& suite, const KtapSide& side) {
  const Table table = count(side);
  int pass = 0, bad = 0, skip = 0, mixed = 0;
  std::vector<std::string> failing;
  for (const auto& path : table.order) {
    const Counts& c = table.counts.at(path);
    if (c.ran() == 0) {
      ++skip;
    } else if (c.bad() == 0) {
      ++pass;
    } else {
      (c.pass > 0 ? mixed : bad) += 1;
      failing.push_back(path);
    }
  }
  std::string text = std::to_string(table.order.size()) + " tests over " +
                     std::to_string(side.boots.size()) + " boot(s): " + std::to_string(pass) +
                     " pass, " + std::to_string(bad) + " fail, " + std::to_string(mixed) +
                     " flaky, " + std::to_string(skip) + " skipped";
  if (!failing.empty()) {
    text += "; failing: " + first_names(failing);
  }
  return {suite + " (summary)", VerdictStatus::k_pass, text, ""};
}

}  // namespace kseries::oracle
