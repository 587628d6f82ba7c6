// kseries watch: a thin driver over watch/service.h. Polls the inbox (once
// with --once), gates each new revision against the previous one of its
// series, writes each answer to --outbox (and --sendmail).
#include <algorithm>
#include <chrono>
#include <iostream>
#include <thread>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/series_input.h"
#include "core/error.h"
#include "core/text.h"
#include "kseries_version.h"
#include "sys/interrupt.h"
#include "watch/answer_mail.h"
#include "watch/service.h"
#include "watch/watch_state.h"
#include "watch/watcher.h"

namespace kseries::cli {

namespace fs = std::filesystem;

namespace {

// A state directory per inbox and outbox: two watches of one inbox into
// two outboxes answer independently.
fs::path state_dir(Context& context, const std::string& inbox, const fs::path& outbox) {
  std::uint64_t hash = 1469598103934665603ull;
  for (const char c : inbox + "\n" + outbox.string()) {
    hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return context.workdir().root() / "watch" / hex;
}

po::options_description watch_options() {
  po::options_description options("kseries watch options");
  options.add_options()("match", po::value<std::vector<std::string>>()->composing(),
                        "subject:TEXT, file:PATH or change-id:ID[,ID]: gate only what matches "
                        "(repeat: any)")(
      "matrix", po::value<std::string>()->default_value("quick"),
      "the gate's matrix (kernel-configs/matrices/ name or file)")(
      "outbox", po::value<std::string>()->required(), "directory the answer mails go to")(
      "once", "poll once and exit (else every --interval seconds until stopped)")(
      "interval", po::value<int>()->default_value(300), "seconds between polls")(
      "since", po::value<std::string>(),
      "the first poll reads the archive from this date (2026-05-01, UTC) or after this commit "
      "of an epoch (else from its newest message on)")(
      "source", po::value<std::string>()->default_value("auto"),
      "archive (the inbox's git epochs), feed (its Atom feed: newest messages only) or auto "
      "(archive, else feed with a warning)")(
      "max-fetch-mib", po::value<std::uint64_t>()->default_value(4096),
      "the most one git fetch of an epoch may download, MiB")(
      "dry-run", "read, record and fetch new revisions; gate and answer nothing")(
      "status", "print what this watch's state holds (last poll, pending revisions) and exit")(
      "wait", "when another watcher holds this state, wait for it (else refuse)")(
      "report-url", po::value<std::string>(),
      "where readers find a run: answers name it as URL/<run id>/ (else by its run id)")(
      "sendmail", po::value<std::string>(),
      "also pipe each answer to this command (words split on spaces, no shell)")(
      "from", po::value<std::string>()->default_value("kseries <kseries@invalid>"),
      "the answers' From:")("accel", po::value<std::string>()->default_value("auto"),
                            "auto, kvm or tcg")(
      "clock", po::value<std::string>()->default_value("auto"), "auto, icount or wall")(
      "configs", po::value<std::string>(), "kernel-configs directory (default: the bundled one)")(
      "testcases", po::value<std::string>(), "testcases directory (default: the bundled one)")(
      "jobs,j", po::value<std::size_t>()->default_value(std::thread::hardware_concurrency()),
      "make -j");
  return options;
}

// kseries' version and the --match set: what an ignored or refused
// revision was judged under.
std::string intake_stamp(const std::vector<watch::Match>& matches) {
  std::vector<std::string> texts;
  for (const auto& match : matches) {
    texts.push_back(match.text);
  }
  std::sort(texts.begin(), texts.end());
  std::string stamp = std::string("kseries ") + KSERIES_GIT_DESCRIBE;
  for (const auto& text : texts) {
    stamp += " --match " + text;
  }
  return stamp;
}

// The intake options: where and how the inbox is read.
void read_intake_options(const po::variables_map& vm, watch::WatchRequest& request) {
  request.inbox_url = vm["inbox"].as<std::string>();
  while (!request.inbox_url.empty() && request.inbox_url.back() == '/') {
    request.inbox_url.pop_back();
  }
  if (vm.count("match")) {
    for (const auto& text : vm["match"].as<std::vector<std::string>>()) {
      request.matches.push_back(watch::parse_match(text));
    }
  }
  request.intake_stamp = intake_stamp(request.matches);
  request.source = watch::parse_inbox_source(vm["source"].as<std::string>());
  if (vm.count("since")) {
    request.since = watch::parse_since(vm["since"].as<std::string>());
  }
  const auto mib = vm["max-fetch-mib"].as<std::uint64_t>();
  if (mib < 1 || mib > (1u << 20)) {
    throw usage_error("--max-fetch-mib must be 1 to 1048576");
  }
  request.max_fetch_bytes = mib << 20;
  request.mode = vm.count("dry-run") ? watch::GateMode::k_dry_run : watch::GateMode::k_gate;
}

// The answer options: where answers go and what they say.
void read_answer_options(const po::variables_map& vm, watch::WatchRequest& request) {
  if (vm.count("sendmail")) {
    request.sendmail = split_words(vm["sendmail"].as<std::string>());
    if (request.sendmail.empty()) {
      throw usage_error("--sendmail '': no command");
    }
  }
  request.from = vm["from"].as<std::string>();
  if (!watch::valid_from(request.from)) {
    throw usage_error("--from '" + request.from + "': not one or more valid mail addresses");
  }
  if (vm.count("report-url")) {
    request.report_url = vm["report-url"].as<std::string>();
    while (!request.report_url.empty() && request.report_url.back() == '/') {
      request.report_url.pop_back();
    }
    if (request.report_url.empty() ||
        request.report_url.find_first_of(" \t\r\n") != std::string::npos) {
      throw usage_error("--report-url '" + vm["report-url"].as<std::string>() + "': not a URL");
    }
  }
}

}  // namespace

int run_watch(Context& context, const std::vector<std::string>& args) {
  po::options_description options = watch_options();
  options.add(base_options());
  options.add(series_input_options());
  po::variables_map vm;
  if (!parse_command_line("watch", "--inbox URL --outbox DIR [--match EXPR] [--once]", args,
                          options, vm, context)) {
    return 0;
  }
  if (!vm.count("inbox")) {
    throw usage_error("kseries watch: give --inbox URL (the public-inbox archive to poll)");
  }
  watch::WatchRequest request;
  read_intake_options(vm, request);
  request.outbox = fs::absolute(vm["outbox"].as<std::string>());
  request.state_dir = state_dir(context, request.inbox_url, request.outbox);
  if (vm.count("status")) {
    watch::print_status(request.state_dir, std::cout);
    return 0;
  }
  request.configs = configs_dir(vm);
  request.testcases = testcases_dir(vm);
  request.matrix_argument = vm["matrix"].as<std::string>();
  // Checked now, as the gate checks it: a typo is refused at start with
  // the matrix's file:line, not mailed to a patch's author as a FAIL.
  request.matrix = gate::load_matrix(request.configs, request.testcases, request.matrix_argument);
  if (request.matrix_argument.find('/') != std::string::npos) {
    request.matrix_argument = fs::absolute(request.matrix_argument).string();
  }
  request.inputs_dir = context.workdir().root() / "inputs";
  read_answer_options(vm, request);
  const std::string accel = vm["accel"].as<std::string>();
  request.accel = parse_accel(accel);
  request.clock = checked_clock(vm["clock"].as<std::string>());
  request.judged_by = KSERIES_GIT_DESCRIBE;
  request.reproduce.accel = accel;
  request.reproduce.clock = request.clock;
  for (const char* option : {"configs", "testcases"}) {
    if (vm.count(option)) {
      request.reproduce.directories.push_back("--" + std::string(option));
      request.reproduce.directories.push_back(fs::absolute(vm[option].as<std::string>()).string());
    }
  }
  if (vm["interval"].as<int>() < 1) {
    throw usage_error("--interval must be at least 1 second");
  }

  // One watcher per state: a second would gate and answer the same revisions.
  const std::string what =
      "kseries watch --inbox " + request.inbox_url + " --outbox " + request.outbox.string();
  std::string holder;
  auto lock = watch::lock_watch_state(request.state_dir, what, holder);
  if (!lock && !vm.count("wait")) {
    throw infra_error("kseries watch: another watcher (" + holder +
                      ") is working on this "
                      "inbox and outbox (state " +
                      request.state_dir.string() +
                      "): not starting a second one, which would gate and answer the same "
                      "revisions (--wait waits for it)");
  }
  if (!lock) {
    progress("watch: waiting for the other watcher (" + holder + ") to finish");
    lock.emplace(FileLock::acquire(request.state_dir / "lock", what));
  }

  kernel::KernelBuilder builder(context.workdir().root(), context.store(), context.runner(),
                                std::max<std::size_t>(1, vm["jobs"].as<std::size_t>()));
  gate::GateServices gate{context.store(), builder, context.runner(), context.workdir().root()};
  StderrStatus status;
  watch::WatchServices services{context.runner(),
                                gate,
                                status,
                                [&](const std::optional<std::string>& base_commit) {
                                  const Base base = resolve_base_for(context, vm, base_commit);
                                  return std::make_pair(base.commit, base.label);
                                },
                                [&](const git_oid& commit) {
                                  return base_arguments(vm, Base{commit, ""});
                                },
                                [&]() { return context.workdir().new_run("watch-gate"); }};
  watch::ServiceOptions service;
  service.repeat =
      vm.count("once") ? watch::PollRepeat::k_once : watch::PollRepeat::k_until_stopped;
  service.interval = std::chrono::seconds(vm["interval"].as<int>());
  watch::serve(request, services, service, std::cout);
  context.finish_runs();
  return 0;
}

}  // namespace kseries::cli
