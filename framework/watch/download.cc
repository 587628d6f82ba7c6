#include "watch/download.h"

#include <csignal>

#include "core/error.h"
#include "core/text.h"

namespace kseries::watch {

namespace fs = std::filesystem;

std::string url_path_segment(std::string_view text) {
  static const char* digits = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    const bool plain = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ||
                       c == '-' || c == '.' || c == '_' || c == '~' || c == '@';
    if (plain) {
      out += c;
    } else {
      out += {'%', digits[u >> 4], digits[u & 15]};
    }
  }
  return out;
}

DownloadResult download(ProcessRunner& runner, const DownloadRequest& request) {
  fs::remove(request.file);
  ProcessSpec spec;
  // One byte over the cap is what tells a file of exactly the cap from a
  // bigger one; no core file from the SIGXFSZ.
  spec.argv = {"prlimit",
               "--fsize=" + std::to_string(request.max_bytes + 1),
               "--core=0",
               "--",
               "curl",
               "-sS",
               "-f",
               "--proto",
               "=http,https",
               "--max-time",
               std::to_string(request.timeout.count()),
               "--max-filesize",
               std::to_string(request.max_bytes),
               "-w",
               "%{http_code}",
               "-o",
               request.file.string(),
               "--",
               request.url};
  spec.timeout = request.timeout + std::chrono::seconds(30);
  const auto result = runner.run(spec);
  DownloadResult out;
  const std::string cap = std::to_string(request.max_bytes >> 10) + " KiB";
  const bool too_large =
      (result.end == ProcessEnd::k_signaled && result.signal == SIGXFSZ) ||
      (result.end == ProcessEnd::k_exited && result.exit_code == 63) ||
      (result.ok() && fs::exists(request.file) && fs::file_size(request.file) > request.max_bytes);
  if (too_large) {
    out.outcome = DownloadOutcome::k_too_large;
    out.why = request.url + " is larger than " + cap + ": stopped there";
    return out;
  }
  if (result.end == ProcessEnd::k_interrupted) {
    throw interrupted_error("interrupted while downloading " + request.url);
  }
  if (result.ok()) {
    out.outcome = DownloadOutcome::k_ok;
    return out;
  }
  const std::string code(trim(result.out));
  if (code == "404" || code == "410") {
    out.outcome = DownloadOutcome::k_not_found;
    out.why = request.url + ": HTTP " + code;
    return out;
  }
  out.why = request.url + ": curl " + result.describe() +
            (code.empty() || code == "000" ? "" : ", HTTP " + code) + ": " +
            std::string(trim(result.err)).substr(0, 300);
  return out;
}

}  // namespace kseries::watch
