#include "memcost/record.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>

#include "core/text.h"

namespace kseries::memcost {

namespace {

// "key=value" words after the line's first word.
std::map<std::string, std::string> fields(const std::vector<std::string>& words) {
  std::map<std::string, std::string> out;
  for (std::size_t i = 1; i < words.size() && i < 64; ++i) {
    const auto eq = words[i].find('=');
    if (eq != std::string::npos && eq > 0) {
      out.emplace(words[i].substr(0, eq), words[i].substr(eq + 1));
    }
  }
  return out;
}

// A decimal or 0x-hex number; false for anything else.
bool to_u64(const std::string& text, std::uint64_t& value) {
  if (text.empty() || text.size() > 20) {
    return false;
  }
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  char* end = nullptr;
  value = std::strtoull(text.c_str(), &end, hex ? 16 : 10);
  return end && *end == '\0' && (hex || text[0] != '-');
}

bool take(const std::map<std::string, std::string>& f, const char* key, std::uint64_t& into) {
  const auto it = f.find(key);
  return it != f.end() && to_u64(it->second, into);
}

bool read_window(const std::map<std::string, std::string>& f, WindowCost& w) {
  std::uint64_t vcpu = 0;
  bool ok = take(f, "seq", w.seq) && take(f, "vcpu", vcpu) && take(f, "insns", w.insns) &&
            take(f, "loads", w.loads) && take(f, "stores", w.stores) &&
            take(f, "nt_stores", w.nt_stores) && take(f, "fences", w.fences) &&
            take(f, "l1_miss", w.l1_miss) && take(f, "l2_miss", w.l2_miss) &&
            take(f, "llc_miss", w.llc_miss) && take(f, "dram_read", w.dram_read) &&
            take(f, "dram_write", w.dram_write) && take(f, "wc_full", w.wc_full) &&
            take(f, "wc_partial", w.wc_partial) && take(f, "irqs", w.irqs) &&
            take(f, "irq_insns", w.irq_insns) && take(f, "irq_dram_read", w.irq_dram_read) &&
            take(f, "irq_dram_write", w.irq_dram_write) && take(f, "switches", w.switches);
  const auto model = f.find("model");
  if (!ok || model == f.end() || model->second.empty() || model->second.size() > 31 ||
      vcpu > 1024) {
    return false;
  }
  w.vcpu = static_cast<unsigned>(vcpu);
  w.model = model->second;
  return true;
}

bool read_order(const std::map<std::string, std::string>& f, WindowOrder& o) {
  std::uint64_t overflow = 0;
  const auto it = f.find("overflow");
  if (it == f.end() || (it->second != "0" && it->second != "1")) {
    return false;
  }
  overflow = it->second == "1";
  o.overflow = overflow != 0;
  // locks= is newer than the other words: absent, none were told apart.
  if (f.count("locks") && !take(f, "locks", o.locks)) {
    return false;
  }
  return take(f, "seq", o.seq) && take(f, "nt_stores", o.nt_stores) &&
         take(f, "fences", o.fences) && take(f, "dropped", o.dropped);
}

bool read_hazard(const std::map<std::string, std::string>& f, Hazard& h, std::uint64_t& seq) {
  const auto kind = f.find("kind");
  static const char* const k_kinds[] = {"store",        "load",        "return",
                                        "locked-store", "locked-load", "locked-return"};
  if (kind == f.end() || std::none_of(std::begin(k_kinds), std::end(k_kinds),
                                      [&](const char* k) { return kind->second == k; })) {
    return false;
  }
  h.kind = kind->second;
  const bool locked = h.kind.rfind("locked-", 0) == 0;
  // A locked-* hazard names its lock (0: out of the plugin's ring of lock
  // PCs); the others have none (0, or absent in older records).
  if (f.count("lock_pc") && !take(f, "lock_pc", h.lock_pc)) {
    return false;
  }
  if (!locked && h.lock_pc != 0) {
    return false;
  }
  // site= and caller= are newer still: absent, where the lock was reached
  // from is unknown; present, both are, and only a locked-* names them.
  h.sites_known = f.count("site") > 0;
  if (h.sites_known != (f.count("caller") > 0) ||
      (h.sites_known && (!take(f, "site", h.site) || !take(f, "caller", h.caller))) ||
      (!locked && (h.site != 0 || h.caller != 0))) {
    return false;
  }
  return take(f, "seq", seq) && take(f, "nt_pc", h.nt_pc) && take(f, "pc", h.pc) &&
         take(f, "vaddr", h.vaddr) && take(f, "count", h.count);
}

}  // namespace

Records parse_records(const std::string& text) {
  Records r;
  std::size_t bad = 0;
  const auto problem = [&](std::size_t number, std::string_view line) {
    if (++bad <= 5) {
      r.problems.push_back("line " + std::to_string(number) + ": cannot read '" +
                           std::string(line.substr(0, 120)) + "'");
    }
  };
  std::size_t number = 0;
  for (const auto line : split_lines(text)) {
    ++number;
    const auto words = split_words(line.substr(0, 4096));
    if (words.empty()) {
      continue;
    }
    const auto f = fields(words);
    if (words[0] == "memcost") {
      r.header = true;
      const auto locked = f.find("locked_nt");
      if (locked != f.end() && locked->second != "ordered" && locked->second != "unordered") {
        problem(number, line);
        continue;
      }
      r.locked_orders_nt = locked == f.end() || locked->second == "ordered";
    } else if (words[0] == "end") {
      r.ended = take(f, "windows", r.windows_seen);
    } else if (words[0] == "window") {
      WindowCost w;
      if (!read_window(f, w)) {
        problem(number, line);
        continue;
      }
      auto& list = r.windows[w.model];
      if (r.windows.size() > 8) {
        r.problems.push_back("more than 8 models");
        r.windows.erase(w.model);
        continue;
      }
      if (list.size() >= k_max_windows) {
        if (list.size() == k_max_windows) {
          r.problems.push_back("more than " + std::to_string(k_max_windows) + " windows of model " +
                               w.model + ": the rest is not read");
        }
        continue;
      }
      list.push_back(std::move(w));
    } else if (words[0] == "order") {
      WindowOrder o;
      if (!read_order(f, o) || r.order.size() >= k_max_windows) {
        problem(number, line);
        continue;
      }
      r.order.push_back(std::move(o));
    } else if (words[0] == "hazard") {
      Hazard h;
      std::uint64_t seq = 0;
      if (!read_hazard(f, h, seq) || r.order.empty() || r.order.back().seq != seq ||
          r.order.back().hazards.size() >= 64) {
        problem(number, line);
        continue;
      }
      r.order.back().hazards.push_back(h);
    } else {
      problem(number, line);
    }
  }
  if (bad > 5) {
    r.problems.push_back(std::to_string(bad - 5) + " more unreadable line(s)");
  }
  return r;
}

}  // namespace kseries::memcost
