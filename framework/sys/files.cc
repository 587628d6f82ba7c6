#include "sys/files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/error.h"

namespace kseries {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw usage_error("cannot read " + path.string() + ": " + std::strerror(errno));
  }
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

void write_file(const std::filesystem::path& path, std::string_view content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  if (!out) {
    throw infra_error("cannot write " + path.string() + ": " + std::strerror(errno));
  }
}

void write_new_file(const std::filesystem::path& path, std::string_view content) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    throw infra_error("cannot create " + path.string() + ": " + std::strerror(errno));
  }
  size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      int saved = errno;
      ::close(fd);
      throw infra_error("cannot write " + path.string() + ": " + std::strerror(saved));
    }
    done += static_cast<size_t>(n);
  }
  ::close(fd);
}

}  // namespace kseries
