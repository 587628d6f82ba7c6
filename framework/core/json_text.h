#pragma once
// Every JSON file kseries writes goes through here: indented, one final
// newline, and never an exception for a string that is not UTF-8 (a console
// line with 0xFF once killed `kseries boot` after its boots had finished).
// Strings should be cleaned at their boundary (core/utf8.h); this is the
// backstop: a stray byte becomes U+FFFD.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace kseries {

std::string json_text(const nlohmann::json& json);

// The deepest nesting parse_json_text() takes: kseries' own files nest a
// few levels; 200,000 levels crashed a recursive copy (SIGSEGV).
constexpr std::size_t k_max_json_depth = 100;

// TEXT parsed, or a discarded value (is_discarded()) when it is not JSON or
// nests arrays and objects deeper than MAX_DEPTH (checked first, in one
// linear pass, before anything is built). Never throws.
nlohmann::json parse_json_text(std::string_view text, std::size_t max_depth = k_max_json_depth);

}  // namespace kseries
