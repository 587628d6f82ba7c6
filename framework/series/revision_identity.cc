#include "series/revision_identity.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace kseries {

namespace {

bool change_id_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
}

}  // namespace

std::string RevisionIdentity::family() const {
  switch (source) {
    case IdentitySource::k_change_id:
      return "change-id: " + key;
    case IdentitySource::k_directory:
      return key;  // as the gate has always named a directory's family
    case IdentitySource::k_title:
      break;
  }
  return "title: " + key;
}

std::string RevisionIdentity::label() const {
  const std::string v = " v" + std::to_string(revision);
  switch (source) {
    case IdentitySource::k_change_id:
      return "change-id " + key + v;
    case IdentitySource::k_directory:
      return key + v;
    case IdentitySource::k_title:
      break;
  }
  return "title '" + key + "'" + v;
}

bool valid_change_id(std::string_view text) {
  return !text.empty() && text.size() <= 128 &&
         std::isalnum(static_cast<unsigned char>(text.front())) &&
         std::all_of(text.begin(), text.end(), change_id_char);
}

RevisionIdentity revision_identity(const Series& series) {
  RevisionIdentity identity;
  identity.revision = series.revision;
  if (series.change_id && valid_change_id(*series.change_id)) {
    identity.source = IdentitySource::k_change_id;
    identity.key = *series.change_id;
  } else if (const auto slash = series.name.find('/'); slash != std::string::npos) {
    identity.source = IdentitySource::k_directory;
    identity.key = series.name.substr(0, slash);
  } else if (std::filesystem::is_directory(series.source)) {
    // Any other directory (a known-bad revision) is a family of its own.
    identity.source = IdentitySource::k_directory;
    identity.key = series.name;
  } else {
    identity.source = IdentitySource::k_title;
    identity.key = series.title;
  }
  identity.message_id = series.message_id;
  identity.links = series.links;
  return identity;
}

void RevisionLinks::add(const RevisionIdentity& identity) {
  if (!identity.message_id.empty()) {
    m_by_message_id.insert_or_assign(identity.message_id, identity);
  }
}

RevisionIdentity RevisionLinks::resolve(RevisionIdentity identity) const {
  if (identity.source == IdentitySource::k_change_id) {
    return identity;
  }
  for (const auto& link : identity.links) {
    const auto known = m_by_message_id.find(link);
    if (known != m_by_message_id.end() && known->second.message_id != identity.message_id) {
      identity.source = known->second.source;
      identity.key = known->second.key;
      identity.linked_to = link;
      break;
    }
  }
  return identity;
}

std::vector<RevisionIdentity> revision_identities(const std::vector<const Series*>& series) {
  std::vector<RevisionIdentity> identities;
  for (const Series* one : series) {
    identities.push_back(revision_identity(*one));
  }
  std::vector<size_t> order(identities.size());
  for (size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(), [&identities](size_t a, size_t b) {
    return identities[a].revision < identities[b].revision;
  });
  RevisionLinks links;
  for (const size_t i : order) {
    identities[i] = links.resolve(identities[i]);
    links.add(identities[i]);
  }
  return identities;
}

}  // namespace kseries
