#pragma once
// The store's object database, built by hand instead of by libgit2: its own
// objects (written, and freshened, as libgit2 does) and, strictly read-only,
// the object directories objects/info/alternates lists -- the user's
// repository among them. libgit2's own alternates are not read-only:
// git_odb_write of an object that already exists "freshens" it in whichever
// backend has it, touching the user's loose object file or pack.

#include <filesystem>

#include "git/libgit2.h"

namespace kseries::git {

// An object database over `objects` (a repository's objects directory) and,
// read-only, every alternate its info/alternates lists (recursively, as git
// does, up to 5 levels). Throws Error(k_infrastructure) when a backend
// cannot be opened.
OdbPtr open_store_odb(const std::filesystem::path& objects);

// Adds `objects` (and its own alternates) to `odb` read-only: readable,
// never written or freshened.
void add_read_only_alternate(git_odb* odb, const std::filesystem::path& objects);

}  // namespace kseries::git
