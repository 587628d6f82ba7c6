#include "kernel/elf_section.h"

#include <cstring>

#include "core/error.h"
#include "sys/files.h"

namespace kseries::kernel {

namespace {

uint64_t load(std::string_view image, uint64_t at, size_t size, const std::string& what) {
  if (at > image.size() || size > image.size() - at) {
    throw usage_error(what + ": not a valid ELF file (field at byte " + std::to_string(at) +
                      " is past its end, " + std::to_string(image.size()) + " bytes)");
  }
  uint64_t value = 0;
  std::memcpy(&value, image.data() + at, size);  // little-endian, as the host
  return value;
}

}  // namespace

std::optional<std::string> elf_section(std::string_view image, std::string_view name,
                                       const std::string& what) {
  if (image.size() < 64 || image.substr(0, 4) !=
                               "\x7f"
                               "ELF") {
    throw usage_error(what + ": not an ELF file");
  }
  if (image[4] != 2 || image[5] != 1) {
    throw usage_error(what + ": not a 64-bit little-endian ELF file");
  }
  const uint64_t shoff = load(image, 0x28, 8, what);
  const uint64_t shentsize = load(image, 0x3a, 2, what);
  const uint64_t shnum = load(image, 0x3c, 2, what);
  const uint64_t shstrndx = load(image, 0x3e, 2, what);
  if (shentsize < 64 || shstrndx >= shnum) {
    throw usage_error(what + ": not a valid ELF file (section header table)");
  }
  auto header = [&](uint64_t index, uint64_t field, size_t size) {
    return load(image, shoff + index * shentsize + field, size, what);
  };
  const uint64_t strtab = header(shstrndx, 0x18, 8);
  const uint64_t strtab_size = header(shstrndx, 0x20, 8);
  for (uint64_t i = 0; i < shnum; ++i) {
    const uint64_t name_at = header(i, 0x00, 4);
    if (name_at >= strtab_size) {
      continue;
    }
    load(image, strtab + name_at, 1, what);
    const std::string_view rest = image.substr(strtab + name_at);
    const std::string_view section_name = rest.substr(0, rest.find('\0'));
    if (section_name != name) {
      continue;
    }
    const uint64_t type = header(i, 0x04, 4);
    const uint64_t offset = header(i, 0x18, 8);
    const uint64_t size = header(i, 0x20, 8);
    if (type == 8) {  // SHT_NOBITS: zeroes, not in the file
      return std::string(size, '\0');
    }
    load(image, offset, 0, what);
    if (size > image.size() - offset) {
      throw usage_error(what + ": section " + std::string(name) + " runs past the end of the file");
    }
    return std::string(image.substr(offset, size));
  }
  return std::nullopt;
}

std::optional<std::string> read_elf_section(const std::filesystem::path& file,
                                            std::string_view name) {
  return elf_section(read_file(file), name, file.string());
}

uint64_t module_sizeof_page(const std::filesystem::path& ko) {
  const auto bytes = read_elf_section(ko, k_sizeof_page_section);
  if (!bytes) {
    throw usage_error(ko.string() + " has no " + std::string(k_sizeof_page_section) +
                      " section (a module built from older sources?)");
  }
  if (bytes->size() != 8) {
    throw usage_error(ko.string() + ": " + std::string(k_sizeof_page_section) + " is " +
                      std::to_string(bytes->size()) + " bytes, not 8");
  }
  uint64_t value = 0;
  std::memcpy(&value, bytes->data(), 8);
  return value;
}

}  // namespace kseries::kernel
