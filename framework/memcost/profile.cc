#include "memcost/profile.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>

#include "core/config_lines.h"
#include "core/error.h"
#include "core/text.h"
#include "memcost/model.h"
#include "sys/files.h"

namespace kseries::memcost {

namespace {

[[noreturn]] void bad(const KeyValue& kv, const std::string& file, const std::string& what) {
  throw usage_error(file + ":" + std::to_string(kv.number) + ": " + kv.key + ": " + what);
}

// A whole number of decimal digits only (no sign, no space, no 0x), from 1
// to LIMIT: std::stoull takes "-1" for 2^64 - 1.
std::uint64_t number(const KeyValue& kv, const std::string& word, const std::string& file,
                     std::uint64_t limit) {
  std::uint64_t value = 0;
  const char* end = word.data() + word.size();
  const auto [ptr, ec] = std::from_chars(word.data(), end, value);
  if (word.empty() || !std::isdigit(static_cast<unsigned char>(word[0])) || ec != std::errc() ||
      ptr != end || value == 0 || value > limit) {
    bad(kv, file,
        "expected a whole number from 1 to " + std::to_string(limit) + ", found '" + word + "'");
  }
  return value;
}

// A decimal number, digits first ("3.4", "11.5", "0.17"; no sign, no
// exponent, no inf or nan), from LOW to HIGH (LOW itself only if
// LOW_ALLOWED).
double decimal(const KeyValue& kv, const std::string& file, double low, bool low_allowed,
               double high) {
  const std::string& text = kv.value;
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, std::chars_format::fixed);
  const bool in_range =
      std::isfinite(value) && (low_allowed ? value >= low : value > low) && value <= high;
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])) || ec != std::errc() ||
      ptr != end || !in_range) {
    char range[80];
    std::snprintf(range, sizeof range, "a decimal number %s %g and at most %g",
                  low_allowed ? "from" : "above", low, high);
    bad(kv, file, std::string("expected ") + range + ", found '" + text + "'");
  }
  return value;
}

double real(const KeyValue& kv, const std::string& file) {
  return decimal(kv, file, 0, false, 1e6);
}

// A share in [0, 1] ("serial:" may be 0: compute and memory overlap fully).
double share(const KeyValue& kv, const std::string& file) { return decimal(kv, file, 0, true, 1); }

bool yes_no(const KeyValue& kv, const std::string& file) {
  if (kv.value != "yes" && kv.value != "no") {
    bad(kv, file, "expected yes or no, found '" + kv.value + "'");
  }
  return kv.value == "yes";
}

CacheLevel level(const KeyValue& kv, const std::string& file) {
  const auto words = split_words(kv.value);
  if (words.size() != 2) {
    throw usage_error(file + ":" + std::to_string(kv.number) + ": " + kv.key +
                      ": expected 'BYTES WAYS', found '" + kv.value + "'");
  }
  CacheLevel l{number(kv, words[0], file, 1ull << 34),
               static_cast<unsigned>(number(kv, words[1], file, 64))};
  if (l.bytes < 64ull * l.ways) {
    throw usage_error(file + ":" + std::to_string(kv.number) + ": " + kv.key +
                      ": at most 64 ways and 16 GiB, at least one set: '" + kv.value + "'");
  }
  return l;
}

std::string size_text(std::uint64_t bytes) {
  char text[32];
  if (bytes >= (1u << 20)) {
    std::snprintf(text, sizeof text, "%.3g MiB", static_cast<double>(bytes) / (1u << 20));
  } else if (bytes >= 1024) {
    std::snprintf(text, sizeof text, "%.3g KiB", static_cast<double>(bytes) / 1024);
  } else {
    std::snprintf(text, sizeof text, "%llu B", static_cast<unsigned long long>(bytes));
  }
  return text;
}

// BYTES / DIVISOR, rounded to whole sets of WAYS lines, at least one set.
CacheLevel divided(const CacheLevel& l, double divisor) {
  const double set_bytes = 64.0 * l.ways;
  const double sets = std::max(1.0, std::round(static_cast<double>(l.bytes) / divisor / set_bytes));
  return {static_cast<std::uint64_t>(sets * set_bytes), l.ways};
}

}  // namespace

MachineProfile parse_profile(const std::string& text, const std::string& file) {
  MachineProfile p;
  std::map<std::string, int> seen;  // key -> its line
  for (const auto& kv : parse_key_values(text, file)) {
    const auto [first, fresh] = seen.emplace(kv.key, kv.number);
    if (!fresh) {
      // The last value would silently win; the first may be the one meant.
      throw usage_error(file + ":" + std::to_string(kv.number) + ": " + kv.key +
                        ": given twice (first at line " + std::to_string(first->second) + ")");
    }
    if (kv.key == "l1d") {
      p.l1d = level(kv, file);
    } else if (kv.key == "l2") {
      p.l2 = level(kv, file);
    } else if (kv.key == "llc") {
      p.llc = level(kv, file);
    } else if (kv.key == "wc-buffers") {
      p.wc_buffers = static_cast<unsigned>(number(kv, kv.value, file, MC_MAX_WC));
    } else if (kv.key == "frequency-ghz") {
      p.frequency_ghz = real(kv, file);
    } else if (kv.key == "ipc") {
      p.ipc = real(kv, file);
    } else if (kv.key == "read-gbps") {
      p.read_gbps = real(kv, file);
    } else if (kv.key == "write-gbps") {
      p.write_gbps = real(kv, file);
    } else if (kv.key == "seed-memmap-bytes") {
      // At most 2^50 (1 PiB of struct pages): scaled_to() divides by it.
      p.seed_memmap_bytes = number(kv, kv.value, file, 1ull << 50);
    } else if (kv.key == "serial") {
      p.serial = share(kv, file);
    } else if (kv.key == "locked-orders-nt") {
      p.locked_orders_nt = yes_no(kv, file);
    } else {
      throw usage_error(file + ":" + std::to_string(kv.number) + ": unknown key '" + kv.key +
                        "' (known: l1d l2 llc wc-buffers frequency-ghz ipc read-gbps "
                        "write-gbps serial locked-orders-nt seed-memmap-bytes)");
    }
  }
  const auto missing = [&](const char* key) {
    return usage_error(file + ": no '" + std::string(key) + ":' line");
  };
  if (!p.l1d.bytes) throw missing("l1d");
  if (!p.l2.bytes) throw missing("l2");
  if (!p.llc.bytes) throw missing("llc");
  if (!p.wc_buffers) throw missing("wc-buffers");
  if (!p.frequency_ghz) throw missing("frequency-ghz");
  if (!p.ipc) throw missing("ipc");
  if (!p.read_gbps) throw missing("read-gbps");
  if (!p.write_gbps) throw missing("write-gbps");
  if (!p.seed_memmap_bytes) throw missing("seed-memmap-bytes");
  return p;
}

