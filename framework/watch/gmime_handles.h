#pragma once
// GMime, initialised once for the process, and its objects held by
// unique_ptr (g_object_unref, g_free, the references' own free).

#include <gmime/gmime.h>

#include <memory>

namespace kseries::watch {

// g_mime_init() once (it is reference-counted: another user's call is fine).
void ensure_gmime();

struct GObjectUnref {
  void operator()(void* object) const { g_object_unref(object); }
};
template <typename T>
using GObjectPtr = std::unique_ptr<T, GObjectUnref>;

struct GFree {
  void operator()(void* memory) const { g_free(memory); }
};
using GCharPtr = std::unique_ptr<char, GFree>;

struct ReferencesFree {
  void operator()(GMimeReferences* refs) const { g_mime_references_free(refs); }
};
using ReferencesPtr = std::unique_ptr<GMimeReferences, ReferencesFree>;

struct FormatOptionsFree {
  void operator()(GMimeFormatOptions* options) const { g_mime_format_options_free(options); }
};
using FormatOptionsPtr = std::unique_ptr<GMimeFormatOptions, FormatOptionsFree>;

}  // namespace kseries::watch
