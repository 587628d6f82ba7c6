#include "series/patch_mail.h"

#include "core/error.h"
#include "core/text.h"
#include "series/diff_scanner.h"
#include "series/git_header.h"
#include "series/mail_text.h"

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

std::string trim_blank_lines(const std::vector<std::string_view>& lines) {
  size_t begin = 0;
  size_t end = lines.size();
  while (begin < end && trim(lines[begin]).empty()) ++begin;
  while (end > begin && trim(lines[end - 1]).empty()) --end;
  std::string out;
  for (size_t i = begin; i < end; ++i) {
    // git's mailinfo strips trailing white space of message lines.
    std::string_view line = lines[i];
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) {
      line.remove_suffix(1);
    }
    out += line;
    out += '\n';
  }
  return out;
}

// Notes from decoding a header's encoded words, placed at `origin`.
void place_notes(const std::vector<std::string>& found, std::string_view field,
                 const TextOrigin& origin, std::vector<std::string>& notes) {
  for (const auto& note : found) {
    notes.push_back(where_in(origin.file, origin.line) + ": " + std::string(field) + ": " + note);
  }
}

// The subject as it goes into the commit: decoded, checked, cleaned. Its raw
// bytes declare no charset ("": git am reads what is not UTF-8 as Latin-1).
std::string read_subject(std::string_view raw, const TextOrigin& origin,
                         std::vector<std::string>& notes) {
  std::vector<std::string> decoding;
  std::string decoded = decode_rfc2047(raw, &decoding);
  place_notes(decoding, "the subject", origin, notes);
  return commit_text(decoded, CommitField::k_subject, "", origin, notes);
}

// The author of a From: value, or nullopt when it holds no address.
std::optional<Person> read_author(std::string_view raw, const TextOrigin& origin,
                                  std::vector<std::string>& notes) {
  std::vector<std::string> decoding;
  const auto person = parse_address(raw, &decoding);
  if (!person) {
    return std::nullopt;
  }
  place_notes(decoding, "the author", origin, notes);
  return Person{commit_text(person->name, CommitField::k_author_name, "", origin, notes),
                commit_text(person->email, CommitField::k_author_email, "", origin, notes)};
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
  // git am takes the first text part of a MIME multipart mail, decoded;
  // read as one text its boundaries and its =3D were committed. Refused,
  // with the reason, rather than applied differently.
  if (starts_with(to_lower(trim(message.header("Content-Type").value_or(""))), "multipart/")) {
    throw usage_error(where_in(file, message.first_line) +
                      ": refuses a MIME multipart mail (Content-Type: multipart/...): kseries does "
                      "not split MIME parts; send the patch as plain text (git format-patch, "
                      "git send-email)");
  }
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
}

// In-body "From:"/"Subject:"/"Date:" lines (format-patch --from, b4)
// override the mail headers, as `git am` does. Returns the index of the first
// body line after them.
size_t read_in_body_headers(const std::vector<std::string_view>& lines, const MailMessage& message,
                            const std::filesystem::path& file, PatchMail& patch) {
  auto in_body_header = [](std::string_view line) {
    return starts_with(line, "From: ") || starts_with(line, "Subject: ") ||
           starts_with(line, "Date: ");
  };
  size_t i = 0;
  if (lines.empty() || !in_body_header(lines[0])) {
    return i;
  }
  for (; i < lines.size() && !trim(lines[i]).empty(); ++i) {
    const std::string_view line = lines[i];
    const TextOrigin origin{file, message.body_line + static_cast<int>(i)};
    check_line_size(line, file, origin.line);
    if (auto author = starts_with(line, "From: ") ? read_author(line.substr(6), origin, patch.notes)
                                                  : std::nullopt) {
      patch.author = std::move(*author);
    } else if (starts_with(line, "Date: ") && parse_mail_date(line.substr(6))) {
      patch.date = *parse_mail_date(line.substr(6));
    } else if (starts_with(line, "Subject: ")) {
      patch.raw_subject = read_subject(line.substr(9), origin, patch.notes);
      patch.subject = parse_subject(patch.raw_subject, where_in(file, origin.line));
    }
  }
  return i;
}

// The body cut into its parts: the commit message, the notes below "---"
// (dropped), the diff, and the trailers after it.
struct BodyParts {
  std::vector<std::string> message_lines;
  int message_line = 0;  // where message_lines start
  std::vector<std::string> diff_lines;
  bool ends_in_binary = false;  // the diff's last file is a binary patch
};

