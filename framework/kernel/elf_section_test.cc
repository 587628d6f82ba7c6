#include "kernel/elf_section.h"

#include <gtest/gtest.h>

#include <cstring>

#include "core/error.h"
#include "kernel/kernel_build.h"
#include "testing/temp_dir.h"

namespace kseries::kernel {
namespace {

void put(std::string& image, size_t at, uint64_t value, size_t size) {
  if (image.size() < at + size) {
    image.resize(at + size, '\0');
  }
  std::memcpy(image.data() + at, &value, size);
}

// A minimal ELF64 LE relocatable: a null section, SECTION holding BYTES,
// and .shstrtab, as a linker lays them out (data, names, then the table).
std::string make_elf(const std::string& section, const std::string& bytes) {
  std::string image(64, '\0');
  image.replace(0, 7,
                std::string("\x7f"
                            "ELF\x02\x01\x01",
                            7));
  put(image, 0x10, 1, 2);   // ET_REL
  put(image, 0x12, 62, 2);  // EM_X86_64
  put(image, 0x14, 1, 4);
  put(image, 0x34, 64, 2);
  const size_t data_at = image.size();
  image += bytes;
  const std::string names = std::string("\0", 1) + section + '\0' + ".shstrtab" + '\0';
  const size_t names_at = image.size();
  image += names;
  while (image.size() % 8 != 0) {
    image += '\0';
  }
  const size_t table_at = image.size();
  image.resize(table_at + 3 * 64, '\0');
  auto header = [&](int i, uint64_t name, uint64_t type, uint64_t offset, uint64_t size) {
    const size_t h = table_at + static_cast<size_t>(i) * 64;
    put(image, h + 0x00, name, 4);
    put(image, h + 0x04, type, 4);
    put(image, h + 0x18, offset, 8);
    put(image, h + 0x20, size, 8);
  };
  header(1, 1, 1, data_at, bytes.size());
  header(2, 1 + section.size() + 1, 3, names_at, names.size());
  put(image, 0x28, table_at, 8);
  put(image, 0x3a, 64, 2);
  put(image, 0x3c, 3, 2);
  put(image, 0x3e, 2, 2);
  return image;
}

std::string u64(uint64_t value) {
  std::string bytes(8, '\0');
  std::memcpy(bytes.data(), &value, 8);
  return bytes;
}

TEST(ElfSection, FindsTheNamedSection) {
  const std::string image = make_elf(".kseries.sizeof_page", u64(80));
  EXPECT_EQ(elf_section(image, ".kseries.sizeof_page", "x.ko"), u64(80));
  EXPECT_EQ(elf_section(image, ".shstrtab", "x.ko")->substr(1, 20), ".kseries.sizeof_page");
  EXPECT_FALSE(elf_section(image, ".kseries", "x.ko").has_value());  // a prefix is not a match
}

TEST(ElfSection, ModuleSizeofPageReadsTheWord) {
  testing::TempDir tmp;
  for (uint64_t size : {64ULL, 80ULL, 96ULL}) {
    testing::put_file(tmp / "m.ko", make_elf(std::string(k_sizeof_page_section), u64(size)));
    EXPECT_EQ(module_sizeof_page(tmp / "m.ko"), size);
  }
  testing::put_file(tmp / "old.ko", make_elf(".modinfo", "license=GPL"));
  try {
    module_sizeof_page(tmp / "old.ko");
    FAIL() << "no section, no size";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("has no .kseries.sizeof_page section"), std::string::npos)
        << e.what();
  }
  testing::put_file(tmp / "short.ko", make_elf(std::string(k_sizeof_page_section), "\x50"));
  EXPECT_THROW(module_sizeof_page(tmp / "short.ko"), Error);
}

TEST(ElfSection, MalformedImagesAreUsageErrors) {
  EXPECT_THROW(elf_section("ELF", ".x", "fake.ko"), Error);  // the stand-ins' .ko
  std::string image = make_elf(".x", u64(1));
  std::string elf32 = image;
  elf32[4] = 1;
  EXPECT_THROW(elf_section(elf32, ".x", "a.ko"), Error);
  std::string cut = image.substr(0, image.size() - 100);  // the section table cut off
  EXPECT_THROW(elf_section(cut, ".x", "a.ko"), Error);
  std::string far = image;
  put(far, 0x28, 1ULL << 40, 8);  // e_shoff far past the end
  EXPECT_THROW(elf_section(far, ".x", "a.ko"), Error);
}

TEST(ElfSection, TheTargetsStructPageCheck) {
  testing::TempDir tmp;
  Target target;
  target.name = "pmem-big";
  target.file = tmp / "pmem-big.target";
  KernelBuild kernel;
  EXPECT_EQ(check_struct_page(target, kernel), "");  // no struct-page: line, nothing read
  target.struct_page = 80;
  EXPECT_NE(check_struct_page(target, kernel).find("there is no memmap dumper"), std::string::npos);
  kernel.module_errors["memmap-dump"] = "memmap_dump.c:1: error: boom";
  EXPECT_NE(check_struct_page(target, kernel).find("did not build: memmap_dump.c:1: error: boom"),
            std::string::npos);
  kernel.module_errors.clear();
  kernel.modules["memmap-dump"] = tmp / "memmap_dump.ko";
  testing::put_file(tmp / "memmap_dump.ko", make_elf(std::string(k_sizeof_page_section), u64(80)));
  EXPECT_EQ(check_struct_page(target, kernel), "");
  testing::put_file(tmp / "memmap_dump.ko", make_elf(std::string(k_sizeof_page_section), u64(64)));
  EXPECT_EQ(check_struct_page(target, kernel),
            "sizeof(struct page) is 64 bytes in this kernel (memmap_dump.ko's "
            ".kseries.sizeof_page): target pmem-big requires sizeof(struct page) 80 "
            "(struct-page: in pmem-big.target)");
  testing::put_file(tmp / "memmap_dump.ko", "ELF");  // a stand-in's module
  EXPECT_NE(check_struct_page(target, kernel).find("cannot read it: "), std::string::npos);
}

}  // namespace
}  // namespace kseries::kernel