MachineProfile load_profile(const std::string& name_or_path, const std::filesystem::path& dir) {
  const bool is_name = name_or_path.find('/') == std::string::npos &&
                       name_or_path.find('.') == std::string::npos && !name_or_path.empty();
  const std::filesystem::path path =
      is_name ? dir / (name_or_path + ".machine") : std::filesystem::path(name_or_path);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw usage_error("--memory-profile " + name_or_path + ": no machine profile " + path.string() +
                      (is_name ? " (bundled: kernel-configs/machines/)" : ""));
  }
  if (std::filesystem::file_size(path, ec) > 65536) {
    throw usage_error(path.string() + ": a machine profile is at most 64 KiB");
  }
  auto profile = parse_profile(read_file(path), path.string());
  profile.name = path.stem().string();
  return profile;
}

MachineProfile scaled_to(const MachineProfile& profile, std::uint64_t memmap_bytes) {
  MachineProfile p = profile;
  if (memmap_bytes == 0 || memmap_bytes >= profile.seed_memmap_bytes) {
    return p;
  }
  const double divisor = static_cast<double>(profile.seed_memmap_bytes) / memmap_bytes;
  p.l1d = divided(profile.l1d, divisor);
  p.l2 = divided(profile.l2, divisor);
  p.llc = divided(profile.llc, divisor);
  p.scale = 1 / divisor;
  return p;
}

MachineProfile with_llc(const MachineProfile& profile, std::uint64_t bytes) {
  MachineProfile p = profile;
  p.llc = divided({bytes, profile.llc.ways}, 1);
  return p;
}

std::string plugin_model(const MachineProfile& p, const std::string& label) {
  return "model=" + label + ":" + std::to_string(p.l1d.bytes) + ":" + std::to_string(p.l1d.ways) +
         ":" + std::to_string(p.l2.bytes) + ":" + std::to_string(p.l2.ways) + ":" +
         std::to_string(p.llc.bytes) + ":" + std::to_string(p.llc.ways) + ":" +
         std::to_string(p.wc_buffers);
}

ModelTerms model_terms(const MachineProfile& p, const WindowCost& w) {
  return {static_cast<double>(w.insns) / (p.ipc * p.frequency_ghz),
          static_cast<double>(w.dram_read) / p.read_gbps +
              static_cast<double>(w.dram_write) / p.write_gbps};  // GB/s = B/ns
}

double modelled_ns(const MachineProfile& p, const WindowCost& w) {
  const auto [compute, memory] = model_terms(p, w);
  return std::max(compute, memory) + p.serial * std::min(compute, memory);
}

std::string describe(const MachineProfile& p) {
  std::string scale;
  if (p.scale < 1) {
    char text[32];
    std::snprintf(text, sizeof text, " scaled 1/%.0f", 1 / p.scale);
    scale = text;
  }
  char tail[200];
  std::snprintf(tail, sizeof tail,
                ", %u WC; %.3g GHz x %.3g IPC, DRAM %.3g/%.3g GB/s read/write, serial %.3g)",
                p.wc_buffers, p.frequency_ghz, p.ipc, p.read_gbps, p.write_gbps, p.serial);
  return p.name + scale + " (L1D " + size_text(p.l1d.bytes) + ", L2 " + size_text(p.l2.bytes) +
         ", LLC " + size_text(p.llc.bytes) + tail;
}

std::string settings_key(const MemoryClockSettings& settings) {
  if (!settings.profile) {
    return "none";
  }
  const MachineProfile& p = *settings.profile;
  // The name goes in whole, outside the fixed-size buffer: a long name must
  // not crowd the figures out of the key.
  char text[512];
  std::snprintf(text, sizeof text,
                " l1d %llu %u l2 %llu %u llc %llu %u wc %u ghz %.17g ipc %.17g read %.17g "
                "write %.17g serial %.17g locked-nt %d seed %llu unscaled %d llc-sweep",
                static_cast<unsigned long long>(p.l1d.bytes), p.l1d.ways,
                static_cast<unsigned long long>(p.l2.bytes), p.l2.ways,
                static_cast<unsigned long long>(p.llc.bytes), p.llc.ways, p.wc_buffers,
                p.frequency_ghz, p.ipc, p.read_gbps, p.write_gbps, p.serial,
                p.locked_orders_nt ? 1 : 0, static_cast<unsigned long long>(p.seed_memmap_bytes),
                settings.unscaled ? 1 : 0);
  std::string key = p.name + text;
  for (const auto bytes : settings.llc_sweep) {
    key += " " + std::to_string(bytes);
  }
  return key;
}

}  // namespace kseries::memcost
