#pragma once
// Every JSON file kseries writes goes through here: indented, one final
// newline, and never an exception for a string that is not UTF-8 (a console
// line with 0xFF once killed `kseries boot` after its boots had finished).
// Strings should be cleaned at their boundary (core/utf8.h); this is the
// backstop: a stray byte becomes U+FFFD.

#include <nlohmann/json.hpp>
#include <string>

namespace kseries {

std::string json_text(const nlohmann::json& json);

}  // namespace kseries
