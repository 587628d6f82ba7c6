#include "watch/answer_mail.h"

#include <algorithm>
#include <sstream>

#include "core/utf8.h"
#include "sys/utc_time.h"
#include "watch/archive_message.h"
#include "watch/gmime_handles.h"
#include "watch/header_text.h"

namespace kseries::watch {

namespace {

// The first word of the author's name, for "Hi X,".
std::string greeting_name(const std::string& name) {
  const std::string clean = header_text(name, 80);
  return clean.substr(0, clean.find(' '));
}

// The addresses of TEXT when it is a list of valid mailboxes; empty else.
GObjectPtr<InternetAddressList> mailboxes(const std::string& text) {
  GObjectPtr<InternetAddressList> list(internet_address_list_parse(nullptr, text.c_str()));
  const int count = list ? internet_address_list_length(list.get()) : 0;
  if (count < 1) {
    return nullptr;
  }
  for (int i = 0; i < count; ++i) {
    InternetAddress* address = internet_address_list_get_address(list.get(), i);
    if (!INTERNET_ADDRESS_IS_MAILBOX(address)) {
      return nullptr;
    }
    const char* addr = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(address));
    if (!addr || !valid_mailbox(addr)) {
      return nullptr;
    }
  }
  return list;
}

std::string references_value(const AnswerFacts& f) {
  std::vector<std::string> ids;
  for (const auto& id : f.references) {
    if (sane_message_id(id) && id != f.in_reply_to) {
      ids.push_back(id);
    }
  }
  ids.push_back(f.in_reply_to);
  std::string value;
  for (const auto& id : ids) {
    value += (value.empty() ? "<" : " <") + id + ">";
  }
  return value;
}

// Adds To and Cc; what cannot be addressed goes to NOTES.
void address(GMimeMessage* message, const AnswerFacts& f, std::vector<std::string>& notes) {
  const std::string email = header_text(f.to_email, 254);
  const bool to_ok = valid_mailbox(email);
  if (to_ok) {
    g_mime_message_add_mailbox(message, GMIME_ADDRESS_TYPE_TO, header_text(f.to_name, 200).c_str(),
                               email.c_str());
  } else {
    notes.push_back("(The author's address '" + header_text(f.to_email, 120) +
                    "' is not one valid mail address: this answer is not sent to it.)");
  }
  const std::string list = header_text(f.cc, 254);
  const bool cc_ok = valid_mailbox(list);
  if (cc_ok) {
    g_mime_message_add_mailbox(message, to_ok ? GMIME_ADDRESS_TYPE_CC : GMIME_ADDRESS_TYPE_TO, "",
                               list.c_str());
  }
  if (!to_ok && !cc_ok) {
    GObjectPtr<InternetAddress> group(internet_address_group_new("undisclosed-recipients"));
    internet_address_list_add(g_mime_message_get_addresses(message, GMIME_ADDRESS_TYPE_TO),
                              group.get());
  }
}

std::string body_text(const AnswerFacts& f, const std::vector<std::string>& notes) {
  std::ostringstream body;
  const std::string hi = greeting_name(f.to_name);
  body << "Hi" << (hi.empty() ? "" : " " + hi) << ",\n\n";
  for (const auto& note : notes) {
    body << note << "\n\n";
  }
  for (const auto& warning : f.warnings) {
    body << "WARNING: this revision is slower than the previous one: " << warning << "\n";
  }
  if (!f.warnings.empty()) {
    body << "\n";
  }
  body << "kseries tested " << f.identity << ":\n  " << f.tested << "\n\n"
       << "verdict: " << f.verdict << "\n\n";
  if (!f.failing_cells.empty()) {
    body << "failing cells:\n";
    for (const auto& cell : f.failing_cells) {
      body << cell << "\n";
    }
    body << "\n";
  }
  if (!f.comparison.empty()) {
    body << f.comparison << "\n";
  }
  body << "reproduce:\n";
  for (const auto& command : f.reproduce) {
    body << "  " << command << "\n";
  }
  for (const auto& note : f.reproduce_notes) {
    body << "  (" << note << ")\n";
  }
  body << "\n" << (f.run_is_url ? "results: " : "run: ") << f.run << "\n\n-- \nkseries watch\n";
  return body.str();
}

}  // namespace

