/* node_proc.h: helpers of the multi-process cases (node_*, ipc_*, fork_*).
 *
 * A case re-executes itself as a child with posix_spawn (never a bare
 * fork: a child of a process that loaded the runtime must exec, see
 * fork_*.c). The child gets its role in argv[1] and talks to the parent
 * over two pipes on fds 3 (from the parent) and 4 (to the parent), one
 * line at a time. Every child is bounded: it exits when its parent's pipe
 * closes. */
#ifndef NPUEMU_CONFORMANCE_NODE_PROC_H
#define NPUEMU_CONFORMANCE_NODE_PROC_H

#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

extern char **environ;

struct child {
    pid_t pid;
    int to, from; /* the parent's ends */
};

/* spawn_child starts this program with argv[1] = role. */
static inline struct child spawn_child(const char *role) {
    int down[2], up[2];
    CHECK(pipe(down) == 0 && pipe(up) == 0);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, down[0], 3);
    posix_spawn_file_actions_adddup2(&fa, up[1], 4);
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    CHECK(n > 0);
    self[n] = 0;
    char *argv[] = {self, (char *)role, NULL};
    struct child c = {0};
    CHECK(posix_spawn(&c.pid, self, &fa, NULL, argv, environ) == 0);
    posix_spawn_file_actions_destroy(&fa);
    close(down[0]);
    close(up[1]);
    c.to = down[1];
    c.from = up[0];
    return c;
}

/* send_line writes one formatted line to fd. */
static inline void send_line(int fd, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
    va_end(ap);
    buf[n++] = '\n';
    CHECK(write(fd, buf, (size_t)n) == n);
}

/* recv_line reads one line from fd into buf (without the newline); it
 * fails the case when the other side closed its end first. */
static inline void recv_line(int fd, char *buf, size_t len) {
    size_t i = 0;
    while (i + 1 < len) {
        char ch;
        ssize_t r = read(fd, &ch, 1);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) FAIL("the other process closed its pipe (it failed or exited early)");
        if (ch == '\n') break;
        buf[i++] = ch;
    }
    buf[i] = 0;
}

/* wait_child waits for c and returns its exit status (-signal if killed). */
static inline int wait_child(struct child c) {
    int st = 0;
    while (waitpid(c.pid, &st, 0) < 0) CHECK(errno == EINTR);
    close(c.to);
    close(c.from);
    if (WIFSIGNALED(st)) return -WTERMSIG(st);
    return WEXITSTATUS(st);
}

/* sleep_ms sleeps ms milliseconds (polling loops with a deadline only). */
static inline void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
    }
}

#define GiB (1ull << 30)
#define MiB (1ull << 20)

#endif
