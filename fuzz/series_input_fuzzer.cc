// Fuzzes what decides where a series comes from and where its patches may
// write: a --series argument (parse_series_spec: git revision syntax is
// never a message-id sent to an inbox) and the paths a diff names
// (tree_path_problem / is_dotgit_name: .git as HFS+ and NTFS see it, by
// git's own rules).
#include <string>

#include "core/tree_path.h"
#include "fuzz_input.h"
#include "series/series_spec.h"

namespace {

bool has(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

void check_spec(std::string_view text) {
  kseries::fuzz::refusal_is_fine([&] {
    const auto spec = kseries::parse_series_spec(text);
    using kseries::SeriesSpecKind;
    kseries::fuzz::require(spec.text == text);
    if (spec.kind == SeriesSpecKind::k_message_id) {
      // Never a range, a reflog entry or a peel: those name the --tree.
      kseries::fuzz::require(!has(text, "..") && !has(text, "@{") && !has(text, "^{"));
      kseries::fuzz::require(!spec.message_id.empty() && has(spec.message_id, "@"));
    }
    if (spec.kind == SeriesSpecKind::k_range) {
      kseries::fuzz::require(!spec.bottom.empty() && !spec.top.empty());
      kseries::fuzz::require(spec.bottom.front() != '-' && spec.top.front() != '-');
      kseries::fuzz::require(!has(spec.bottom, "..") && !has(spec.top, ".."));
    }
    if (spec.kind != SeriesSpecKind::k_path) {
      for (const char c : text) {
        kseries::fuzz::require(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f);
      }
    }
  });
}

void check_path(std::string_view text) {
  const std::string problem = kseries::tree_path_problem(text);
  if (!problem.empty()) {
    return;
  }
  // What passes has no component git would refuse.
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = std::min(text.find('/', begin), text.size());
    const std::string_view part = text.substr(begin, end - begin);
    kseries::fuzz::require(!part.empty() && part != "." && part != "..");
    kseries::fuzz::require(!kseries::is_dotgit_name(part));
    if (end == text.size()) {
      break;
    }
    begin = end + 1;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = kseries::fuzz::text_of(data, size);
  check_spec(text.substr(0, std::min<std::size_t>(text.size(), 600)));
  check_path(text);
  // .git with a code point HFS+ ignores anywhere in it is still .git.
  if (!text.empty()) {
    std::string hidden = ".git";
    hidden.insert(static_cast<std::size_t>(text[0]) % 5, "\xe2\x80\x8d");
    kseries::fuzz::require(kseries::is_dotgit_name(hidden));
    kseries::fuzz::require(!kseries::tree_path_problem("a/" + hidden + "/b").empty());
  }
  return 0;
}