bool valid_mailbox(const std::string& email) {
  const auto at = email.find('@');
  if (email.empty() || email.size() > 254 || at == 0 || at == std::string::npos ||
      at + 1 == email.size() || email.find('@', at + 1) != std::string::npos) {
    return false;
  }
  return std::all_of(email.begin(), email.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u > 0x20 && u < 0x7f && std::string_view("<>()[],;:\"\\").find(c) == std::string::npos;
  });
}

bool valid_from(const std::string& text) {
  ensure_gmime();
  return header_text(text) == text && mailboxes(text) != nullptr;
}

std::string mail_date_now() { return utc_time_now("%a, %d %b %Y %H:%M:%S +0000"); }

std::string compose_answer(const AnswerFacts& f) {
  ensure_gmime();
  const GObjectPtr<GMimeMessage> message(g_mime_message_new(TRUE));
  GMimeObject* object = GMIME_OBJECT(message.get());
  if (const auto from = mailboxes(header_text(f.from))) {
    internet_address_list_append(g_mime_message_get_from(message.get()), from.get());
  } else {
    g_mime_message_add_mailbox(message.get(), GMIME_ADDRESS_TYPE_FROM, "kseries",
                               "kseries@invalid");
  }
  std::vector<std::string> notes;
  address(message.get(), f, notes);
  const std::string subject = header_text(f.subject, 700);
  const std::string reply = subject.rfind("Re: ", 0) == 0 ? subject : "Re: " + subject;
  g_mime_message_set_subject(message.get(), reply.c_str(), "utf-8");
  g_mime_object_set_header(object, "Date", header_text(f.date, 64).c_str(), nullptr);
  if (sane_message_id(f.message_id)) {
    g_mime_message_set_message_id(message.get(), f.message_id.c_str());
  }
  if (sane_message_id(f.in_reply_to)) {
    g_mime_object_set_header(object, "In-Reply-To", ("<" + f.in_reply_to + ">").c_str(), nullptr);
    g_mime_object_set_header(object, "References", references_value(f).c_str(), nullptr);
  }
  g_mime_object_set_header(object, "X-Mailer", "kseries watch", nullptr);

  const std::string text = valid_utf8(body_text(f, notes));
  const GObjectPtr<GMimeTextPart> part(g_mime_text_part_new_with_subtype("plain"));
  // The text as it is (g_mime_text_part_set_text would convert it to the
  // smallest charset that holds it); the body is valid UTF-8 already.
  const GObjectPtr<GMimeStream> stream(g_mime_stream_mem_new_with_buffer(text.data(), text.size()));
  const GObjectPtr<GMimeDataWrapper> content(
      g_mime_data_wrapper_new_with_stream(stream.get(), GMIME_CONTENT_ENCODING_DEFAULT));
  g_mime_part_set_content(GMIME_PART(part.get()), content.get());
  g_mime_text_part_set_charset(part.get(), "utf-8");
  // 8bit as the 0-day bot writes, quoted-printable only for a line past 998.
  g_mime_object_encode(GMIME_OBJECT(part.get()), GMIME_ENCODING_CONSTRAINT_8BIT);
  g_mime_message_set_mime_part(message.get(), GMIME_OBJECT(part.get()));

  const FormatOptionsPtr options(g_mime_format_options_clone(nullptr));
  g_mime_format_options_set_newline_format(options.get(), GMIME_NEWLINE_FORMAT_UNIX);
  const GCharPtr mail(g_mime_object_to_string(object, options.get()));
  return mail ? std::string(mail.get()) : std::string();
}

}  // namespace kseries::watch
