#include "series/patch_mail.h"

#include "core/error.h"
#include "core/text.h"
#include "series/git_header.h"
#include "series/mail_text.h"
#include "series/patch_text.h"

namespace kseries {
namespace {

std::string where_in(const std::filesystem::path& file, int line) {
  return file.string() + ":" + std::to_string(line);
}

void check_line_size(std::string_view line, const std::filesystem::path& file, int line_no) {
  if (line.size() > k_max_message_line_bytes) {
    throw usage_error(where_in(file, line_no) + ": line is longer than " +
                      std::to_string(k_max_message_line_bytes) +
                      " bytes (not a commit message a person wrote)");
  }
}

bool is_blank(std::string_view line) { return trim(line).empty(); }

// git's strbuf_stripspace, as git am cleans the message: trailing white
// space of every line dropped, runs of blank lines made one, no blank line
// at the start or the end.
std::string stripspace(std::string_view text) {
  std::string out;
  bool pending_blank = false;
  for (std::string_view line : split_lines(text)) {
    while (!line.empty() && std::string_view(" \t\v\f\r").find(line.back()) != std::string::npos) {
      line.remove_suffix(1);
    }
    if (line.empty()) {
      pending_blank = !out.empty();
      continue;
    }
    if (pending_blank) {
      out += '\n';
      pending_blank = false;
    }
    out += line;
    out += '\n';
  }
  return out;
}

// Raw header bytes declare no charset: what is not UTF-8 reads as Latin-1,
// as git am reads it, with a note at `origin`. The result is valid UTF-8.
std::string undeclared_to_utf8(std::string_view raw, std::string_view field,
                               const TextOrigin& origin, std::vector<std::string>& notes) {
  Utf8Text converted = to_utf8(raw, "");
  if (const std::string note = conversion_note(converted, ""); !note.empty()) {
    notes.push_back(where_in(origin.file, origin.line) + ": " + std::string(field) + ": " + note);
  }
  return std::move(converted.text);
}

// The subject as it goes into the commit: decoded, checked, cleaned.
std::string read_subject(std::string_view raw, const TextOrigin& origin,
                         std::vector<std::string>& notes) {
  const std::string text = undeclared_to_utf8(raw, "the subject", origin, notes);
  return commit_text(decode_rfc2047(text), CommitField::k_subject, "utf-8", origin, notes);
}

// The author of a From: value, or nullopt when it holds no address.
std::optional<Person> read_author(std::string_view raw, const TextOrigin& origin,
                                  std::vector<std::string>& notes) {
  std::vector<std::string> found;
  const std::string text = undeclared_to_utf8(raw, "the author name", origin, found);
  const auto person = parse_address(text);
  if (!person) {
    return std::nullopt;
  }
  notes.insert(notes.end(), found.begin(), found.end());
  return Person{commit_text(person->name, CommitField::k_author_name, "utf-8", origin, notes),
                commit_text(person->email, CommitField::k_author_email, "utf-8", origin, notes)};
}

}  // namespace

std::string PatchMail::where() const { return where_in(file, line); }

std::string PatchMail::commit_message() const {
  if (body.empty()) {
    return subject.title + "\n";
  }
  return subject.title + "\n\n" + body;
}

namespace {

// The mail headers: Subject:, From: and Date: must all be there and readable.
void read_mail_headers(const MailMessage& message, const std::filesystem::path& file,
                       PatchMail& patch) {
  const auto from = message.header("From");
  const auto date = message.header("Date");
  const auto subject = message.header("Subject");
  if (!subject) {
    throw usage_error(where_in(file, message.first_line) + ": message has no Subject: header");
  }
  const TextOrigin headers{file, message.first_line};
  patch.raw_subject = read_subject(*subject, headers, patch.notes);
  patch.subject = parse_subject(patch.raw_subject, where_in(file, message.first_line));
  auto author = from ? read_author(*from, headers, patch.notes) : std::nullopt;
  if (!author) {
    throw usage_error(where_in(file, message.first_line) + ": message '" + patch.raw_subject +
                      "' has no readable From: header");
  }
  patch.author = std::move(*author);
  if (!date || !parse_mail_date(*date)) {
    throw usage_error(where_in(file, message.first_line) + ": message '" + patch.raw_subject +
                      "' has no readable Date: header" +
                      (date ? " ('" + date->substr(0, 80) + "')" : ""));
  }
  patch.date = *parse_mail_date(*date);
  const auto own = message_ids(message.header("Message-ID").value_or(""));
  patch.message_id = own.empty() ? "" : own.front();
  patch.replies_to = message_ids(message.header("In-Reply-To").value_or(""));
  auto references = message_ids(message.header("References").value_or(""));
  patch.replies_to.insert(patch.replies_to.end(), references.rbegin(), references.rend());
}

// "From:" followed by white space, any case (git mailinfo's cmp_header).
std::optional<std::string_view> in_body_field(std::string_view line, std::string_view name) {
  if (line.size() > name.size() + 1 && to_lower(line.substr(0, name.size())) == to_lower(name) &&
      line[name.size()] == ':' && (line[name.size() + 1] == ' ' || line[name.size() + 1] == '\t')) {
    return line.substr(name.size() + 1);
  }
  return std::nullopt;
}

// In-body "From:"/"Subject:"/"Date:" lines at the top of the body
// (format-patch --from, b4) override the mail headers, as git mailinfo's
// header stage does: blank lines before them are skipped, each field counts
// once, a field may be folded, and a blank line (or a line that is no such
// field) ends them. Returns the index of the first line of the message.
size_t read_in_body_headers(const std::vector<std::string_view>& lines, const MailMessage& message,
                            const std::filesystem::path& file, PatchMail& patch) {
  size_t i = 0;
  while (i < lines.size() && is_blank(lines[i])) {
    ++i;
  }
  bool seen[3] = {false, false, false};
  static constexpr std::string_view k_fields[3] = {"From", "Subject", "Date"};
  bool any = false;
  while (i < lines.size()) {
    std::string_view line = lines[i];
    int field = -1;
    for (int f = 0; f < 3; ++f) {
      if (!seen[f] && in_body_field(line, k_fields[f])) {
        field = f;
      }
    }
    if (field < 0) {
      break;
    }
    const TextOrigin origin{file, message.body_line + static_cast<int>(i)};
    check_line_size(line, file, origin.line);
    std::string value(trim(*in_body_field(line, k_fields[field])));
    for (++i; i < lines.size() && !lines[i].empty() && (lines[i][0] == ' ' || lines[i][0] == '\t');
         ++i) {
      check_line_size(lines[i], file, message.body_line + static_cast<int>(i));
      value += " " + std::string(trim(lines[i]));  // a folded field
    }
    seen[field] = any = true;
    if (field == 0) {
      if (auto author = read_author(value, origin, patch.notes)) {
        patch.author = std::move(*author);
      }
    } else if (field == 1) {
      patch.raw_subject = read_subject(value, origin, patch.notes);
      patch.subject = parse_subject(patch.raw_subject, where_in(file, origin.line));
    } else if (const auto date = parse_mail_date(value)) {
      patch.date = *date;
    }
  }
  if (any && i < lines.size() && is_blank(lines[i])) {
    ++i;  // the blank line that ends them
  }
  return any ? i : 0;
}

// git mailinfo's patchbreak: where the commit message ends and the patch
// part (notes, diffstat, diff) starts.
bool is_patch_break(std::string_view line) {
  if (starts_with(line, "diff -") || starts_with(line, "Index: ")) {
    return true;
  }
  if (!starts_with(line, "---") || line.size() < 3) {
    return false;
  }
  if (line.size() > 4 && line[3] == ' ' && line[4] != ' ' && line[4] != '\t') {
    return true;  // "--- <filename>"
  }
  return trim(line.substr(3)).empty();  // "---" and white space only
}

// b4's and format-patch's trailers in the lines outside the diff (before
// the signature): base-commit:, prerequisite-patch-id:, change-id:.
void read_trailers(const std::vector<std::string_view>& lines, PatchMail& patch) {
  for (const auto line : lines) {
    if (line == "-- " || line == "--") {
      break;  // the signature
    }
    if (line.size() > 1024) {
      continue;  // no trailer is that long
    }
    if (starts_with(line, "base-commit: ")) {
      patch.base_commit = std::string(trim(line.substr(13)));
    } else if (starts_with(line, "prerequisite-patch-id: ")) {
      patch.prerequisite_patch_ids.emplace_back(trim(line.substr(23)));
    } else if (starts_with(line, "change-id: ")) {
      patch.change_id = std::string(trim(line.substr(11)));
    }
  }
}

// The diff as libgit2 wants it: names with spaces quoted as git reads them;
// a last section without a hunk closed by format-patch's "-- " line, without
// which libgit2 1.5 refuses an empty new or deleted file there ("unexpected
// header line"; one in the middle of a diff it refuses however it is closed).
std::string finish_diff(std::vector<std::string> diff_lines, bool ends_without_hunk) {
  quote_git_headers(diff_lines);
  if (ends_without_hunk) {
    diff_lines.emplace_back("-- ");
  }
  return join_lines(diff_lines);
}

}  // namespace

PatchMail parse_patch_mail(const MailMessage& message, const std::filesystem::path& file) {
  if (!message.problem.empty()) {
    throw usage_error(message.problem);
  }
  PatchMail patch;
  patch.file = file;
  patch.line = message.first_line;
  read_mail_headers(message, file, patch);
  const auto lines = split_lines(message.body);
  const size_t first = read_in_body_headers(lines, message, file, patch);
  size_t end = first;
  while (end < lines.size() && !is_patch_break(lines[end])) {
    check_line_size(lines[end], file, message.body_line + static_cast<int>(end));
    ++end;
  }
  const std::vector<std::string_view> rest(lines.begin() + static_cast<long>(end), lines.end());
  PatchText text = read_patch_text(rest, message.body_line + static_cast<int>(end), file.string());
  patch.diff_line = text.diff_line;
  patch.notes.insert(patch.notes.end(), text.notes.begin(), text.notes.end());
  // A cover letter (no diff) may carry its trailers above a "---" or not.
  read_trailers(patch.diff_line == 0 ? lines : text.outside, patch);
  std::string message_text;
  for (size_t i = first; i < end; ++i) {
    message_text += lines[i];
    message_text += '\n';
  }
  const std::string converted =
      commit_text(message_text, CommitField::k_message, message.charset,
                  {file, message.body_line + static_cast<int>(first)}, patch.notes);
  patch.body = stripspace(converted);
  if (patch.diff_line == 0) {
    patch.linked_ids = linked_message_ids(message.body);  // a cover names its predecessor
  }
  patch.diff = finish_diff(std::move(text.diff_lines), text.ends_without_hunk);
  return patch;
}

}  // namespace kseries
