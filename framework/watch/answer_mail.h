#pragma once
// The watch's answer to a series revision, as an RFC 5322 mail in the
// plain-text form kernel developers read from the 0-day bot: a reply to the
// cover letter (In-Reply-To/References), To the author, Cc the list,
// "Re: <the cover's subject>". The body: findings first (a revision slower
// than its predecessor), what was tested on which base and configs, the
// verdict, each failing cell with its first lines of evidence, the revision
// comparison and timing table, a "reproduce:" block of exact commands, the
// run directory.

#include <string>
#include <vector>

namespace kseries::watch {

struct AnswerFacts {
  std::string from = "kseries <kseries@invalid>";
  std::string to_name;
  std::string to_email;
  std::string cc;                     // the list's address
  std::string subject;                // the cover letter's subject
  std::string in_reply_to;            // its message-id, no brackets
  std::string message_id;             // the answer's own, no brackets
  std::string date;                   // RFC 5322 date
  std::string identity;               // "change-id X v2"
  std::string tested;                 // "2 patches on base <sha> (<label>), matrix toy: cells ..."
  std::string verdict;                // "PASS", "FAIL", "PASS, warning: ..."
  std::vector<std::string> warnings;  // first in the body
  std::vector<std::string> failing_cells;  // "cell: summary\n  evidence..."
  std::string comparison;                  // render_comparison() of it against the previous
  std::vector<std::string> reproduce;      // one command a line
  std::string run_dir;
};

// Header values are cleaned (one line, no control characters, bounded);
// a non-ASCII display name is RFC 2047-encoded.
std::string compose_answer(const AnswerFacts& facts);

// "Wed, 02 Dec 2026 07:00:00 +0000" for now.
std::string mail_date_now();

}  // namespace kseries::watch
