#include "session/boot_cache.h"

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/json_text.h"
#include "core/text.h"
#include "oracle/sha256.h"
#include "sys/files.h"
#include "sys/process.h"

namespace kseries::session {

namespace fs = std::filesystem;

namespace {

constexpr const char* k_files[] = {"console.log", "protocol.log", "bulk.img"};

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  if (from.empty()) {
    return text;
  }
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

std::string file_identity(const fs::path& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  const auto mtime = fs::last_write_time(path, ec).time_since_epoch().count();
  return path.string() + " " + std::to_string(size) + " " + std::to_string(mtime);
}

fs::path source_of(const qemu::VmRun& run, const std::string& file) {
  return file == "console.log" ? run.console : file == "protocol.log" ? run.protocol : run.bulk;
}

// The memory clock's plugin records beside the protocol log (boot_session:
// <boot>.memcost), kept with the boot when they exist.
fs::path memcost_of(const qemu::VmRun& run) {
  std::string path = run.protocol.string();
  const std::string suffix = ".protocol.log";
  if (path.size() > suffix.size()) {
    path.replace(path.size() - suffix.size(), suffix.size(), ".memcost");
  }
  return path;
}

}  // namespace

BootCache::BootCache(fs::path dir) : m_dir(std::move(dir)) {}

std::string BootCache::key(const qemu::VmSpec& spec, const std::string& accel) const {
  std::string text = "kseries boot cache 1\n";
  const auto argv = qemu::qemu_argv(spec, accel);
  for (std::string arg : argv) {
    arg = replace_all(arg, spec.run_dir.string(), "<run>");
    arg = replace_all(arg, spec.kernel.string(), "<kernel>");
    arg = replace_all(arg, spec.initramfs.string(), "<initramfs>");
    text += arg + "\n";
  }
  text += "kernel " + oracle::sha256_hex(read_file(spec.kernel)) + "\n";
  text += "initramfs " + oracle::sha256_hex(read_file(spec.initramfs)) + "\n";
  // A plugin is code: a rebuilt memcost.so with the same arguments must
  // not reuse the old one's records.
  for (const auto& plugin : spec.plugins) {
    const auto comma = plugin.find(',');
    const std::string file = plugin.substr(5, comma == std::string::npos ? comma : comma - 5);
    std::error_code ec;
    text += "plugin " +
            (starts_with(plugin, "file=") && fs::is_regular_file(file, ec)
                 ? oracle::sha256_hex(read_file(file))
                 : std::string("none")) +
            "\n";
  }
  const auto qemu = find_program(argv.front());
  text += "qemu " + (qemu ? file_identity(*qemu) : std::string("none")) + "\n";
  return oracle::sha256_hex(text);
}

std::optional<qemu::VmRun> BootCache::restore(const std::string& key, const qemu::VmSpec& spec,
                                              const std::string& accel,
                                              const std::string& accel_note) const {
  const fs::path entry = m_dir / key;
  if (!fs::is_regular_file(entry / "meta.json")) {
    return std::nullopt;
  }
  const auto meta = parse_json_text(read_file(entry / "meta.json"));
  if (!meta.is_object() || !meta.contains("elapsed_ms")) {
    return std::nullopt;
  }
  fs::create_directories(spec.run_dir);
  qemu::VmRun run;
  run.accel = accel;
  run.accel_note = accel_note;
  run.argv = qemu::qemu_argv(spec, accel);
  run.console = spec.run_dir / (spec.name + ".console.log");
  run.protocol = spec.run_dir / (spec.name + ".protocol.log");
  run.bulk = spec.run_dir / (spec.name + ".bulk.img");
  for (const char* file : k_files) {
    std::error_code ec;
    fs::remove(source_of(run, file), ec);
    fs::create_hard_link(entry / file, source_of(run, file), ec);
    if (ec) {
      return std::nullopt;
    }
  }
  if (fs::is_regular_file(entry / "memcost")) {
    std::error_code ec;
    fs::remove(memcost_of(run), ec);
    fs::create_hard_link(entry / "memcost", memcost_of(run), ec);
    if (ec) {
      return std::nullopt;
    }
  }
  run.process.end = ProcessEnd::k_exited;
  run.process.exit_code = 0;
  run.process.elapsed = std::chrono::milliseconds(0);  // nothing booted now
  return run;
}

void BootCache::store(const std::string& key, const qemu::VmRun& run) const {
  const fs::path entry = m_dir / key;
  std::error_code ec;
  if (fs::exists(entry, ec)) {
    return;
  }
  const fs::path staging = m_dir / (key + ".tmp." + std::to_string(::getpid()));
  fs::remove_all(staging, ec);
  fs::create_directories(staging, ec);
  for (const char* file : k_files) {
    fs::create_hard_link(source_of(run, file), staging / file, ec);
    if (ec) {
      fs::remove_all(staging, ec);
      return;
    }
  }
  if (fs::is_regular_file(memcost_of(run), ec)) {
    fs::create_hard_link(memcost_of(run), staging / "memcost", ec);
    if (ec) {
      fs::remove_all(staging, ec);
      return;
    }
  }
  write_file(
      staging / "meta.json",
      nlohmann::json{{"elapsed_ms", run.process.elapsed.count()}, {"argv", run.argv}}.dump(1));
  fs::rename(staging, entry, ec);  // another run may have kept the same boot first
  if (ec) {
    fs::remove_all(staging, ec);
  }
}

}  // namespace kseries::session
