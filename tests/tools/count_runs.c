// A stand-in for the kseries binary that counts its runs for
// ci/hostile-rerun: it runs the real binary (KSERIES_REAL) as its child,
// forwards every signal it gets to it (a scenario that signals "kseries"
// signals the real one), and appends one line per run to KSERIES_RUN_LOG:
// "exit N" or "signal N" (killed by signal N), then ends the same way.
// The child gets the caller's signal dispositions and mask unchanged.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile pid_t child;

static void forward(int sig) {
  if (child > 0) {
    kill(child, sig);
  }
}

int main(int argc, char** argv) {
  (void)argc;
  const char* real = getenv("KSERIES_REAL");
  const char* log = getenv("KSERIES_RUN_LOG");
  if (real == NULL || log == NULL) {
    fprintf(stderr, "count_runs: KSERIES_REAL and KSERIES_RUN_LOG must be set\n");
    return 127;
  }
  pid_t pid = fork();
  if (pid < 0) {
    perror("count_runs: fork");
    return 127;
  }
  if (pid == 0) {
    argv[0] = (char*)real;
    execv(real, argv);
    perror("count_runs: exec");
    _exit(127);
  }
  child = pid;
  static const int k_forwarded[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGTERM, SIGUSR1,
                                    SIGUSR2, SIGALRM, SIGPIPE, SIGCONT, SIGWINCH};
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = forward;
  sigemptyset(&action.sa_mask);
  for (size_t i = 0; i < sizeof k_forwarded / sizeof k_forwarded[0]; ++i) {
    sigaction(k_forwarded[i], &action, NULL);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      perror("count_runs: waitpid");
      return 127;
    }
  }
  char line[64];
  int n = WIFSIGNALED(status) ? snprintf(line, sizeof line, "signal %d\n", WTERMSIG(status))
                              : snprintf(line, sizeof line, "exit %d\n", WEXITSTATUS(status));
  int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0) {
    if (write(fd, line, (size_t)n) != n) {
      perror("count_runs: log");
    }
    close(fd);
  }
  if (WIFSIGNALED(status)) {
    signal(WTERMSIG(status), SIG_DFL);
    raise(WTERMSIG(status));
  }
  return WEXITSTATUS(status);
}
