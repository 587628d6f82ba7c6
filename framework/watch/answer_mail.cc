#include "watch/answer_mail.h"

#include <algorithm>
#include <sstream>

#include "core/utf8.h"
#include "sys/utc_time.h"

namespace kseries::watch {

namespace {

std::string header_value(const std::string& text, std::size_t max = 900) {
  return one_line(text, max);
}

bool ascii(const std::string& text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

std::string base64(const std::string& text) {
  static const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < text.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(text[i]) << 16) |
                       (static_cast<unsigned char>(text[i + 1]) << 8) |
                       static_cast<unsigned char>(text[i + 2]);
    out += {table[v >> 18], table[(v >> 12) & 63], table[(v >> 6) & 63], table[v & 63]};
  }
  if (i + 1 == text.size()) {
    const unsigned v = static_cast<unsigned char>(text[i]) << 16;
    out += {table[v >> 18], table[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == text.size()) {
    const unsigned v = (static_cast<unsigned char>(text[i]) << 16) |
                       (static_cast<unsigned char>(text[i + 1]) << 8);
    out += {table[v >> 18], table[(v >> 12) & 63], table[(v >> 6) & 63], '='};
  }
  return out;
}

// A display name as a header may carry it: quoted ASCII, or an encoded word.
std::string display_name(const std::string& name) {
  const std::string clean = header_value(name, 200);
  if (clean.empty()) {
    return "";
  }
  if (!ascii(clean)) {
    return "=?UTF-8?B?" + base64(clean) + "?=";
  }
  std::string quoted = "\"";
  for (const char c : clean) {
    quoted += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  }
  return quoted + "\"";
}

std::string address(const std::string& name, const std::string& email) {
  std::string clean_email;
  for (const char c : header_value(email, 254)) {
    clean_email += (c == '<' || c == '>' || c == ' ' || c == ',' || c == '"') ? '_' : c;
  }
  const std::string shown = display_name(name);
  return shown.empty() ? "<" + clean_email + ">" : shown + " <" + clean_email + ">";
}

std::string subject_value(const std::string& subject) {
  const std::string clean = header_value(subject, 700);
  const std::string reply = clean.rfind("Re: ", 0) == 0 ? clean : "Re: " + clean;
  return ascii(reply) ? reply : "=?UTF-8?B?" + base64(reply) + "?=";
}

// The first name of the author, for "Hi X,": up to the first space.
std::string greeting_name(const std::string& name) {
  const std::string clean = header_value(name, 80);
  const auto space = clean.find(' ');
  return clean.substr(0, space);
}

}  // namespace

std::string mail_date_now() { return utc_time_now("%a, %d %b %Y %H:%M:%S +0000"); }

std::string compose_answer(const AnswerFacts& f) {
  std::ostringstream mail;
  mail << "From: " << header_value(f.from) << "\n"
       << "To: " << address(f.to_name, f.to_email) << "\n";
  if (!f.cc.empty()) {
    mail << "Cc: " << address("", f.cc) << "\n";
  }
  mail << "Subject: " << subject_value(f.subject) << "\n"
       << "Date: " << header_value(f.date) << "\n"
       << "Message-ID: <" << header_value(f.message_id) << ">\n"
       << "In-Reply-To: <" << header_value(f.in_reply_to) << ">\n"
       << "References: <" << header_value(f.in_reply_to) << ">\n"
       << "MIME-Version: 1.0\n"
       << "Content-Type: text/plain; charset=utf-8\n"
       << "Content-Transfer-Encoding: 8bit\n"
       << "X-Mailer: kseries watch\n\n";
  const std::string hi = greeting_name(f.to_name);
  mail << "Hi" << (hi.empty() ? "" : " " + hi) << ",\n\n";
  for (const auto& warning : f.warnings) {
    mail << "WARNING: this revision is slower than the previous one: " << warning << "\n";
  }
  if (!f.warnings.empty()) {
    mail << "\n";
  }
  mail << "kseries tested " << f.identity << ":\n  " << f.tested << "\n\n"
       << "verdict: " << f.verdict << "\n\n";
  if (!f.failing_cells.empty()) {
    mail << "failing cells:\n";
    for (const auto& cell : f.failing_cells) {
      mail << cell << "\n";
    }
    mail << "\n";
  }
  if (!f.comparison.empty()) {
    mail << f.comparison << "\n";
  }
  mail << "reproduce:\n";
  for (const auto& command : f.reproduce) {
    mail << "  " << command << "\n";
  }
  mail << "\nrun directory: " << f.run_dir << "\n\n-- \nkseries watch\n";
  return mail.str();
}

}  // namespace kseries::watch
