#include "oracle/memmap_state.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "core/error.h"
#include "core/text.h"
#include "oracle/bulk_blobs.h"

namespace kseries::oracle {

namespace {

// MIGRATE_MOVABLE in 6.12's enum migratetype: what memmap_init_zone_device()
// gives every pageblock of a ZONE_DEVICE range.
constexpr uint64_t k_migrate_movable = 1;
constexpr std::size_t k_max_state_bytes = std::size_t{4} << 20;

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && line[i] == ' ') {
      ++i;
    }
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ') {
      ++i;
    }
    if (i > start) {
      out.push_back(line.substr(start, i - start));
    }
  }
  return out;
}

uint64_t number(std::string_view text, int line) {
  int base = 10;
  if (text.starts_with("0x")) {
    text.remove_prefix(2);
    base = 16;
  }
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw usage_error("memmap-state line " + std::to_string(line) + ": '" + std::string(text) +
                      "' is not a number");
  }
  return value;
}

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "%#llx", static_cast<unsigned long long>(value));
  return text;
}

void parse_line(const std::vector<std::string_view>& w, int n, SetupState& state) {
  if (w[0] == "setup" && w.size() >= 2) {
    state.setup = std::string(w[1]);
    state.layout = w.size() >= 4 ? std::string(w[3]) : "aligned";
    return;
  }
  if (w[0] == "moment" && w.size() == 2) {
    state.moments.push_back({std::string(w[1]), {}, {}, {}, 0, 0, 9});
    return;
  }
  if (state.moments.empty()) {
    throw usage_error("memmap-state line " + std::to_string(n) + ": before any 'moment'");
  }
  StateMoment& m = state.moments.back();
  if (w[0] == "vmstat" && w.size() == 3) {
    m.vmstat[std::string(w[1])] = static_cast<int64_t>(number(w[2], n));
  } else if (w[0] == "node" && w.size() == 4) {
    m.pageblock_order = static_cast<unsigned>(number(w[3], n));
  } else if (w[0] == "zone" && w.size() == 10) {
    m.zones.push_back({std::string(w[1]), number(w[3], n), number(w[5], n), number(w[7], n),
                       static_cast<int>(number(w[9], n))});
  } else if (w[0] == "range" && w.size() == 4) {
    const auto split = [&](std::string_view text, uint64_t& first, uint64_t& last) {
      const auto dash = text.find('-');
      if (dash == std::string_view::npos) {
        throw usage_error("memmap-state line " + std::to_string(n) + ": a range without '-'");
      }
      first = number(text.substr(0, dash), n);
      last = number(text.substr(dash + 1), n);
    };
    split(w[1], m.range_start_pfn, m.range_end_pfn);
    split(w[3], m.init_start_pfn, m.init_end_pfn);
  } else if (w[0] == "struct_page" && w.size() == 4) {
    m.struct_page = number(w[1], n);
    m.section_pages = number(w[3], n);
  } else if (w[0] == "device" && w.size() == 7) {
    m.altmap = number(w[2], n) != 0;
    m.vmemmap_shift = number(w[4], n);
    m.early_pages = number(w[6], n);
    m.has_device = true;
  } else if (w[0] == "mt" && w.size() == 4) {
    m.pageblocks.push_back({number(w[1], n), number(w[2], n), number(w[3], n)});
  } else if (w[0] != "pageblocks") {
    throw usage_error("memmap-state line " + std::to_string(n) + ": unknown '" + std::string(w[0]) +
                      "'");
  }
}

std::string zone_text(const ZoneSpan& z) {
  return z.name + " start " + hex(z.start_pfn) + " spanned " + std::to_string(z.spanned) +
         " present " + std::to_string(z.present) + " contiguous " + std::to_string(z.contiguous);
}

const ZoneSpan* zone_named(const StateMoment& m, const std::string& name) {
  const auto found = std::find_if(m.zones.begin(), m.zones.end(),
                                  [&](const ZoneSpan& z) { return z.name == name; });
  return found == m.zones.end() ? nullptr : &*found;
}

int64_t counter(const StateMoment& m, const std::string& name) {
  const auto found = m.vmstat.find(name);
  return found == m.vmstat.end() ? 0 : found->second;
}

}  // namespace

