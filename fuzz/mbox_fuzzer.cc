// Fuzzes the mail reader as `kseries apply` uses it on an mbox from a list:
// split_mbox, parse_patch_mail (headers, RFC 2047, in-body headers, the diff
// scanner, trailers) and the text checks of the diff it cut out. Besides not
// crashing, what reaches a commit object must be clean: no NUL, valid UTF-8,
// no line break in the author or subject, no '<'/'>' in the author.
#include "fuzz_input.h"
#include "series/diff_safety.h"
#include "series/mail_text.h"
#include "series/patch_mail.h"

namespace {

using kseries::fuzz::require;

bool valid_utf8(std::string_view text) { return kseries::to_utf8(text, "utf-8").replaced == 0; }

bool has_any(std::string_view text, std::string_view chars) {
  return text.find_first_of(chars) != std::string_view::npos;
}

void check_commit_fields(const kseries::PatchMail& patch) {
  using namespace std::string_view_literals;
  for (const std::string_view field :
       {std::string_view(patch.author.name), std::string_view(patch.author.email)}) {
    require(valid_utf8(field) && !has_any(field, "\0\n\r<>"sv));
  }
  require(valid_utf8(patch.subject.title) && !has_any(patch.subject.title, "\0\n\r"sv));
  const std::string message = patch.commit_message();
  require(valid_utf8(message) && !has_any(message, "\0"sv));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = kseries::fuzz::text_of(data, size);
  kseries::fuzz::refusal_is_fine([&] {
    for (const auto& message : kseries::split_mbox(text, "fuzz.mbox")) {
      kseries::fuzz::refusal_is_fine([&] {
        const auto patch = kseries::parse_patch_mail(message, "fuzz.mbox");
        check_commit_fields(patch);
        kseries::diff_files(patch.diff);
        kseries::check_diff_safety(patch.diff, "fuzz patch", 1 << 20);
      });
    }
  });
  return 0;
}
