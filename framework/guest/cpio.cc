#include "guest/cpio.h"

#include <cstdio>

namespace kseries::guest {

namespace {

void pad4(std::string& out) {
  while (out.size() % 4 != 0) {
    out += '\0';
  }
}

}  // namespace

void CpioWriter::add(const std::string& path, std::uint32_t mode, std::string_view data,
                     std::uint32_t rdev_major, std::uint32_t rdev_minor) {
  const std::uint32_t fields[13] = {m_next_inode++,
                                    mode,
                                    0,
                                    0,
                                    (mode & 0170000) == 0040000 ? 2u : 1u,
                                    0,
                                    static_cast<std::uint32_t>(data.size()),
                                    0,
                                    0,
                                    rdev_major,
                                    rdev_minor,
                                    static_cast<std::uint32_t>(path.size() + 1),
                                    0};
  m_out += "070701";
  char hex[9];
  for (std::uint32_t field : fields) {
    std::snprintf(hex, sizeof hex, "%08X", field);
    m_out += hex;
  }
  m_out += path;
  m_out += '\0';
  pad4(m_out);
  m_out.append(data);
  pad4(m_out);
}

void CpioWriter::add_directory(const std::string& path) { add(path, 0040755, {}); }

void CpioWriter::add_file(const std::string& path, std::string_view content, std::uint32_t mode) {
  add(path, 0100000 | (mode & 07777), content);
}

void CpioWriter::add_symlink(const std::string& path, const std::string& target) {
  add(path, 0120777, target);
}

void CpioWriter::add_char_device(const std::string& path, std::uint32_t major, std::uint32_t minor,
                                 std::uint32_t mode) {
  add(path, 0020000 | (mode & 07777), {}, major, minor);
}

std::string CpioWriter::finish() {
  add("TRAILER!!!", 0, {});
  return std::move(m_out);
}

}  // namespace kseries::guest
