#include "watch/intake.h"

#include "core/error.h"
#include "core/text.h"

namespace kseries::watch {

namespace {

using Verdict = IntakeDecision::Verdict;

bool is_reply(std::string_view subject) {
  const std::string lower = to_lower(trim(subject).substr(0, 6));
  for (const char* prefix : {"re:", "re ", "aw:", "fwd:", "fw:", "sv:", "antw:"}) {
    if (starts_with(lower, prefix)) {
      return true;
    }
  }
  return false;
}

// The leading [..] groups of a subject name a patch ("[PATCH v2]",
// "[ndctl PATCH]", "[RFC PATCH 0/3]").
bool has_patch_prefix(std::string_view subject) {
  std::string_view rest = trim(subject);
  while (!rest.empty() && rest.front() == '[') {
    const auto close = rest.find(']');
    if (close == std::string_view::npos) {
      return false;
    }
    if (to_lower(rest.substr(0, close)).find("patch") != std::string::npos) {
      return true;
    }
    rest = trim(rest.substr(close + 1));
  }
  return false;
}

IntakeDecision skip(std::string category, std::string why) {
  IntakeDecision d;
  d.category = std::move(category);
  d.why = std::move(why);
  return d;
}

// A patch 1/N: the first of a series without a cover letter, unless it
// answers the cover letter of its own revision.
IntakeDecision first_patch(const ArchiveMessage& m, const Subject& subject,
                           const KnownLookup& known) {
  if (!m.in_reply_to.empty()) {
    const auto parent = known(m.in_reply_to);
    if (parent && parent->kind == StartKind::k_cover && parent->revision == subject.revision &&
        parent->total == subject.total) {
      return skip("later patches of a series", "patch 1/" + std::to_string(subject.total) +
                                                   " under its cover letter <" + m.in_reply_to +
                                                   ">");
    }
  }
  IntakeDecision d;
  d.verdict = Verdict::k_revision;
  d.kind = StartKind::k_first_patch;
  d.subject = subject;
  d.why = m.in_reply_to.empty()
              ? "a series without a cover letter: its first patch stands for it"
              : "a series without a cover letter of its own (patch 1 answers <" + m.in_reply_to +
                    ">, no cover letter of this revision): its first patch stands for it";
  return d;
}

// A patch alone: a revision, unless it answers a revision already seen
// without a newer vN (a fixup or a proposal in that series' review).
IntakeDecision single_patch(const ArchiveMessage& m, const Subject& subject,
                            const KnownLookup& known) {
  for (const auto& id : m.references) {
    const auto above = known(id);
    if (above && subject.revision <= above->revision) {
      IntakeDecision d;
      d.verdict = Verdict::k_not_taken;
      d.kind = StartKind::k_single;
      d.subject = subject;
      d.why = "not a new revision: a patch posted in the thread of <" + id + "> (v" +
              std::to_string(above->revision) + ") without a newer vN and without 'Re:' " +
              "(a fixup or a proposal in its review)";
      return d;
    }
  }
  IntakeDecision d;
  d.verdict = Verdict::k_revision;
  d.kind = StartKind::k_single;
  d.subject = subject;
  return d;
}

}  // namespace

IntakeDecision classify_message(const ArchiveMessage& m, const KnownLookup& known) {
  if (m.message_id.empty()) {
    return skip("without a usable message-id", "no usable Message-ID");
  }
  if (is_reply(m.subject)) {
    return skip("replies", "a reply");
  }
  if (!has_patch_prefix(m.subject)) {
    return skip("not patches", "not a patch");
  }
  Subject subject;
  try {
    subject = parse_subject(m.subject, "<" + m.message_id + ">");
  } catch (const Error& e) {
    return skip("with a prefix out of range",
                e.what());  // a prefix out of range: not a series we can take
  }
  if (!subject.numbered) {
    return single_patch(m, subject, known);
  }
  if (subject.index == 0) {
    IntakeDecision d;
    d.verdict = Verdict::k_revision;
    d.kind = StartKind::k_cover;
    d.subject = subject;
    return d;
  }
  if (subject.index == 1) {
    return first_patch(m, subject, known);
  }
  return skip("later patches of a series", "patch " + std::to_string(subject.index) + "/" +
                                               std::to_string(subject.total) + " of a series");
}

}  // namespace kseries::watch
