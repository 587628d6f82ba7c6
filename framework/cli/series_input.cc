#include "cli/series_input.h"

#include <cstdlib>
#include <functional>
#include <sstream>

#include "core/error.h"
#include "git/branch_series.h"
#include "series/b4_fetch.h"
#include "series/series.h"
#include "sys/file_streams.h"
#include "sys/files.h"

namespace kseries::cli {

namespace fs = std::filesystem;

namespace {

std::string inbox_url(const po::variables_map& vm) {
  if (vm.count("inbox")) {
    return vm["inbox"].as<std::string>();
  }
  const char* env = std::getenv("KSERIES_INBOX");
  return env && *env ? env : "https://lore.kernel.org/all";
}

// A pipe with no name (`--series <(b4 am -o - ...)`) can be read once, and
// its path means nothing to any later stage: read whole (within
// read_file's bound) and kept under WORKDIR/inputs/, named for its
// content, so that every stage (and a reproducer) reads a file.
fs::path saved_stream(Context& context, const fs::path& path) {
  const std::string text = read_file(path, k_max_input_bytes, InputKind::k_file_or_pipe);
  std::ostringstream name;
  name << "piped-" << std::hex << std::hash<std::string>{}(text);
  const fs::path dir = context.workdir().root() / "inputs" / name.str();
  fs::create_directories(dir);
  const fs::path file = dir / "piped.mbox";
  replace_file(file, text);
  progress("series " + path.string() + ": a pipe, read once -> " + file.string());
  return file;
}

}  // namespace

po::options_description series_input_options() {
  po::options_description options("Series input");
  options.add_options()(
      "inbox", po::value<std::string>(),
      "public-inbox URL a --series MESSAGE-ID is fetched from with b4 (default $KSERIES_INBOX, "
      "else https://lore.kernel.org/all)")(
      "b4-revision", po::value<int>(),
      "for a --series MESSAGE-ID: this revision of the thread's series, not the newest");
  return options;
}

SeriesInput resolve_series_input(Context& context, const po::variables_map& vm,
                                 const std::string& text) {
  SeriesInput input{parse_series_spec(text), fs::path(text), std::nullopt};
  switch (input.spec.kind) {
    case SeriesSpecKind::k_path: {
      // A pipe with no name of its own (/dev/fd/63 of `<(...)`: its path
      // resolves to "pipe:[N]") is read now; a named FIFO stays a path
      // (the gate reads each series when it gets to it).
      std::error_code unnamed;
      static_cast<void>(fs::canonical(input.path, unnamed));
      if (unnamed && is_stream(input.path)) {
        input.path = saved_stream(context, input.path);
      }
      return input;
    }
    case SeriesSpecKind::k_range:
    case SeriesSpecKind::k_branch: {
      if (!vm.count("tree")) {
        throw usage_error("--series " + text + ": no such file or directory; as a " +
                          (input.spec.kind == SeriesSpecKind::k_range ? "range" : "branch") +
                          " of commits it needs --tree DIR (the repository holding them)");
      }
      const auto written =
          git::write_branch_series(context.runner(), vm["tree"].as<std::string>(), input.spec,
                                   context.workdir().root() / "inputs");
      progress("series " + describe(input.spec) + ": " + std::to_string(written.patches) +
               " commit(s) on " + written.base.substr(0, 12) +
               (written.merges > 0 ? " (" + std::to_string(written.merges) +
                                         " merge(s), each one patch of what it changed against "
                                         "its first parent)"
                                   : "") +
               " -> " + written.dir.string());
      input.path = written.dir;
      input.base = written.base;
      return input;
    }
    case SeriesSpecKind::k_message_id:
      break;
  }
  B4Request request;
  request.message_id = input.spec.message_id;
  request.inbox_url = inbox_url(vm);
  request.revision = input.spec.revision;
  if (vm.count("b4-revision") && !request.revision) {
    const int revision = vm["b4-revision"].as<int>();
    if (revision < 1 || revision > 999) {
      throw usage_error("--b4-revision must be from 1 to 999");
    }
    request.revision = revision;
  }
  request.out_root = context.workdir().root() / "inputs";
  progress("series " + describe(input.spec) + ": b4 am from " + request.inbox_url);
  const auto fetched = fetch_b4_series(context.runner(), request);
  input.path = fetched.dir;
  input.base = load_series(fetched.dir).base_commit;
  progress("series " + describe(input.spec) + ": v" + std::to_string(fetched.revision) + " -> " +
           fetched.dir.string());
  return input;
}

Base resolve_base_for(Context& context, const po::variables_map& vm,
                      const std::optional<std::string>& base) {
  if (vm.count("base") || !base) {
    return resolve_base(context, vm);
  }
  Base resolved;
  if (vm.count("tree")) {
    const std::string tree = vm["tree"].as<std::string>();
    try {
      resolved.commit = context.store().borrow_commit(tree, *base);
      resolved.label = tree + " " + base->substr(0, 12);
      return resolved;
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::k_usage) {
        throw;
      }
      progress("note: the series' base " + *base + " is not in " + tree + ": using HEAD");
      return resolve_base(context, vm);
    }
  }
  if (const auto found = context.store().resolve(*base)) {
    resolved.commit = *found;
    resolved.label = base->substr(0, 12);
    return resolved;
  }
  progress("note: the series' base-commit " + *base + " is not in " +
           context.store().path().string() + ": using the imported tarball");
  return resolve_base(context, vm);
}

std::vector<std::string> base_arguments(const po::variables_map& vm, const Base& base) {
  if (vm.count("tree")) {
    return {"--tree", fs::absolute(vm["tree"].as<std::string>()).string(), "--base",
            git::to_hex(base.commit)};
  }
  if (vm.count("base")) {
    return {"--base", git::to_hex(base.commit)};
  }
  return {"--tarball", vm["tarball"].as<std::string>()};
}

std::vector<std::string> series_input_arguments(const SeriesInput& input,
                                                const po::variables_map& vm) {
  const bool path = input.spec.kind == SeriesSpecKind::k_path;
  std::vector<std::string> args = {"--series",
                                   path ? fs::absolute(input.path).string() : input.spec.text};
  if (input.spec.kind == SeriesSpecKind::k_message_id) {
    args.push_back("--inbox");
    args.push_back(inbox_url(vm));
    if (vm.count("b4-revision")) {
      args.push_back("--b4-revision");
      args.push_back(std::to_string(vm["b4-revision"].as<int>()));
    }
  }
  return args;
}

}  // namespace kseries::cli
