#pragma once
// Reads one file of a commit's tree from the store, without a checkout
// (e.g. the tree's own scripts/checkpatch.pl).

#include <git2.h>

#include <optional>
#include <string>

#include "git/store.h"

namespace kseries::git {

// The content of PATH in COMMIT's tree; nullopt when there is no such blob.
std::optional<std::string> read_blob_at(const Store& store, const git_oid& commit,
                                        const std::string& path);

}  // namespace kseries::git
