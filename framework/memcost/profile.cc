#include "memcost/profile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/config_lines.h"
#include "core/error.h"
#include "core/text.h"
#include "sys/files.h"

namespace kseries::memcost {

namespace {

std::uint64_t number(const KeyValue& kv, const std::string& word, const std::string& file) {
  try {
    std::size_t used = 0;
    const auto value = std::stoull(word, &used);
    if (used == word.size() && value > 0) {
      return value;
    }
  } catch (const std::exception&) {
  }
  throw usage_error(file + ":" + std::to_string(kv.number) + ": " + kv.key +
                    ": expected a positive number, found '" + word + "'");
}

double real(const KeyValue& kv, const std::string& file) {
  try {
    std::size_t used = 0;
    const double value = std::stod(kv.value, &used);
    if (used == kv.value.size() && std::isfinite(value) && value > 0 && value < 1e6) {
      return value;
    }
  } catch (const std::exception&) {
  }
  throw usage_error(file + ":" + std::to_string(kv.number) + ": " + kv.key +
                    ": expected a positive number, found '" + kv.value + "'");
}

// A share in [0, 1] ("serial:" may be 0: compute and memory overlap fully).
double share(const KeyValue& kv, const std::string& file) {
  try {
    std::size_t used = 0;
    const double value = std::stod(kv.value, &used);
    if (used == kv.value.size() && value >= 0 && value <= 1) {
      return value;
    }
  } catch (const std::exception&) {
  }
  throw usage_error(file + ":" + std::to_string(kv.number) + ": " + kv.key +
                    ": expected a share from 0 to 1, found '" + kv.value + "'");
}

CacheLevel level(const KeyValue& kv, const std::string& file) {
  const auto words = split_words(kv.value);
  if (words.size() != 2) {
    throw usage_error(file + ":" + std::to_string(kv.number) + ": " + kv.key +
                      ": expected 'BYTES WAYS', found '" + kv.value + "'");
  }
  CacheLevel l{number(kv, words[0], file), static_cast<unsigned>(number(kv, words[1], file))};
  if (l.ways > 64 || l.bytes < 64ull * l.ways || l.bytes > (1ull << 34)) {
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
  for (const auto& kv : parse_key_values(text, file)) {
    if (kv.key == "l1d") {
      p.l1d = level(kv, file);
    } else if (kv.key == "l2") {
      p.l2 = level(kv, file);
    } else if (kv.key == "llc") {
      p.llc = level(kv, file);
    } else if (kv.key == "wc-buffers") {
      p.wc_buffers = static_cast<unsigned>(std::min<std::uint64_t>(number(kv, kv.value, file), 33));
    } else if (kv.key == "frequency-ghz") {
      p.frequency_ghz = real(kv, file);
    } else if (kv.key == "ipc") {
      p.ipc = real(kv, file);
    } else if (kv.key == "read-gbps") {
      p.read_gbps = real(kv, file);
    } else if (kv.key == "write-gbps") {
      p.write_gbps = real(kv, file);
    } else if (kv.key == "seed-memmap-bytes") {
      p.seed_memmap_bytes = number(kv, kv.value, file);
    } else if (kv.key == "serial") {
      p.serial = share(kv, file);
    } else {
      throw usage_error(file + ":" + std::to_string(kv.number) + ": unknown key '" + kv.key +
                        "' (known: l1d l2 llc wc-buffers frequency-ghz ipc read-gbps "
                        "write-gbps serial seed-memmap-bytes)");
    }
  }
  const auto missing = [&](const char* key) {
    return usage_error(file + ": no '" + std::string(key) + ":' line");
  };
  if (!p.l1d.bytes) throw missing("l1d");
  if (!p.l2.bytes) throw missing("l2");
  if (!p.llc.bytes) throw missing("llc");
  if (!p.wc_buffers) throw missing("wc-buffers");
  if (p.wc_buffers > 32) {
    throw usage_error(file + ": wc-buffers: at most 32");
  }
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
                "write %.17g serial %.17g seed %llu unscaled %d llc-sweep",
                static_cast<unsigned long long>(p.l1d.bytes), p.l1d.ways,
                static_cast<unsigned long long>(p.l2.bytes), p.l2.ways,
                static_cast<unsigned long long>(p.llc.bytes), p.llc.ways, p.wc_buffers,
                p.frequency_ghz, p.ipc, p.read_gbps, p.write_gbps, p.serial,
                static_cast<unsigned long long>(p.seed_memmap_bytes), settings.unscaled ? 1 : 0);
  std::string key = p.name + text;
  for (const auto bytes : settings.llc_sweep) {
    key += " " + std::to_string(bytes);
  }
  return key;
}

}  // namespace kseries::memcost
