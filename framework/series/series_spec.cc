#include "series/series_spec.h"

#include <algorithm>
#include <charconv>
#include <filesystem>

#include "core/error.h"

namespace kseries {

namespace {

constexpr std::size_t k_max_spec_bytes = 512;

// A revision git may be given as one argv word: no option, no whitespace, no
// control character, none of git's own range syntax beyond what we split.
void check_revision(const std::string& rev, std::string_view text) {
  if (rev.empty()) {
    throw usage_error("--series '" + std::string(text) + "': a range needs both ends (A..B)");
  }
  if (rev.front() == '-') {
    throw usage_error("--series '" + std::string(text) + "': revision '" + rev +
                      "' starts with '-'");
  }
  if (rev.front() == '.' || rev.find("..") != std::string::npos ||
      rev.find(':') != std::string::npos) {
    throw usage_error("--series '" + std::string(text) + "': revision '" + rev +
                      "' is not one revision (give A..B)");
  }
}

// Whether TEXT (no "..") is git revision syntax that no message-id has:
// "@" alone or before a suffix ("@~2", "@^"), "@{...}" (a reflog entry,
// an upstream), and "^{...}" (a peel: v6.12^{commit}).
bool looks_like_revision(std::string_view text) {
  if (text.find("@{") != std::string_view::npos || text.find("^{") != std::string_view::npos) {
    return true;
  }
  return text == "@" || (text.size() > 1 && text[0] == '@' && (text[1] == '~' || text[1] == '^'));
}

}  // namespace

SeriesSpec parse_series_spec(std::string_view text) {
  if (text.empty()) {
    throw usage_error("--series '': an empty series");
  }
  if (text.size() > k_max_spec_bytes) {
    throw usage_error("--series: longer than " + std::to_string(k_max_spec_bytes) + " bytes");
  }
  SeriesSpec spec;
  spec.text = std::string(text);
  if (std::any_of(text.begin(), text.end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; })) {
    throw usage_error("--series: a control character in it");
  }
  std::error_code error;  // a name too long for the file system is no file either
  if (std::filesystem::exists(std::filesystem::path(spec.text), error)) {
    return spec;
  }
  if (text.find(' ') != std::string_view::npos) {
    throw usage_error("--series: a space in '" + spec.text + "' (and no such file)");
  }
  // Git's revision syntax first: a message-id never holds "..", nor
  // "@{" (base@{0}, main@{upstream}), nor stands for HEAD as "@" does.
  if (const auto dots = text.find(".."); dots != std::string_view::npos) {
    if (text.find("...") != std::string_view::npos) {
      throw usage_error("--series '" + spec.text +
                        "': A...B is a symmetric difference, not a series; give BASE..TOP");
    }
    spec.kind = SeriesSpecKind::k_range;
    spec.bottom = std::string(text.substr(0, dots));
    spec.top = std::string(text.substr(dots + 2));
    check_revision(spec.bottom, text);
    check_revision(spec.top, text);
    return spec;
  }
  if (looks_like_revision(text)) {
    check_revision(spec.text, text);
    spec.kind = SeriesSpecKind::k_branch;
    spec.top = spec.text;
    return spec;
  }
  std::string_view id = text;
  if (const auto hash = id.rfind("#v"); hash != std::string_view::npos && id.find('@') < hash) {
    const std::string_view number = id.substr(hash + 2);
    int revision = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), revision);
    if (number.empty() || ec != std::errc() || end != number.data() + number.size() ||
        revision < 1 || revision > 999) {
      throw usage_error("--series '" + spec.text + "': '#v' takes a revision from 1 to 999");
    }
    spec.revision = revision;
    id = id.substr(0, hash);
  }
  if (id.size() >= 2 && id.front() == '<' && id.back() == '>') {
    id = id.substr(1, id.size() - 2);
  }
  if (const auto at = id.find('@'); at != std::string_view::npos) {
    if (at == 0 || at + 1 == id.size() || id.find('@', at + 1) != std::string_view::npos ||
        id.find_first_of("<>/\\\"") != std::string_view::npos) {
      throw usage_error("--series '" + spec.text + "' is no file and no message-id (local@host)");
    }
    spec.kind = SeriesSpecKind::k_message_id;
    spec.message_id = std::string(id);
    return spec;
  }
  if (text.front() == '/' || text.front() == '.' || text.front() == '~') {
    // "/x", "./x" or "../x" that does not exist: a missing path, not a branch.
    throw usage_error("series not found: " + spec.text);
  }
  check_revision(spec.text, text);
  spec.kind = SeriesSpecKind::k_branch;
  spec.top = spec.text;
  return spec;
}

std::string describe(const SeriesSpec& spec) {
  switch (spec.kind) {
    case SeriesSpecKind::k_path:
      return "format-patch directory or mbox " + spec.text;
    case SeriesSpecKind::k_message_id:
      return "message-id <" + spec.message_id + ">" +
             (spec.revision ? " v" + std::to_string(*spec.revision) : "");
    case SeriesSpecKind::k_range:
      return "range " + spec.bottom + ".." + spec.top;
    case SeriesSpecKind::k_branch:
      break;
  }
  return "branch " + spec.top;
}

}  // namespace kseries
