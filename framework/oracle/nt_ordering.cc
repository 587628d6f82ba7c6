#include "oracle/nt_ordering.h"

#include <map>

namespace kseries::oracle {

namespace {

struct SetupWindows {
  std::string setup;
  std::vector<const memcost::WindowOrder*> windows;
};

std::string hazard_text(const memcost::Hazard& h, const memcost::Symbolizer& symbols) {
  const std::string page = memcost::struct_page_of(h.vaddr);
  const std::string where = page.empty() ? "" : ", first at the struct page of " + page;
  const std::string nt = "non-temporal store at " + symbols.describe(h.nt_pc);
  if (h.kind == "return") {
    return "returned (to " + symbols.describe(h.pc) + ") with " + std::to_string(h.count) +
           " line(s) of the " + nt + " not ordered by a fence" + where;
  }
  return "an ordinary " + h.kind + " at " + symbols.describe(h.pc) + " to a line of the " + nt +
         " before any fence (" + std::to_string(h.count) + " time(s))" + where;
}

SetupVerdict judge_setup(const SetupWindows& s, const memcost::Symbolizer& symbols) {
  SetupVerdict v;
  v.setup = s.setup;
  std::uint64_t nt = 0, fences = 0;
  std::map<std::string, memcost::Hazard> hazards;  // kind, nt_pc, pc -> summed
  bool overflow = false;
  for (const auto* w : s.windows) {
    nt += w->nt_stores;
    fences += w->fences;
    overflow = overflow || w->overflow || w->dropped > 0;
    for (const auto& h : w->hazards) {
      const std::string key = h.kind + std::to_string(h.nt_pc) + "/" + std::to_string(h.pc);
      auto [it, fresh] = hazards.emplace(key, h);
      if (!fresh) {
        it->second.count += h.count;
        it->second.vaddr = std::min(it->second.vaddr, h.vaddr);
      }
    }
  }
  const std::string calls = std::to_string(s.windows.size()) + " call(s)";
  if (!hazards.empty()) {
    v.status = VerdictStatus::k_fail;
    std::vector<std::string> lines;
    for (const auto& [key, h] : hazards) {
      lines.push_back(hazard_text(h, symbols));
    }
    v.summary = "non-temporal stores not drained: " + lines.front() +
                (lines.size() > 1 ? " (and " + std::to_string(lines.size() - 1) + " more)" : "");
    for (const auto& line : lines) {
      v.details += line + "\n";
    }
    v.details += std::to_string(nt) + " non-temporal stores, " + std::to_string(fences) +
                 " fences in " + calls + "\n";
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
  v.summary = std::to_string(nt) + " non-temporal stores in " + calls + ", " +
              std::to_string(fences) +
              " fences: none overtaken by an ordinary store or load, none outstanding at return";
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
    verdicts.push_back(judge_setup(s, symbols));
  }
  return verdicts;
}

}  // namespace kseries::oracle
