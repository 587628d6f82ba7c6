#include "guest/triage.h"

#include <cctype>
#include <initializer_list>

#include "core/text.h"
#include "core/utf8.h"

namespace kseries::guest {

namespace {

constexpr std::size_t k_max_excerpt_lines = 60;

std::string_view strip_timestamp(std::string_view line) {
  // "[    1.234567] " (printk time) and "<4>" levels.
  if (!line.empty() && line.front() == '[') {
    const auto close = line.find("] ");
    if (close != std::string_view::npos && close < 20) {
      line.remove_prefix(close + 2);
    }
  }
  return line;
}

// `text` has `needle` at or after `from`, with no line terminator between
// (what ".*" before it matched under std::regex).
bool has_later(std::string_view text, std::size_t from, std::string_view needle) {
  const auto at = text.find(needle, from);
  return at != std::string_view::npos &&
         text.substr(from, at - from).find_first_of("\r\n") == std::string_view::npos;
}

bool has_any_prefix(std::string_view text, std::initializer_list<std::string_view> prefixes) {
  for (const auto prefix : prefixes) {
    if (starts_with(text, prefix)) {
      return true;
    }
  }
  return false;
}

// "<prefix>\S+ (self-)?detected stall"
bool stall_after(std::string_view text, std::string_view prefix) {
  if (!starts_with(text, prefix)) {
    return false;
  }
  std::size_t pos = prefix.size();
  const std::size_t word = pos;
  while (pos < text.size() && !std::isspace(static_cast<unsigned char>(text[pos]))) {
    ++pos;
  }
  if (pos == word || pos >= text.size() || text[pos] != ' ') {
    return false;
  }
  std::string_view rest = text.substr(pos + 1);
  if (starts_with(rest, "self-detected stall")) {
    return true;
  }
  return starts_with(rest, "detected stall");
}

struct Rule {
  FindingKind kind;
  bool (*matches)(std::string_view line);
};

// Plain prefix tests, no std::regex: a console line is written by the guest
// and may be of any length (libstdc++'s regex recursed per character of
// ".*" and overflowed the stack on a long one).
const std::vector<Rule>& rules() {
  // Order matters: the first rule that matches a line classifies it.
  static const std::vector<Rule> table = {
      {FindingKind::k_kasan, [](std::string_view t) { return starts_with(t, "BUG: KASAN: "); }},
      {FindingKind::k_kmsan, [](std::string_view t) { return starts_with(t, "BUG: KMSAN: "); }},
      {FindingKind::k_ubsan, [](std::string_view t) { return starts_with(t, "UBSAN: "); }},
      {FindingKind::k_soft_lockup,
       [](std::string_view t) { return starts_with(t, "watchdog: BUG: soft lockup"); }},
      {FindingKind::k_rcu_stall,
       [](std::string_view t) {
         return stall_after(t, "rcu: INFO: ") || stall_after(t, "INFO: rcu_");
       }},
      {FindingKind::k_hung_task,
       [](std::string_view t) {
         return starts_with(t, "INFO: task ") && has_later(t, 11, "blocked for more than");
       }},
      {FindingKind::k_panic,
       [](std::string_view t) { return starts_with(t, "Kernel panic - not syncing"); }},
      {FindingKind::k_oops,
       [](std::string_view t) {
         return has_any_prefix(t, {"Oops: ", "general protection fault", "BUG: unable to handle",
                                   "BUG: kernel NULL pointer dereference"});
       }},
      {FindingKind::k_bug,
       [](std::string_view t) {
         // DEBUG_VM's VM_BUG_ON_PAGE() dumps the page and says why before
         // its "kernel BUG at": the why names the check (PagePoisoned).
         // The mm selftests' gup_test dumps pages on purpose (its
         // DUMP_USER_PAGES_TEST, reason "gup_test: dump_pages() test"):
         // that dump is the test's output, not a bug.
         return has_any_prefix(t, {"kernel BUG at ", "BUG: "}) ||
                (starts_with(t, "page dumped because: ") &&
                 !starts_with(t, "page dumped because: gup_test: "));
       }},
      // "WARNING: CPU: N PID: N at " is one case of "WARNING: .* at ".
      {FindingKind::k_warning,
       [](std::string_view t) { return starts_with(t, "WARNING: ") && has_later(t, 9, " at "); }},
  };
  return table;
}

bool ends_report(std::string_view line) {
  return line.find("---[ end trace") != std::string_view::npos ||
         line.find("---[ end Kernel panic") != std::string_view::npos ||
         starts_with(line, "=========================================================");
}

}  // namespace

const char* to_string(FindingKind kind) {
  switch (kind) {
    case FindingKind::k_panic:
      return "panic";
    case FindingKind::k_oops:
      return "oops";
    case FindingKind::k_bug:
      return "bug";
    case FindingKind::k_warning:
      return "warning";
    case FindingKind::k_kasan:
      return "kasan";
    case FindingKind::k_kmsan:
      return "kmsan";
    case FindingKind::k_ubsan:
      return "ubsan";
    case FindingKind::k_rcu_stall:
      return "rcu-stall";
    case FindingKind::k_hung_task:
      return "hung-task";
    case FindingKind::k_soft_lockup:
      return "soft-lockup";
    case FindingKind::k_boot_timeout:
      return "boot-timeout";
    case FindingKind::k_qemu_crash:
      return "qemu-crash";
    case FindingKind::k_no_poweroff:
      return "no-poweroff";
  }
  return "unknown";
}

std::vector<Finding> triage_console(std::string_view console) {
  const auto lines = split_lines(console);
  std::vector<Finding> findings;
  // Before the kernel starts /init, a splat is the boot's own (a boot-time
  // init that read what it should not: attributed to "boot").
  std::string during = "boot";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string text(strip_timestamp(lines[i]));
    if (text.starts_with("Run /init as init process")) {
      during.clear();
      continue;
    }
    // Guest scripts mark their steps in the kernel log (memmap-state: before
    // each bind, unbind and reconfiguration), so a splat names its step.
    constexpr std::string_view k_step = "kseries-step: ";
    if (const auto at = text.find(k_step); at != std::string::npos) {
      during = printable_text(std::string_view(text).substr(at + k_step.size(), 120));
      continue;
    }
    for (const auto& rule : rules()) {
      if (!rule.matches(text)) {
        continue;
      }
      Finding finding;
      finding.kind = rule.kind;
      finding.line = static_cast<int>(i + 1);
      finding.title = text;
      finding.during = during;
      // A panic that follows an oops belongs to the same report but is
      // still its own finding: CI wants both the cause and the outcome.
      std::size_t end = i;
      for (; end < lines.size() && end - i < k_max_excerpt_lines; ++end) {
        finding.excerpt += std::string(lines[end]) + "\n";
        if (end > i && ends_report(strip_timestamp(lines[end]))) {
          break;
        }
      }
      findings.push_back(std::move(finding));
      break;
    }
  }
  return findings;
}

std::vector<Finding> triage_boot(std::string_view console, BootEnd end,
                                 const std::string& qemu_detail) {
  auto findings = triage_console(console);
  const auto lines = split_lines(console);
  std::string tail;
  for (std::size_t i = lines.size() > 20 ? lines.size() - 20 : 0; i < lines.size(); ++i) {
    tail += std::string(lines[i]) + "\n";
  }
  if (end == BootEnd::k_timed_out) {
    findings.push_back(
        {FindingKind::k_boot_timeout, 0,
         "the guest did not finish before its deadline (" + qemu_detail + "); QEMU was killed",
         tail});
  } else if (end == BootEnd::k_qemu_failed) {
    bool panicked = false;
    for (const auto& finding : findings) {
      panicked = panicked || finding.kind == FindingKind::k_panic;
    }
    if (!panicked) {
      findings.push_back({FindingKind::k_qemu_crash, 0,
                          "QEMU ended without the guest powering off (" + qemu_detail + ")", tail});
    }
  }
  return findings;
}

}  // namespace kseries::guest
