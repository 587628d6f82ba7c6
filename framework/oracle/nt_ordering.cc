#include "oracle/nt_ordering.h"

#include <algorithm>
#include <map>

namespace kseries::oracle {

namespace {

struct SetupWindows {
  std::string setup;
  std::vector<const memcost::WindowOrder*> windows;
};

bool is_locked(const memcost::Hazard& h) { return h.kind.rfind("locked-", 0) == 0; }

// Where the plugin's frames say the lock was reached from: the call site
// in the window's own function, and the innermost call when it is another.
std::string reached_from(const memcost::Hazard& h, const memcost::Symbolizer& symbols) {
  if (!h.sites_known || h.site == 0) {
    return "";  // an older record, or the lock runs in the function itself
  }
  std::string text = " (called from " + symbols.describe(h.site);
  if (h.caller == 0) {
    text += ", through calls deeper than the plugin follows";
  } else if (h.caller != h.site) {
    text += ", through " + symbols.describe(h.caller);
  }
  return text + ")";
}

std::string lock_text(const memcost::Hazard& h, const memcost::Symbolizer& symbols) {
  return h.lock_pc
             ? "the locked instruction at " + symbols.describe(h.lock_pc) + reached_from(h, symbols)
             : "a locked instruction (which one: out of the plugin's record)";
}

std::string hazard_text(const memcost::Hazard& h, const memcost::Symbolizer& symbols) {
  const std::string page = memcost::struct_page_of(h.vaddr);
  const std::string where = page.empty() ? "" : ", first at the struct page of " + page;
  const std::string nt = "non-temporal store at " + symbols.describe(h.nt_pc);
  if (h.kind == "return") {
    return "returned (to " + symbols.describe(h.pc) + ") with " + std::to_string(h.count) +
           " line(s) of the " + nt + " not ordered by a fence" + where;
  }
  if (h.kind == "locked-return") {
    return "returned (to " + symbols.describe(h.pc) + ") with " + std::to_string(h.count) +
           " line(s) of the " + nt + " ordered only by " + lock_text(h, symbols) +
           ", not by a fence the function issues" + where;
  }
  if (is_locked(h)) {
    return "an ordinary " + h.kind.substr(7) + " at " + symbols.describe(h.pc) +
           " to a line of the " + nt + " ordered only by " + lock_text(h, symbols) + " (" +
           std::to_string(h.count) + " time(s))" + where;
  }
  return "an ordinary " + h.kind + " at " + symbols.describe(h.pc) + " to a line of the " + nt +
         " before any fence (" + std::to_string(h.count) + " time(s))" + where;
}

// "A (and N more)" of LINES, which is not empty.
std::string first_of(const std::vector<std::string>& lines) {
  return lines.front() +
         (lines.size() > 1 ? " (and " + std::to_string(lines.size() - 1) + " more)" : "");
}

SetupVerdict judge_setup(const SetupWindows& s, const memcost::Symbolizer& symbols,
                         bool locked_orders_nt) {
  SetupVerdict v;
  v.setup = s.setup;
  std::uint64_t nt = 0, fences = 0, locks = 0;
  std::map<std::string, memcost::Hazard> hazards;  // kind, PCs, site, caller -> summed
  bool overflow = false;
  for (const auto* w : s.windows) {
    nt += w->nt_stores;
    fences += w->fences;
    locks += w->locks;
    overflow = overflow || w->overflow || w->dropped > 0;
    for (const auto& h : w->hazards) {
      const std::string key = h.kind + std::to_string(h.nt_pc) + "/" + std::to_string(h.pc) + "/" +
                              std::to_string(h.lock_pc) + "/" + std::to_string(h.site) + "/" +
                              std::to_string(h.caller);
      auto [it, fresh] = hazards.emplace(key, h);
      if (!fresh) {
        it->second.count += h.count;
        it->second.vaddr = std::min(it->second.vaddr, h.vaddr);
      }
    }
  }
  const std::string calls = std::to_string(s.windows.size()) + " call(s)";
  const std::string counts = std::to_string(nt) + " non-temporal stores in " + calls + ", " +
                             std::to_string(fences) + " fences, " + std::to_string(locks) +
                             " locked instructions";
  // Unordered lines fail; lines only a lock ordered fail on a core whose
  // vendor does not order non-temporal stores with locked instructions,
  // and are a warning on one that does (ordered by a callee's side effect,
  // not by the function's own fence).
  std::vector<std::string> failures, warnings;
  for (const auto& [key, h] : hazards) {
    (is_locked(h) && locked_orders_nt ? warnings : failures).push_back(hazard_text(h, symbols));
  }
  if (!failures.empty()) {
    v.status = VerdictStatus::k_fail;
    v.summary = "non-temporal stores not drained: " + first_of(failures);
    for (const auto& line : failures) {
      v.details += line + "\n";
    }
    if (!locked_orders_nt && std::any_of(hazards.begin(), hazards.end(),
                                         [](const auto& kv) { return is_locked(kv.second); })) {
      v.details +=
          "the machine profile says its locked instructions do not order earlier "
          "non-temporal stores (locked-orders-nt: no): only a fence (sfence, mfence, "
          "memcpy_nontemporal_drain()) does\n";
    }
    v.details += counts + "\n";
    return v;
  }
  if (overflow) {
    v.status = VerdictStatus::k_fail;
    v.summary =
        "inconclusive: more non-temporal lines outstanding (or hazards) than the plugin "
        "tracks, in " +
        calls;
    return v;
  }
  if (nt == 0) {
    v.status = VerdictStatus::k_skip;
    v.summary = "not applicable: no non-temporal stores in the window (" + calls + ")";
    return v;
  }
  v.status = VerdictStatus::k_pass;
  if (!warnings.empty()) {
    // A pass, said on the verdict line: ordered by contract is a fence the
    // function issues; this was ordered by a callee's lock.
    v.summary = counts + ": none overtaken before a fence or lock; WARNING: " + first_of(warnings);
    for (const auto& line : warnings) {
      v.details += "warning: " + line + "\n";
    }
    return v;
  }
  v.summary = counts + ": none overtaken by an ordinary store or load, none outstanding at return";
  return v;
}

}  // namespace

std::vector<SetupVerdict> judge_nt_ordering(const std::vector<guest::Event>& events,
                                            const memcost::Records& records,
                                            const memcost::Symbolizer& symbols) {
  std::vector<SetupWindows> setups;
  std::size_t next = 0;
  bool short_of_windows = false;
  for (const auto& m : guest::measurements(events)) {
    if (m.metric != "memmap_calls") {
      continue;
    }
    const double n = m.value;
    if (!(n >= 0 && n < 100000)) {
      short_of_windows = true;
      break;
    }
    SetupWindows s{m.setup, {}};
    for (int i = 0; i < static_cast<int>(n); ++i) {
      if (next >= records.order.size()) {
        short_of_windows = true;
        break;
      }
      s.windows.push_back(&records.order[next++]);
    }
    setups.push_back(std::move(s));
  }
  std::vector<SetupVerdict> verdicts;
  if (short_of_windows || next != records.order.size() || !records.header) {
    const std::string why = !records.header
                                ? "the memcost plugin left no records"
                                : "the plugin saw " + std::to_string(records.order.size()) +
                                      " calls of memmap_init_zone_device(), the guest counted " +
                                      std::to_string(next) + (short_of_windows ? " or more" : "");
    for (const auto& s : setups) {
      if (s.setup != "boot-probe") {
        verdicts.push_back({s.setup, VerdictStatus::k_fail, "cannot judge: " + why, ""});
      }
    }
    if (verdicts.empty()) {
      verdicts.push_back({"nt-ordering", VerdictStatus::k_fail, "cannot judge: " + why, ""});
    }
    return verdicts;
  }
  for (const auto& s : setups) {
    if (s.setup == "boot-probe" && s.windows.empty()) {
      continue;
    }
    verdicts.push_back(judge_setup(s, symbols, records.locked_orders_nt));
  }
  return verdicts;
}

}  // namespace kseries::oracle
