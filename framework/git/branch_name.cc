#include "git/branch_name.h"

#include <git2.h>

#include <algorithm>
#include <cctype>

#include "core/error.h"
#include "core/text.h"

namespace kseries::git {

namespace {

// HEAD, FETCH_HEAD, ORIG_HEAD, MERGE_HEAD, CHERRY_PICK_HEAD, ...: git
// looks in $GIT_DIR first for such a name.
bool pseudo_ref(const std::string& name) {
  return name.size() >= 4 && name.compare(name.size() - 4, 4, "HEAD") == 0 &&
         std::all_of(name.begin(), name.end(), [](char c) { return std::isupper(c) || c == '_'; });
}

bool object_id(const std::string& name) {
  return name.size() == 40 && std::all_of(name.begin(), name.end(), [](char c) {
           return std::isxdigit(static_cast<unsigned char>(c));
         });
}

}  // namespace

std::string branch_name(const std::string& given) {
  const std::string name = starts_with(given, "refs/heads/") ? given.substr(11) : given;
  const auto refuse = [&](const std::string& why) {
    return usage_error("--branch '" + given + "' " + why);
  };
  int valid = 0;
  if (name.empty() || name.front() == '-' || name == "HEAD" ||
      git_reference_name_is_valid(&valid, ("refs/heads/" + name).c_str()) != 0 || !valid) {
    throw refuse("is not a valid git branch name");
  }
  if (name == "@" || pseudo_ref(name)) {
    throw refuse("names what git reads as " + std::string(name == "@" ? "HEAD" : name) +
                 ", not a branch");
  }
  for (const char* space : {"refs/", "heads/", "tags/", "remotes/"}) {
    if (starts_with(name, space)) {
      throw refuse("would be refs/heads/" + name + ", which git reads as refs/" +
                   (std::string(space) == "refs/" ? name.substr(5) : name) +
                   " first: give the branch's own name (x, or refs/heads/x)");
    }
  }
  if (object_id(name)) {
    throw refuse("reads as an object id: give a branch a name");
  }
  return name;
}

}  // namespace kseries::git
