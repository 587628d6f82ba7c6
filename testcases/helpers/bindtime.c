// bindtime FILE VALUE: writes VALUE to FILE (a sysfs bind/unbind attribute)
// and prints how long the write took in nanoseconds (CLOCK_MONOTONIC).
// Built static by kseries for the guest; busybox has no ns clock.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: bindtime FILE VALUE\n");
    return 2;
  }
  int fd = open(argv[1], O_WRONLY);
  if (fd < 0) {
    fprintf(stderr, "bindtime: %s: %s\n", argv[1], strerror(errno));
    return 1;
  }
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  ssize_t n = write(fd, argv[2], strlen(argv[2]));
  clock_gettime(CLOCK_MONOTONIC, &end);
  int saved = errno;
  close(fd);
  if (n < 0) {
    fprintf(stderr, "bindtime: writing '%s' to %s: %s\n", argv[2], argv[1], strerror(saved));
    return 1;
  }
  long long ns = (long long)(end.tv_sec - start.tv_sec) * 1000000000LL + (end.tv_nsec - start.tv_nsec);
  printf("%lld\n", ns);
  return 0;
}
