#include "series/series.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "core/config_lines.h"
#include "core/error.h"
#include "core/text.h"
#include "series/diff_safety.h"
#include "series/series_file.h"
#include "sys/files.h"

namespace kseries {
namespace {

namespace fs = std::filesystem;

// A reply (or a forward) to a message of the thread, known by its subject
// alone: recognised before its body is read, so that nothing a reply holds
// (a pasted diff, a MIME signature, a bot's report) can sink the series.
bool is_reply(const MailMessage& message) {
  const std::string decoded = message.subject();
  std::string_view subject = trim(decoded);
  std::string word;
  while (!subject.empty() && word.size() < 8 && subject.front() != ':' && subject.front() != ' ') {
    word += static_cast<char>(std::tolower(static_cast<unsigned char>(subject.front())));
    subject.remove_prefix(1);
  }
  subject = trim(subject);
  if (subject.empty() || subject.front() != ':') {
    return false;
  }
  static const std::set<std::string> k_prefixes = {"re", "aw", "sv", "antw", "odp", "fw", "fwd"};
  return k_prefixes.count(word) > 0;
}

// What the headers of a message that is not a reply say: enough to choose
// the revision before any body is read.
struct Envelope {
  const MailMessage* message = nullptr;
  fs::path file;
  Subject subject;
  std::string message_id;
  std::string replies_to;  // In-Reply-To, "" none
};

Envelope envelope(const MailMessage& message, const fs::path& file) {
  Envelope e{&message, file, {}, {}, {}};
  e.subject =
      parse_subject(message.subject(), file.string() + ":" + std::to_string(message.first_line));
  const auto own = message_ids(message.header("Message-ID").value_or(""));
  e.message_id = own.empty() ? "" : own.front();
  const auto parent = message_ids(message.header("In-Reply-To").value_or(""));
  e.replies_to = parent.empty() ? "" : parent.front();
  return e;
}

// A message without vN takes the revision the others give: the revision of
// the cover letter it replies to, else the one revision every versioned
// message says (a "v7" cover over "[PATCH n/7]" patches, a "[PATCH] title"
// cover b4 saved over "[PATCH v11 n/31]"). Not a message that a newer
// revision's cover or single patch answers ("[PATCH v2]" posted in reply to
// "[PATCH]"): it is v1, and so are the patches that reply to it.
void inherit_revisions(std::vector<Envelope>& mails) {
  std::set<int> said;
  std::set<std::string> answered;  // by a versioned cover or single patch
  for (const auto& mail : mails) {
    if (mail.subject.explicit_revision) {
      said.insert(mail.subject.revision);
      if ((mail.subject.is_cover() || !mail.subject.numbered) && !mail.replies_to.empty()) {
        answered.insert(mail.replies_to);
      }
    }
  }
  // By message-id: files of a series directory have none, and are no
  // cover's (an empty id matched every one of them, so none inherited).
  std::map<std::string, const Envelope*> covers;
  for (const auto& mail : mails) {
    if (!mail.message_id.empty() &&
        ((mail.subject.explicit_revision && mail.subject.is_cover()) ||
         (!mail.subject.explicit_revision && answered.count(mail.message_id)))) {
      covers[mail.message_id] = &mail;
    }
  }
  for (auto& mail : mails) {
    if (mail.subject.explicit_revision ||
        (!mail.message_id.empty() && covers.count(mail.message_id))) {
      continue;
    }
    if (const auto cover = covers.find(mail.replies_to);
        !mail.replies_to.empty() && cover != covers.end()) {
      mail.subject.revision = cover->second->subject.revision;
    } else if (said.size() == 1) {
      mail.subject.revision = *said.begin();
    }
  }
}

// An mbox that is a thread (lore's t.mbox) may hold several revisions, v7
// posted in reply to v6: the newest is the series, as b4 am takes it.
void keep_newest_revision(std::vector<Envelope>& mails, std::vector<std::string>& notes) {
  std::set<int> revisions;
  for (const auto& mail : mails) {
    revisions.insert(mail.subject.revision);
  }
  if (revisions.size() <= 1) {
    return;
  }
  const int newest = *revisions.rbegin();
  const size_t before = mails.size();
  mails.erase(std::remove_if(mails.begin(), mails.end(),
                             [newest](const Envelope& m) { return m.subject.revision != newest; }),
              mails.end());
  std::string older;
  for (const int revision : revisions) {
    older += revision == newest ? "" : (older.empty() ? "v" : ", v") + std::to_string(revision);
  }
  notes.push_back("the mbox holds several revisions: took v" + std::to_string(newest) +
                  ", the newest, and left " + std::to_string(before - mails.size()) +
                  " message(s) of " + older);
}

std::vector<fs::path> read_depends(const fs::path& dir) {
  std::vector<fs::path> depends;
  const fs::path depends_file = dir / "depends";
  if (!fs::exists(depends_file)) {
    return depends;
  }
  for (const auto& line : content_lines(read_file(depends_file))) {
    const fs::path target = fs::weakly_canonical(dir / line.text);
    if (!fs::exists(target)) {
      throw usage_error(depends_file.string() + ":" + std::to_string(line.number) +
                        ": prerequisite series '" + line.text + "' does not exist (" +
                        target.string() + ")");
    }
    depends.push_back(target);
  }
  return depends;
}

std::string series_name(const fs::path& source) {
  if (fs::is_directory(source)) {
    const auto dir = fs::weakly_canonical(source);
    const std::string leaf = dir.filename().string();
    const bool revision_dir = leaf.size() > 1 && (leaf[0] == 'v' || leaf[0] == 'V') &&
                              std::all_of(leaf.begin() + 1, leaf.end(), ::isdigit);
    return revision_dir ? dir.parent_path().filename().string() + "/" + leaf : leaf;
  }
  return source.stem().string();
}

// Whether PATCH is another revision's, referenced by a directory series'
// `series` file (OWN_DIR: that directory; empty for an mbox).
bool referenced(const PatchMail& patch, const fs::path& own_dir) {
  return !own_dir.empty() && fs::weakly_canonical(patch.file).parent_path() != own_dir;
}

// A derived series may put patches of its own on top of another revision's
// (known-bad/sanitizer-ignore: v10's 1/8..8/8, then its own 9/9): the
// referenced patches keep their revision's total, which must then be smaller
// than the series, and sit at their own positions; the series' own patches
// carry the series' total.
void check_numbering(const std::vector<PatchMail>& patches, const fs::path& own_dir) {
  const bool any_numbered = std::any_of(patches.begin(), patches.end(),
                                        [](const PatchMail& p) { return p.subject.numbered; });
  if (!any_numbered) {
    return;
  }
  const int total = referenced(patches.front(), own_dir) ? static_cast<int>(patches.size())
                                                         : patches.front().subject.total;
  std::map<int, const PatchMail*> seen;
  for (const auto& patch : patches) {
    if (!patch.subject.numbered) {
      throw usage_error(patch.where() + ": '" + patch.raw_subject +
                        "' has no m/n number while the rest of the series does");
    }
    const bool extended = referenced(patch, own_dir) && patch.subject.total < total &&
                          patch.subject.index == static_cast<int>(seen.size()) + 1;
    if (patch.subject.total != total && !extended) {
      throw usage_error(patch.where() + ": '" + patch.raw_subject + "' says the series has " +
                        std::to_string(patch.subject.total) + " patches; " +
                        patches.front().where() + " says " + std::to_string(total) +
                        (referenced(patch, own_dir) ? ""
                                                    : " (only another revision's patches, "
                                                      "referenced in order before the "
                                                      "series' own, may say fewer)"));
    }
    if (patch.subject.index < 1 || patch.subject.index > total) {
      throw usage_error(patch.where() + ": '" + patch.raw_subject + "' is numbered " +
                        std::to_string(patch.subject.index) + "/" + std::to_string(total));
    }
    if (auto it = seen.find(patch.subject.index); it != seen.end()) {
      // One mbox holding a patch twice: a thread mbox (lore's t.mbox)
      // joins postings of a series that no [PATCH vN] tells apart.
      const bool one_mbox = patch.file == it->second->file;
      throw usage_error(patch.where() + ": duplicate patch " + std::to_string(patch.subject.index) +
                        "/" + std::to_string(total) + " (also at " + it->second->where() + ")" +
                        (one_mbox ? ": the mbox holds the series more than once without a "
                                    "[PATCH vN] to tell the postings apart (a thread mbox can "
                                    "join them); give the posting's message-id instead "
                                    "(--series MESSAGE-ID --inbox URL: b4 takes that posting)"
                                  : ""));
    }
    seen[patch.subject.index] = &patch;
  }
  for (int index = 1; index <= total; ++index) {
    if (!seen.count(index)) {
      throw usage_error(patches.front().file.string() + ": patch " + std::to_string(index) + "/" +
                        std::to_string(total) + " is missing from the series (gap after " +
                        (index > 1 && seen.count(index - 1) ? seen[index - 1]->where()
                                                            : std::string("the start")) +
                        ")");
    }
  }
}

}  // namespace

std::string Series::label(std::size_t index) const {
  const auto& patch = patches.at(index);
  return "patch " + std::to_string(index + 1) + "/" + std::to_string(patches.size()) + " '" +
         patch.subject.title + "' (" + patch.where() + ")";
}

namespace {

// The messages of SOURCE's files as patch mails, replies set aside by their
// headers before any body is read; with one mbox, only its newest revision.
struct ReadMails {
  std::vector<PatchMail> mails;
  std::size_t replies = 0;
  bool threaded = false;  // some message replies to another (a saved thread)
};

ReadMails read_mails(const std::vector<ListedPatch>& files, bool one_mbox,
                     std::vector<std::string>& notes) {
  ReadMails read;
  std::vector<std::pair<MailMessage, fs::path>> messages;
  for (const auto& listed : files) {
    // A pipe too: `--series <(b4 am -o - ...)`; never a device (/dev/zero).
    const std::string text = read_file(listed.file, k_max_input_bytes, InputKind::k_file_or_pipe);
    for (auto& message : split_mbox(text, listed.file)) {
      read.threaded = read.threaded || message.header("In-Reply-To").has_value();
      if (is_reply(message)) {
        ++read.replies;
      } else {
        messages.emplace_back(std::move(message), listed.file);
      }
    }
  }
  std::vector<Envelope> envelopes;
  for (const auto& [message, file] : messages) {
    envelopes.push_back(envelope(message, file));
  }
  inherit_revisions(envelopes);
  if (one_mbox) {
    keep_newest_revision(envelopes, notes);
  }
  for (const auto& chosen : envelopes) {
    read.mails.push_back(parse_patch_mail(*chosen.message, chosen.file));
    if (!read.mails.back().subject.explicit_revision) {
      read.mails.back().subject.revision = chosen.subject.revision;
    }
  }
  return read;
}

// Each mail as the cover letter, a patch, or a message of the thread that
// is neither (counted in the notes); a series without patches is refused.
void sort_mails(ReadMails read, bool one_mbox, const fs::path& source, Series& series) {
  std::size_t follow_ups = 0;
  auto& mails = read.mails;
  for (std::size_t i = 0; i < mails.size(); ++i) {
    auto& mail = mails[i];
    series.notes.insert(series.notes.end(), mail.notes.begin(), mail.notes.end());
    // A cover letter is 0/n; or, unnumbered, the first message when it has
    // no diff and patches follow (b4 saves a "[PATCH v3] ..." cover so).
    const bool unnumbered_cover =
        i == 0 && mail.diff.empty() && !mail.subject.numbered && mails.size() > 1 && !series.cover;
    if (mail.subject.is_cover() && series.cover && read.threaded && one_mbox) {
      ++follow_ups;  // "[PATCH v8 0/9]" again, sent in reply to the thread: not its cover
      continue;
    }
    if (mail.subject.is_cover() || unnumbered_cover) {
      if (series.cover) {
        throw usage_error(mail.where() + ": a second cover letter (first at " +
                          series.cover->where() + ")");
      }
      if (unnumbered_cover) {
        series.notes.push_back(mail.where() + ": '" + mail.raw_subject +
                               "' has no diff and no 0/n: read as the cover letter");
      }
      series.cover = std::move(mail);
      continue;
    }
    if (mail.diff.empty() && read.threaded && one_mbox && !mail.subject.numbered) {
      ++follow_ups;  // a thread's unnumbered message without a diff: not a patch
      continue;
    }
    if (mail.diff.empty()) {
      throw usage_error(mail.where() + ": message '" + mail.raw_subject +
                        "' has no diff (no 'diff --git' line)");
    }
    series.patches.push_back(std::move(mail));
  }
  if (read.replies > 0) {
    series.notes.push_back("skipped " + std::to_string(read.replies) + " reply message(s) (Re:)");
  }
  if (follow_ups > 0) {
    series.notes.push_back("skipped " + std::to_string(follow_ups) +
                           " message(s) of the thread that are neither a patch nor its first "
                           "cover letter");
  }
  if (series.patches.empty()) {
    throw usage_error(source.string() + ": the series has no patches" +
                      (series.cover ? " (only a cover letter)" : ""));
  }
}

// The patches in their numbering's order; a directory's series file must
// agree with the numbering, which is authoritative.
void order_patches(const fs::path& source, Series& series) {
  const bool from_directory = fs::is_directory(source);
  check_numbering(series.patches, from_directory ? fs::path(series.source) : fs::path());
  if (!series.patches.front().subject.numbered) {
    return;
  }
  for (std::size_t i = 0; from_directory && i < series.patches.size(); ++i) {
    if (series.patches[i].subject.index != static_cast<int>(i + 1)) {
      throw usage_error((source / "series").string() + ": lists " +
                        series.patches[i].file.filename().string() + " in position " +
                        std::to_string(i + 1) + " but its subject says " +
                        std::to_string(series.patches[i].subject.index) + "/" +
                        std::to_string(series.patches[i].subject.total));
    }
  }
  std::stable_sort(
      series.patches.begin(), series.patches.end(),
      [](const PatchMail& a, const PatchMail& b) { return a.subject.index < b.subject.index; });
}

// The revision and title (the cover's, else the first patch's); mixed
// revisions are refused.
void take_revision(Series& series) {
  const PatchMail& reference = series.cover ? *series.cover : series.patches.front();
  series.revision = reference.subject.revision;
  for (const auto& patch : series.patches) {
    if (patch.subject.revision != series.revision) {
      throw usage_error(patch.where() + ": '" + patch.raw_subject + "' is revision v" +
                        std::to_string(patch.subject.revision) + " but " + reference.where() +
                        " is v" + std::to_string(series.revision) + " (mixed revisions)");
    }
  }
  series.title = reference.subject.title;
}

// Every diff checked for safety; the base commit (the patches must agree),
// prerequisites, message id, links and change id.
void take_base_and_links(const SeriesLimits& limits, Series& series) {
  for (std::size_t i = 0; i < series.patches.size(); ++i) {
    const auto& patch = series.patches[i];
    check_diff_safety(patch.diff, series.label(i), limits.max_patch_bytes);
    if (patch.base_commit) {
      if (series.base_commit && *series.base_commit != *patch.base_commit) {
        throw usage_error(patch.where() + ": base-commit " + *patch.base_commit +
                          " disagrees with " + *series.base_commit + " given earlier");
      }
      series.base_commit = patch.base_commit;
    }
    if (series.prerequisite_patch_ids.empty()) {
      series.prerequisite_patch_ids = patch.prerequisite_patch_ids;
    }
  }
  if (!series.base_commit && series.cover && series.cover->base_commit) {
    series.base_commit = series.cover->base_commit;
  }
  const PatchMail& head = series.cover ? *series.cover : series.patches.front();
  series.message_id = head.message_id;
  series.links = head.replies_to;
  series.links.insert(series.links.end(), head.linked_ids.begin(), head.linked_ids.end());
  series.change_id = series.cover ? series.cover->change_id : std::nullopt;
  for (const auto& patch : series.patches) {
    series.change_id = series.change_id ? series.change_id : patch.change_id;
  }
}

}  // namespace

Series load_series(const fs::path& source, const SeriesLimits& limits) {
  if (!fs::exists(source)) {
    throw usage_error("series not found: " + source.string());
  }
  Series series;
  series.source = fs::weakly_canonical(source);
  series.name = series_name(source);
  std::vector<ListedPatch> files;
  const bool one_mbox = !fs::is_directory(source);
  if (!one_mbox) {
    files = list_series_directory(source, series.notes);
    series.depends = read_depends(source);
  } else {
    files.push_back({source, source.string(), false});
  }
  sort_mails(read_mails(files, one_mbox, series.notes), one_mbox, source, series);
  order_patches(source, series);
  take_revision(series);
  take_base_and_links(limits, series);
  return series;
}

}  // namespace kseries
