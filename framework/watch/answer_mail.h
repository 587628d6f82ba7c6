#pragma once
// The watch's answer to a series revision, as an RFC 5322 mail in the
// plain-text form kernel developers read from the 0-day bot: a reply to the
// revision's first message (In-Reply-To, References: its thread), To the
// author, Cc the list, "Re: <its subject>". The body: findings first (a
// revision slower than its predecessor), what was tested on which base and
// configs, the verdict, each failing cell with its first lines of evidence,
// the revision comparison and timing table, a "reproduce:" block of exact
// commands, and the run by its ID or URL (never a path of this machine).
// The headers are written by GMime: encoded words for non-ASCII names and
// subjects, quoting of specials in names, folding.

#include <string>
#include <vector>

namespace kseries::watch {

struct AnswerFacts {
  std::string from = "kseries <kseries@invalid>";  // an address list as --from gives it
  std::string to_name;
  std::string to_email;
  std::string cc;                       // the list's address
  std::string subject;                  // the revision's subject
  std::string in_reply_to;              // its message-id, no brackets
  std::vector<std::string> references;  // its thread above it, oldest first
  std::string message_id;               // the answer's own, no brackets
  std::string date;                     // RFC 5322 date
  std::string identity;                 // "change-id X v2"
  std::string tested;                 // "2 patches on base <sha> (<label>), matrix toy: cells ..."
  std::string verdict;                // "PASS", "FAIL", "PASS, warning: ..."
  std::vector<std::string> warnings;  // first in the body
  std::vector<std::string> failing_cells;    // "cell: summary\n  evidence..."
  std::string comparison;                    // render_comparison() of it against the previous
  std::vector<std::string> reproduce;        // one command a line
  std::vector<std::string> reproduce_notes;  // what the commands' placeholders mean
  std::string run;                           // the run's ID ("<id>/") or URL
  bool run_is_url = false;
};

// Header values are cleaned (one line, valid UTF-8, bounded without cutting
// a character); an address that is not one valid mailbox is left out (and
// the body says so) rather than written as another address.
std::string compose_answer(const AnswerFacts& facts);

// "Wed, 02 Dec 2026 07:00:00 +0000" for now.
std::string mail_date_now();

// EMAIL is one plain addr-spec ("local@domain", printable ASCII, no
// specials a header would read as a second address or a display name).
bool valid_mailbox(const std::string& email);

// Whether TEXT (--from) is one or more valid mailboxes, as GMime reads it.
bool valid_from(const std::string& text);

}  // namespace kseries::watch
