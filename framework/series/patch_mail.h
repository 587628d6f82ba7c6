#pragma once
// One patch e-mail understood: author, date, subject, commit message, the
// `diff --git` part, and the trailers format-patch writes after the diff.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "series/mail.h"
#include "series/subject.h"

namespace kseries {

struct PatchMail {
  std::filesystem::path file;
  int line = 1;       // where the message starts in `file`
  int diff_line = 0;  // where its diff starts (0: no diff)
  Person author;
  MailTime date;
  std::string raw_subject;  // 2047-decoded, unfolded
  Subject subject;
  std::string body;  // commit message body below the subject line, trimmed
  std::string diff;  // from the first "diff --git" to the signature
  std::optional<std::string> base_commit;
  std::vector<std::string> prerequisite_patch_ids;
  // b4's `change-id:` trailer (a cover letter's, after base-commit:): the
  // series' identity across revisions.
  std::optional<std::string> change_id;
  // Its Message-ID (without <>), the ids it replies to (In-Reply-To, then
  // References from the nearest), and the message-ids its body links
  // ("https://lore.kernel.org/all/<id>/", "https://patch.msgid.link/<id>"):
  // how a revision names the one before it.
  std::string message_id;
  std::vector<std::string> replies_to;
  std::vector<std::string> linked_ids;
  // "file:line: ..." notes from cleaning the text (bytes that were not UTF-8).
  std::vector<std::string> notes;

  // "file:line" for messages.
  std::string where() const;
  // The commit message as `git am` would write it.
  std::string commit_message() const;
};

// A line of the message outside the diff (commit message, in-body headers,
// notes, trailers) longer than this is refused; the diff is bounded as a
// whole by --max-patch-bytes instead.
inline constexpr std::size_t k_max_message_line_bytes = 64 * 1024;

// Throws Error(k_usage) naming the file and line when From:, Date: or
// Subject: is missing or unreadable, or a line outside the diff is longer
// than k_max_message_line_bytes. The author, subject and message pass
// through commit_text() (series/mail_text.h): forged header text is refused,
// bad bytes are cleaned with a note. A message without a diff is returned
// with an empty `diff` (the caller decides whether that is a cover letter).
PatchMail parse_patch_mail(const MailMessage& message, const std::filesystem::path& file);

}  // namespace kseries
