#include "guest/protocol_log.h"

#include <cstdint>
#include <string>
#include <string_view>

#include "core/utf8.h"
#include "sys/file_streams.h"

namespace kseries::guest {

ProtocolLog read_protocol_log(const std::filesystem::path& path, std::size_t head_bytes) {
  ProtocolLog log;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return log;
  }
  bool truncated = false;
  const std::string head = read_file_head(path, head_bytes, truncated);
  std::string_view text = head;
  if (truncated) {
    // The head ends mid-line and the tail starts mid-line: each partial
    // line is left out (a line cut short could read as another event).
    log.flooded = true;
    text = text.substr(0, text.rfind('\n') == std::string_view::npos ? 0 : text.rfind('\n') + 1);
  }
  log.events = parse_protocol(printable_text(text));
  if (!truncated) {
    return log;
  }
  // The tail's whole lines past the head (a log just over the head shares
  // lines with it: those are in already).
  const std::string tail = read_file_tail(path, k_protocol_tail_bytes);
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  const std::uintmax_t tail_start = ec || size < tail.size() ? 0 : size - tail.size();
  std::size_t pos = tail.find('\n');
  while (pos != std::string::npos && pos + 1 < tail.size()) {
    const std::size_t begin = pos + 1;
    pos = tail.find('\n', begin);
    const std::size_t end = pos == std::string::npos ? tail.size() : pos;
    if (tail_start + begin < text.size()) {
      continue;
    }
    for (auto& event :
         parse_protocol(printable_text(std::string_view(tail).substr(begin, end - begin)))) {
      if (event.verb == "poweroff" || event.verb == "guest-error") {
        event.line = 0;
        log.events.push_back(std::move(event));
      }
    }
  }
  return log;
}

}  // namespace kseries::guest
