#pragma once
// HTTP(S) downloads of what an inbox serves (its feed, its manifest, a
// message), capped while they stream: curl runs under `prlimit --fsize`, so
// the kernel stops it (SIGXFSZ) the moment the file passes the cap, whether
// or not the server said how long it would be (public-inbox streams its feed
// chunked, which curl's own --max-filesize cannot check).

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>

#include "sys/process.h"

namespace kseries::watch {

enum class DownloadOutcome {
  k_ok,
  k_not_found,  // the server answered, 404 or 410: it has no such file
  k_too_large,  // more than the cap: stopped there
  k_failed,     // the server unreachable, another HTTP error, a timeout
};

struct DownloadResult {
  DownloadOutcome outcome = DownloadOutcome::k_failed;
  std::string why;  // for k_failed and k_too_large: what happened
};

struct DownloadRequest {
  std::string url;
  std::filesystem::path file;  // written (replaced); partial when not k_ok
  std::uintmax_t max_bytes = 4u << 20;
  std::chrono::seconds timeout{60};
};

DownloadResult download(ProcessRunner& runner, const DownloadRequest& request);

// The URL form of a message-id (RFC 3986 path segment: anything but
// unreserved characters and '@' percent-encoded, as public-inbox links it).
std::string url_path_segment(std::string_view text);

}  // namespace kseries::watch
