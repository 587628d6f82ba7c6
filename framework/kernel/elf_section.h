#pragma once
// The bytes of one named section of an ELF64 little-endian file (a .ko, a
// .o): how kseries reads what a test module recorded about the kernel it was
// built against (the memmap dumper's .kseries.sizeof_page: sizeof(struct
// page)) without booting it.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace kseries::kernel {

// The section's bytes; nullopt when the file has no section of that name.
// Throws Error(k_usage) naming the file for anything that is not a
// well-formed ELF64 little-endian image (bad magic, class, tables outside
// the file).
std::optional<std::string> elf_section(std::string_view image, std::string_view name,
                                       const std::string& what);
std::optional<std::string> read_elf_section(const std::filesystem::path& file,
                                            std::string_view name);

// The section a test module keeps sizeof(struct page) in (one u64).
inline constexpr std::string_view k_sizeof_page_section = ".kseries.sizeof_page";

// sizeof(struct page) recorded in KO; Error(k_usage) when the section is
// missing or is not 8 bytes.
uint64_t module_sizeof_page(const std::filesystem::path& ko);

}  // namespace kseries::kernel
