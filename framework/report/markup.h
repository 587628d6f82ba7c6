#pragma once
// Text and links for the reports: every string from a run (patch subjects,
// console lines, compiler output) passes through escape() before it becomes
// HTML or SVG, so no byte of it can open a tag, an entity or an attribute,
// and the page stays well-formed (XHTML-compatible); paths become URLs
// through one percent-encoder.

#include <filesystem>
#include <string>
#include <string_view>

namespace kseries::report {

// Valid UTF-8 without control characters (report::xml_safe), then & < > " '
// as character references: safe as element text and as a quoted attribute.
std::string escape(std::string_view text);

// Every byte but [A-Za-z0-9/._~-] as %XX.
std::string percent_encode(std::string_view path);

// A file:// URL for PATH (made absolute).
std::string file_url(const std::filesystem::path& path);

// An href for TARGET from a page in PAGE_DIR: relative when both are
// absolute (the page and the run directory move together), else a file://
// URL; escaped for an attribute.
std::string href(const std::filesystem::path& target, const std::filesystem::path& page_dir);

}  // namespace kseries::report
