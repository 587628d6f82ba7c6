#pragma once
// A "newc" cpio archive, the format the kernel unpacks as an initramfs.
// Deterministic: entries in insertion order, mtime 0, uid/gid 0.

#include <cstdint>
#include <string>
#include <string_view>

namespace kseries::guest {

class CpioWriter {
 public:
  void add_directory(const std::string& path);
  void add_file(const std::string& path, std::string_view content, std::uint32_t mode = 0644);
  void add_symlink(const std::string& path, const std::string& target);
  void add_char_device(const std::string& path, std::uint32_t major, std::uint32_t minor,
                       std::uint32_t mode = 0600);
  // Appends the trailer and returns the archive.
  std::string finish();

 private:
  void add(const std::string& path, std::uint32_t mode, std::string_view data,
           std::uint32_t rdev_major = 0, std::uint32_t rdev_minor = 0);
  std::string m_out;
  std::uint32_t m_next_inode = 1;
};

}  // namespace kseries::guest
