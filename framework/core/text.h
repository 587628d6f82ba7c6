#pragma once
// Small text helpers shared by the parsers: line splitting that keeps line
// numbers, trimming, prefix tests.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kseries {

// Splits on '\n'; a trailing '\r' is dropped from each line. A final newline
// does not produce an empty last line.
std::vector<std::string_view> split_lines(std::string_view text);

// Splits on runs of spaces and tabs; no empty words.
std::vector<std::string> split_words(std::string_view text);

std::string_view trim(std::string_view text);
bool starts_with(std::string_view text, std::string_view prefix);
std::string to_lower(std::string_view text);
// Joins with '\n' after each element.
std::string join_lines(const std::vector<std::string>& lines);
// The last LINES lines of TEXT, newlines kept (all of TEXT when it has
// fewer; "" for none); a final newline ends the last line, it does not
// start an empty one.
std::string last_lines(std::string_view text, std::size_t lines);
// A memory size as QEMU's -m takes it in kseries' files: digits and a unit,
// M or G ("4096M", "16G"), in MiB; nullopt for anything else (no unit,
// other units, signs, more than 12 digits).
std::optional<std::uint64_t> size_in_mib(std::string_view value);

}  // namespace kseries
