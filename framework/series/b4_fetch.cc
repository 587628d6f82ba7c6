#include "series/b4_fetch.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>

#include "core/error.h"
#include "core/text.h"
#include "series/mail.h"
#include "series/patch_mail.h"
#include "series/revision_identity.h"
#include "sys/files.h"

namespace kseries {

namespace fs = std::filesystem;

namespace {

std::string hex_hash(std::string_view text) {
  // FNV-1a, 64 bits: a directory key, not a security property.
  std::uint64_t hash = 1469598103934665603ull;
  for (const char c : text) {
    hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  }
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (int shift = 60; shift >= 0; shift -= 4) {
    out += digits[(hash >> shift) & 0xf];
  }
  return out;
}

std::string slug(std::string_view title) {
  std::string out;
  for (const char c : title) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
    if (out.size() >= 60) {
      break;
    }
  }
  while (!out.empty() && out.back() == '-') {
    out.pop_back();
  }
  return out.empty() ? "series" : out;
}

// b4's settings as git configuration in the environment (b4 reads them with
// `git config`): where the inbox is, no attestation (a test inbox signs
// nothing), and the identity b4 insists on having.
std::map<std::string, std::string> b4_environment(const B4Request& request, const fs::path& home) {
  const std::string mask = request.inbox_url + (request.inbox_url.back() == '/' ? "%s" : "/%s");
  const std::vector<std::pair<std::string, std::string>> config = {
      {"b4.midmask", mask},
      {"b4.linkmask", mask},
      {"b4.attestation-policy", "off"},
      {"user.name", "kseries"},
      {"user.email", "kseries@invalid"}};
  std::map<std::string, std::string> env = {
      {"HOME", home.string()},
      {"XDG_CONFIG_HOME", (home / ".config").string()},
      {"XDG_CACHE_HOME", (home / ".cache").string()},
      {"GIT_CONFIG_NOSYSTEM", "1"},
      {"GIT_CONFIG_GLOBAL", "/dev/null"},
      {"GIT_CEILING_DIRECTORIES", home.parent_path().string()},
      {"LC_ALL", "C.UTF-8"},
      {"GIT_CONFIG_COUNT", std::to_string(config.size())}};
  for (std::size_t i = 0; i < config.size(); ++i) {
    env["GIT_CONFIG_KEY_" + std::to_string(i)] = config[i].first;
    env["GIT_CONFIG_VALUE_" + std::to_string(i)] = config[i].second;
  }
  return env;
}

void check_size(const fs::path& file) {
  if (fs::exists(file) && fs::file_size(file) > k_max_b4_mbox_bytes) {
    throw usage_error(file.string() + ": b4 wrote more than " +
                      std::to_string(k_max_b4_mbox_bytes >> 20) + " MiB: refused");
  }
}

}  // namespace

B4Series fetch_b4_series(ProcessRunner& runner, const B4Request& request) {
  if (request.inbox_url.empty() || request.inbox_url.size() > 1000 ||
      request.inbox_url.find_first_of(" \n\r\t%") != std::string::npos) {
    throw usage_error("--inbox '" + request.inbox_url + "' is not a URL b4 can use");
  }
  if (!find_program("b4")) {
    throw infra_error("b4 is not installed (apt-get install b4): needed for --series MESSAGE-ID");
  }
  const std::string key =
      hex_hash(request.inbox_url + "\n" + request.message_id + "\n" +
               (request.revision ? std::to_string(*request.revision) : std::string("newest")));
  // b4's own output, its home and the series directory apart: a series
  // name (a change-id from the mail, "b4" or "home" as well) can never be
  // one of the others.
  const fs::path root = request.out_root / ("b4-" + key);
  const fs::path raw = root / "b4";
  const fs::path home = root / "home";
  const fs::path series_root = root / "series";
  // Fetched again every time: a thread gains trailers and revisions.
  fs::remove_all(raw);
  fs::create_directories(raw);
  fs::create_directories(home);
  ProcessSpec spec;
  spec.argv = {"b4", "am", "--no-cache", "-o", raw.string(), "-n", "series"};
  if (request.revision) {
    spec.argv.push_back("-v");
    spec.argv.push_back(std::to_string(*request.revision));
  }
  spec.argv.push_back("--");
  spec.argv.push_back(request.message_id);
  spec.cwd = raw;
  spec.env = b4_environment(request, home);
  spec.timeout = std::chrono::minutes(3);
  const auto result = runner.run(spec);
  B4Series series;
  series.log = result.err;
  const fs::path mbox = raw / "series.mbx";
  const fs::path cover = raw / "series.cover";
  if (!result.ok()) {
    // The inbox unreachable, the thread not there: maybe later (watch
    // tries again), not a verdict on the series.
    throw infra_error("b4 am <" + request.message_id + "> from " + request.inbox_url + ": " +
                      result.describe() + ": " +
                      std::string(trim(result.err + result.out)).substr(0, 600));
  }
  if (!fs::is_regular_file(mbox)) {
    throw usage_error("b4 am <" + request.message_id + "> from " + request.inbox_url + ": " +
                      result.describe() +
                      ", no series: " + std::string(trim(result.err + result.out)).substr(0, 600));
  }
  check_size(mbox);
  check_size(cover);
  // The cover letter (else the first patch) names and numbers the revision.
  const fs::path first = fs::is_regular_file(cover) ? cover : mbox;
  const auto messages = split_mbox(read_file(first), first);
  if (messages.empty()) {
    throw usage_error(first.string() + ": b4 wrote no message");
  }
  const PatchMail head = parse_patch_mail(messages.front(), first);
  series.revision = head.subject.revision;
  const std::string name = head.change_id && valid_change_id(*head.change_id)
                               ? *head.change_id
                               : slug(head.subject.title);
  series.dir = series_root / name / ("v" + std::to_string(series.revision));
  fs::remove_all(series_root);
  fs::create_directories(series.dir);
  std::string listing;
  if (fs::is_regular_file(cover)) {
    fs::copy_file(cover, series.dir / "0000-cover-letter.patch");
    listing += "0000-cover-letter.patch\n";
  }
  fs::copy_file(mbox, series.dir / "0001-series.mbx");
  listing += "0001-series.mbx\n";
  write_file(series.dir / "README", "Fetched with b4 am from " + request.inbox_url +
                                        ", message-id <" + request.message_id + ">.\n");
  write_file(series.dir / "series", listing);
  return series;
}

}  // namespace kseries