int64_t expected_memmap_pages(const StateMoment& b, std::string& how) {
  constexpr uint64_t k_page = 4096, k_reserve_nr = 2;
  const uint64_t section = b.section_pages ? b.section_pages : 32768;
  const bool pow2 = b.struct_page && (b.struct_page & (b.struct_page - 1)) == 0;
  const bool dedup = !b.altmap && b.vmemmap_shift > 0 && pow2;
  const uint64_t compound = uint64_t{1} << b.vmemmap_shift;
  int64_t pages = 0;
  uint64_t counted = 0;
  // Section by section, as populate_section_memmap() is called; the early
  // pages lie in whole or partial sections at the range's ends.
  for (uint64_t pfn = b.range_start_pfn; pfn < b.range_end_pfn;) {
    const uint64_t end = std::min((pfn / section + 1) * section, b.range_end_pfn);
    counted += end - pfn;
    if (!dedup) {
      pages += static_cast<int64_t>(((end - pfn) * b.struct_page + k_page - 1) / k_page);
    } else if (compound < section) {
      pages += static_cast<int64_t>(k_reserve_nr * (end - pfn) / compound);
    } else if (pfn % compound == 0) {
      pages += k_reserve_nr;
    }
    pfn = end;
  }
  // The early pages' memmap is the boot's: not populated by the bind. Their
  // share, reckoned the same way (they are whole subsections at an end).
  if (b.early_pages) {
    const int64_t early =
        dedup ? static_cast<int64_t>(k_reserve_nr * b.early_pages / compound)
              : static_cast<int64_t>((b.early_pages * b.struct_page + k_page - 1) / k_page);
    pages -= early;
  }
  how = std::to_string(counted - b.early_pages) + " page(s) outside early sections, " +
        (dedup ? "a deduplicated vmemmap (" + std::to_string(k_reserve_nr) +
                     " pages per compound page of " + std::to_string(compound) + ")"
               : std::to_string(b.struct_page) + "-byte struct pages" +
                     (b.altmap ? " (the memmap in the device, counted all the same)" : ""));
  return pages;
}

namespace {

// The problems of one setup alone, in order.
std::vector<std::string> own_problems(const SetupState& s) {
  std::vector<std::string> problems;
  const StateMoment* before = s.at("before");
  const StateMoment* bound = s.at("bound");
  if (!before || !bound) {
    problems.push_back("no 'before' or 'bound' moment: nothing to judge");
    return problems;
  }
  for (const char* later : {"unbound", "destroyed"}) {
    const StateMoment* m = s.at(later);
    if (!m) {
      problems.push_back(std::string("no '") + later + "' moment: the teardown was not seen");
      continue;
    }
    for (const auto& [name, value] : before->vmstat) {
      const int64_t now = counter(*m, name);
      if (now != value) {
        problems.push_back(name + " " + std::to_string(now - value) + " " + later +
                           " (before the bind " + std::to_string(value) + ", bound " +
                           std::to_string(counter(*bound, name)) +
                           "): the memmap's pages are not given back");
      }
    }
    for (const auto& zone : before->zones) {
      // ZONE_DEVICE keeps the span of what was bound: 6.12's teardown does
      // not shrink it (remove_pfn_range_from_zone(): "Zone shrinking code
      // cannot properly deal with ZONE_DEVICE"). Every other zone must be
      // as it was.
      if (zone.name == "Device") {
        continue;
      }
      const ZoneSpan* now = zone_named(*m, zone.name);
      if (now && !(*now == zone)) {
        problems.push_back("zone " + zone.name + " " + later + ": " + zone_text(*now) +
                           ", before the bind " + zone_text(zone));
      }
    }
  }
  // What the memmap costs, from the range, its map and its layout.
  if (bound->has_device && bound->vmstat.count("nr_memmap_pages")) {
    std::string how;
    const int64_t want = expected_memmap_pages(*bound, how);
    const int64_t got = counter(*bound, "nr_memmap_pages") - counter(*before, "nr_memmap_pages");
    if (got != want) {
      problems.push_back("nr_memmap_pages +" + std::to_string(got) + " bound, expected +" +
                         std::to_string(want) + " (" + how + ")");
    }
  }
  // Every pageblock wholly inside the initialised range: MIGRATE_MOVABLE.
  const uint64_t block = uint64_t{1} << bound->pageblock_order;
  for (const auto& run : bound->pageblocks) {
    for (uint64_t i = 0; i < run.count; ++i) {
      const uint64_t pfn = run.first_pfn + i * block;
      if (pfn >= bound->init_start_pfn && pfn + block <= bound->init_end_pfn &&
          run.migratetype != k_migrate_movable) {
        problems.push_back("pageblock at pfn " + hex(pfn) + " (and " +
                           std::to_string(run.count - i - 1) + " after it) has migratetype " +
                           std::to_string(run.migratetype) + ", not MIGRATE_MOVABLE");
        break;
      }
    }
  }
  return problems;
}

// Where two moments of two kernels differ, one line each.
void compare_moment(const StateMoment& base_before, const StateMoment& base,
                    const StateMoment& series_before, const StateMoment& series,
                    std::vector<std::string>& diffs) {
  for (const auto& [name, value] : base.vmstat) {
    const int64_t base_change = value - counter(base_before, name);
    const int64_t series_change = counter(series, name) - counter(series_before, name);
    if (base_change != series_change) {
      diffs.push_back(base.moment + ": " + name + " changed by " + std::to_string(series_change) +
                      " since the bind, the base's by " + std::to_string(base_change));
    }
  }
  for (const auto& zone : base.zones) {
    const ZoneSpan* mine = zone_named(series, zone.name);
    if (!mine || !(*mine == zone)) {
      diffs.push_back(base.moment + ": zone " + zone.name + " " +
                      (mine ? zone_text(*mine) : "missing") + ", the base's " + zone_text(zone));
    }
  }
  if (base.pageblocks != series.pageblocks) {
    const std::size_t n = std::min(base.pageblocks.size(), series.pageblocks.size());
    std::size_t i = 0;
    while (i < n && base.pageblocks[i] == series.pageblocks[i]) {
      ++i;
    }
    const auto text = [](const std::vector<PageblockRun>& runs, std::size_t at) {
      return at < runs.size() ? std::to_string(runs[at].count) + " pageblock(s) from pfn " +
                                    hex(runs[at].first_pfn) + " of migratetype " +
                                    std::to_string(runs[at].migratetype)
                              : std::string("nothing");
    };
    diffs.push_back(base.moment + ": pageblocks differ at run " + std::to_string(i + 1) + ": " +
                    text(series.pageblocks, i) + ", the base has " + text(base.pageblocks, i));
  }
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) {
    text += line + "\n";
  }
  return text;
}

}  // namespace

