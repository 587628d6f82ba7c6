// kseries watch: a thin driver over watch/watcher.h. Polls the inbox (once
// with --once), gates each new revision against the previous one of its
// series, writes each answer to --outbox (and --sendmail).
#include <chrono>
#include <iostream>
#include <thread>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/series_input.h"
#include "core/error.h"
#include "core/text.h"
#include "sys/interrupt.h"
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

}  // namespace

int run_watch(Context& context, const std::vector<std::string>& args) {
  po::options_description options("kseries watch options");
  options.add_options()("match", po::value<std::vector<std::string>>()->composing(),
                        "subject:TEXT, file:PATH or change-id:ID[,ID]: gate only what matches "
                        "(repeat: any)")(
      "matrix", po::value<std::string>()->default_value("quick"),
      "the gate's matrix (kernel-configs/matrices/ name or file)")(
      "outbox", po::value<std::string>()->required(), "directory the answer mails go to")(
      "once", "poll once and exit (else every --interval seconds until interrupted)")(
      "interval", po::value<int>()->default_value(300), "seconds between polls")(
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
  request.inbox_url = vm["inbox"].as<std::string>();
  while (!request.inbox_url.empty() && request.inbox_url.back() == '/') {
    request.inbox_url.pop_back();
  }
  if (vm.count("match")) {
    for (const auto& text : vm["match"].as<std::vector<std::string>>()) {
      request.matches.push_back(watch::parse_match(text));
    }
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
  request.outbox = fs::absolute(vm["outbox"].as<std::string>());
  request.state_dir = state_dir(context, request.inbox_url, request.outbox);
  request.inputs_dir = context.workdir().root() / "inputs";
  if (vm.count("sendmail")) {
    request.sendmail = split_words(vm["sendmail"].as<std::string>());
    if (request.sendmail.empty()) {
      throw usage_error("--sendmail '': no command");
    }
  }
  request.from = vm["from"].as<std::string>();
  const std::string accel = vm["accel"].as<std::string>();
  request.accel = parse_accel(accel);
  request.clock = checked_clock(vm["clock"].as<std::string>());
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
  while (true) {
    const auto summary = watch::poll_once(request, services);
    for (const auto& line : summary.lines) {
      std::cout << line << "\n";
    }
    std::cout << "watch: " << summary.new_revisions << " new revision(s), " << summary.answered
              << " answer(s) written to " << request.outbox.string() << "\n"
              << std::flush;
    if (vm.count("once")) {
      break;
    }
    for (int i = 0; i < vm["interval"].as<int>() * 10; ++i) {
      throw_if_interrupted("waiting for the next poll of " + request.inbox_url);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  context.finish_runs();
  return 0;
}

}  // namespace kseries::cli
