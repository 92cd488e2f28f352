/* stack/harness.h: what the stack_* cases share. Each builds an
 * LD_PRELOAD library from a source of this folder, then runs itself again
 * as a child under it with the environment the caller set (NPUEMU_STACK,
 * the hook's own switches). Include after check.h. */
#ifndef NPUEMU_CONFORMANCE_STACK_HARNESS_H
#define NPUEMU_CONFORMANCE_STACK_HARNESS_H

#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../../examples/kernels/build_kernel.h" /* npuemu_repo_of */

extern char **environ;

/* stack_build compiles repo/src into a fresh temporary folder; out is the
 * library's path. */
static void stack_build(const char *repo, const char *src, char *out, size_t outlen) {
    char dir[] = "/tmp/npuemu-stack-XXXXXX";
    if (mkdtemp(dir) == NULL) FAIL("mkdtemp");
    const char *cc = getenv("CC");
    if (cc == NULL || *cc == 0) cc = "cc";
    snprintf(out, outlen, "%s/lib.so", dir);
    char cmd[20480];
    snprintf(cmd, sizeof cmd, "%s -shared -fPIC -O2 -Wall -Werror -I '%s/emu/include' -I '%s/emu/include/driver' '%s/%s' -o '%s' -ldl",
             cc, repo, repo, repo, src, out);
    if (system(cmd) != 0) FAIL("building %s failed: %s", src, cmd);
}

/* stack_self is the running executable's path. */
static void stack_self(char *self, size_t len) {
    ssize_t n = readlink("/proc/self/exe", self, len - 1);
    if (n <= 0) FAIL("readlink /proc/self/exe");
    self[n] = 0;
}

/* stack_spawn runs self with the one argument arg, preload in its
 * LD_PRELOAD (this process keeps none), and returns its wait status. */
static int stack_spawn(const char *self, const char *preload, const char *arg) {
    setenv("LD_PRELOAD", preload, 1);
    char *argv[] = {(char *)self, (char *)arg, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, self, NULL, NULL, argv, environ);
    unsetenv("LD_PRELOAD");
    if (rc != 0) FAIL("posix_spawn");
    int st;
    if (waitpid(pid, &st, 0) != pid) FAIL("waitpid");
    return st;
}

/* stack_ok says whether a wait status is a clean exit 0. */
static int stack_ok(int st) { return WIFEXITED(st) && WEXITSTATUS(st) == 0; }

/* stack_run_under builds the hook hook_src (a path of the repository) and
 * runs this program again with "--child" under it once per pair of runs, a
 * NULL-terminated list "layout", "value", ...: NPUEMU_STACK=layout and the
 * hook's switch sw=value. A child that fails fails the case. case_file is
 * the case's __FILE__. */
static inline void stack_run_under(const char *case_file, const char *hook_src, const char *sw, const char *const *runs) {
    char repo[4096], preload[4096], self[4096];
    npuemu_repo_of(case_file, 2, repo, sizeof repo);
    stack_build(repo, hook_src, preload, sizeof preload);
    stack_self(self, sizeof self);
    for (const char *const *r = runs; r[0] != NULL && r[1] != NULL; r += 2) {
        setenv("NPUEMU_STACK", r[0], 1);
        setenv(sw, r[1], 1);
        int st = stack_spawn(self, preload, "--child");
        if (!stack_ok(st)) FAIL("%s layout, %s=%s: the ACL program failed (status %#x)", r[0], sw, r[1], st);
    }
    unlink(preload);
}

/* STACK_BOTH_LAYOUTS: the switch off and on, in merged and split. */
#define STACK_BOTH_LAYOUTS {"merged", "0", "merged", "1", "split", "0", "split", "1", NULL}

#endif