BodyParts split_body(const std::vector<std::string_view>& lines, size_t i,
                     const MailMessage& message, const std::filesystem::path& file,
                     PatchMail& patch) {
  BodyParts parts;
  enum class Part { k_message, k_notes, k_diff, k_trailer } part = Part::k_message;
  DiffScanner scanner;  // where the diff ends
  for (; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    const int line_no = message.body_line + static_cast<int>(i);
    if (part != Part::k_diff && starts_with(line, "diff --git ")) {
      part = Part::k_diff;
      patch.diff_line = line_no;
    }
    if (part != Part::k_diff) {
      check_line_size(line, file, line_no);  // the diff has --max-patch-bytes
    }
    switch (part) {
      case Part::k_message:
        if (line == "---") {
          part = Part::k_notes;  // diffstat and notes below '---'
        } else {
          parts.message_line = parts.message_lines.empty() ? line_no : parts.message_line;
          parts.message_lines.emplace_back(line);
        }
        break;
      case Part::k_notes:
        break;
      case Part::k_diff:
        if (!scanner.take(line)) {
          part = Part::k_trailer;
          --i;  // read this line again as a trailer
          continue;
        }
        if (scanner.overlong_hunk()) {
          throw usage_error(file.string() + ":" + std::to_string(line_no) +
                            ": refuses a hunk with more lines than its @@ header counts (git am: "
                            "corrupt patch; libgit2 would drop them): '" +
                            std::string(line.substr(0, 80)) + "'");
        }
        parts.diff_lines.emplace_back(line);
        break;
      case Part::k_trailer:
        if (line == "-- ") {
          i = lines.size();  // the signature ends the message
        } else if (starts_with(line, "base-commit: ")) {
          patch.base_commit = std::string(trim(line.substr(13)));
        } else if (starts_with(line, "prerequisite-patch-id: ")) {
          patch.prerequisite_patch_ids.emplace_back(trim(line.substr(23)));
        } else if (starts_with(line, "change-id: ")) {
          patch.change_id = std::string(trim(line.substr(11)));
        }
        break;
    }
  }
  parts.ends_in_binary = scanner.ends_in_binary();
  return parts;
}

// A cover letter carries base-commit: in its body, with no diff.
void read_cover_trailers(const std::vector<std::string_view>& lines, PatchMail& patch) {
  for (const auto& line : lines) {
    if (starts_with(line, "base-commit: ")) {
      patch.base_commit = std::string(trim(std::string_view(line).substr(13)));
    } else if (starts_with(line, "prerequisite-patch-id: ")) {
      patch.prerequisite_patch_ids.emplace_back(trim(std::string_view(line).substr(23)));
    } else if (starts_with(line, "change-id: ")) {
      patch.change_id = std::string(trim(std::string_view(line).substr(11)));
    }
  }
}

// The diff as libgit2 wants it: trailing blank lines before the signature
// are not part of it, except the one that ends a binary patch's last literal.
std::string finish_diff(std::vector<std::string> diff_lines, bool ends_in_binary) {
  while (!diff_lines.empty() && diff_lines.back().empty()) {
    diff_lines.pop_back();
  }
  quote_git_headers(diff_lines);
  if (ends_in_binary && !diff_lines.empty()) {
    diff_lines.emplace_back();
  }
  return join_lines(diff_lines);
}

}  // namespace

PatchMail parse_patch_mail(const MailMessage& message, const std::filesystem::path& file) {
  PatchMail patch;
  patch.file = file;
  patch.line = message.first_line;
  read_mail_headers(message, file, patch);
  const auto lines = split_lines(message.body);
  const size_t first = read_in_body_headers(lines, message, file, patch);
  BodyParts parts = split_body(lines, first, message, file, patch);
  if (patch.diff_line == 0) {
    read_cover_trailers(lines, patch);
  }
  const std::string message_text =
      commit_text(join_lines(parts.message_lines), CommitField::k_message,
                  content_type_charset(message.header("Content-Type").value_or("")),
                  {file, parts.message_line}, patch.notes);
  patch.body = trim_blank_lines(split_lines(message_text));
  patch.diff = finish_diff(std::move(parts.diff_lines), parts.ends_in_binary);
  return patch;
}

}  // namespace kseries