const StateMoment* SetupState::at(const std::string& moment) const {
  const auto found = std::find_if(moments.begin(), moments.end(),
                                  [&](const StateMoment& m) { return m.moment == moment; });
  return found == moments.end() ? nullptr : &*found;
}

SetupState parse_setup_state(const std::string& text) {
  SetupState state;
  int n = 0;
  for (const auto line : split_lines(text)) {
    ++n;
    const auto w = words(line);
    if (!w.empty()) {
      parse_line(w, n, state);
    }
  }
  if (state.setup.empty()) {
    throw usage_error("memmap-state: no 'setup' line");
  }
  return state;
}

std::vector<SetupState> collect_setup_states(const std::vector<guest::Event>& events,
                                             const std::filesystem::path& disk_image,
                                             std::map<std::string, std::string>& errors) {
  std::vector<SetupState> states;
  for (const BlobRef& ref : blob_refs(events)) {
    if (!ref.name.ends_with("-state")) {
      continue;
    }
    const std::string setup = ref.name.substr(0, ref.name.size() - 6);
    try {
      if (ref.size > k_max_state_bytes) {
        throw usage_error("blob " + ref.name + " holds " + std::to_string(ref.size) +
                          " bytes, more than a state file can");
      }
      states.push_back(parse_setup_state(read_blob(disk_image, ref)));
    } catch (const Error& e) {
      errors[setup] += std::string(errors[setup].empty() ? "" : "; ") + e.what();
    }
  }
  return states;
}

SetupVerdict judge_state(const SetupState& state) {
  const auto problems = own_problems(state);
  const StateMoment* bound = state.at("bound");
  if (!problems.empty()) {
    return {
        state.setup, VerdictStatus::k_fail,
        problems.front() +
            (problems.size() > 1 ? " (and " + std::to_string(problems.size() - 1) + " more)" : ""),
        joined(problems)};
  }
  uint64_t blocks = 0;
  for (const auto& run : bound->pageblocks) {
    blocks += run.count;
  }
  const StateMoment* before = state.at("before");
  std::string counters;
  for (const auto& [name, value] : bound->vmstat) {
    counters += (counters.empty() ? "" : ", ") + name + " " +
                std::to_string(value - counter(*before, name)) + " bound";
  }
  std::string reckoned;
  if (bound->has_device) {
    std::string how;
    reckoned =
        " as reckoned (+" + std::to_string(expected_memmap_pages(*bound, how)) + ": " + how + ")";
  }
  return {state.setup, VerdictStatus::k_pass,
          "the memmap costs " + counters + reckoned +
              "; teardown gives it back (0), every zone but ZONE_DEVICE as before; " +
              std::to_string(blocks) +
              " pageblock(s) of the range, each of the initialised range MIGRATE_MOVABLE (layout " +
              state.layout + ")",
          ""};
}

SetupVerdict judge_state_vs_base(const SetupState& base, const SetupState& series) {
  std::vector<std::string> diffs;
  const StateMoment* base_before = base.at("before");
  const StateMoment* series_before = series.at("before");
  if (!base_before || !series_before) {
    return {series.setup, VerdictStatus::k_fail,
            "no 'before' moment on the " + std::string(base_before ? "series'" : "base's") +
                " side: nothing to compare",
            ""};
  }
  for (const auto& moment : base.moments) {
    const StateMoment* mine = series.at(moment.moment);
    if (!mine) {
      diffs.push_back(moment.moment + ": the series kernel has no such moment");
      continue;
    }
    compare_moment(*base_before, moment, *series_before, *mine, diffs);
  }
  if (!diffs.empty()) {
    return {series.setup, VerdictStatus::k_fail,
            "state differs from the base (layout " + series.layout + "): " + diffs.front() +
                (diffs.size() > 1 ? " (and " + std::to_string(diffs.size() - 1) + " more)" : ""),
            joined(diffs)};
  }
  return {series.setup, VerdictStatus::k_pass,
          "the base's state at every moment (" + std::to_string(base.moments.size()) +
              " moments: the counters' changes, every zone, every pageblock; layout " +
              series.layout + ")",
          ""};
}

}  // namespace kseries::oracle
