#pragma once
// File-system access for the domain modules: whole-file reads and writes with
// errors that name the file.

#include <filesystem>
#include <string>
#include <string_view>

namespace kseries {

// Throws Error(k_usage) naming the file when it cannot be read.
std::string read_file(const std::filesystem::path& path);
// Creates or truncates. Throws Error(k_infrastructure) naming the file.
void write_file(const std::filesystem::path& path, std::string_view content);
// Creates the file; refuses (k_infrastructure) if it exists already.
void write_new_file(const std::filesystem::path& path, std::string_view content);

}  // namespace kseries
