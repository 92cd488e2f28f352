/* memory_protect_host: host code that dereferences a device pointer faults,
 * as it does on hardware, where the CPU has memory protection keys and the
 * program asks for them (NPUEMU_PKEYS=1, experimental; issue #14 point 2;
 * docs/hardening.md "Protection keys"). Without keys (no pku in
 * /proc/cpuinfo, or NPUEMU_PKEYS not 1) the emulator cannot stop host
 * code, says so in `npuemu info`, and host code reads what the device
 * holds.
 *
 * The program runs itself once per access (a child each, so that the fault
 * kills only the child): the child allocates device memory, fills it with
 * aclrtMemcpy and then reads or writes it from host code — on the main
 * thread, or on a thread it starts after aclInit — and exits 0 if the
 * access went through. With keys the parent expects each child to die of
 * SIGSEGV with npuemu's message on its stderr; a child run with
 * NPUEMU_PKEYS=0 goes through everywhere. The parent, keyed like the
 * children, checks that the library's own accesses to device memory (copies
 * both ways, a memset, from the calling thread) work before and after.
 *
 * needs: emulator
 * env: NPUEMU_PROTECT=1 NPUEMU_PKEYS=1
 */
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

extern char **environ;

static int has_pkeys(void) {
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[8192];
    int pku = 0, ospke = 0;
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "flags", 5) != 0) continue;
        pku = strstr(line, " pku ") != NULL || strstr(line, " pku\n") != NULL;
        ospke = strstr(line, " ospke ") != NULL || strstr(line, " ospke\n") != NULL;
        break;
    }
    if (f != NULL) fclose(f);
    return pku && ospke;
}

static volatile uint32_t *dev;

static void *touch(void *write) {
    if (write != NULL)
        dev[1] = 7;
    else
        printf("host read %u\n", (unsigned)dev[0]);
    fflush(stdout);
    return NULL;
}

/* child: MODE is "read", "write", "thread-read". */
static int child(const char *mode) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    void *p = NULL;
    CHECK_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    uint32_t v[2] = {41, 42};
    CHECK_OK(aclrtMemcpy(p, sizeof v, v, sizeof v, ACL_MEMCPY_HOST_TO_DEVICE));
    dev = p;
    if (strcmp(mode, "thread-read") == 0) {
        pthread_t t;
        CHECK(pthread_create(&t, NULL, touch, NULL) == 0);
        pthread_join(t, NULL);
    } else {
        touch(strcmp(mode, "write") == 0 ? (void *)1 : NULL);
    }
    /* Reached only where host code is not stopped: the access went through. */
    CHECK_OK(aclrtMemcpy(v, sizeof v, p, sizeof v, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(v[0], 41u);
    if (strcmp(mode, "write") == 0) CHECK_EQ(v[1], 7u);
    printf("child %s: went through\n", mode);
    return 0;
}

/* run spawns this program as child MODE, with NPUEMU_PKEYS=pkeys, and
 * returns its wait status, with its stderr in err. */
static int run(const char *self, const char *mode, const char *pkeys, char *err, size_t n) {
    static char *envp[1024];
    static char kv[64];
    size_t k = 0;
    for (char **e = environ; *e != NULL && k < 1022; e++)
        if (strncmp(*e, "NPUEMU_PKEYS=", 13) != 0) envp[k++] = *e;
    snprintf(kv, sizeof kv, "NPUEMU_PKEYS=%s", pkeys);
    envp[k++] = kv;
    envp[k] = NULL;
    int fd[2];
    CHECK(pipe(fd) == 0);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], STDERR_FILENO);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    posix_spawn_file_actions_addclose(&fa, fd[1]);
    char *argv[] = {(char *)self, "--child", (char *)mode, NULL};
    pid_t pid;
    CHECK(posix_spawn(&pid, self, &fa, NULL, argv, envp) == 0);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    size_t got = 0;
    ssize_t r;
    while (got < n - 1 && (r = read(fd[0], err + got, n - 1 - got)) > 0) got += (size_t)r;
    err[got] = 0;
    close(fd[0]);
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid);
    return st;
}

/* own: the library's accesses from this thread still work. */
static void own(void) {
    void *p = NULL;
    uint32_t v[4] = {1, 2, 3, 4}, w[4] = {0};
    CHECK_OK(aclrtMalloc(&p, sizeof v, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(p, sizeof v, v, sizeof v, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(w, sizeof w, p, sizeof w, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(memcmp(v, w, sizeof v) == 0);
    CHECK_OK(aclrtMemset(p, sizeof v, 0, sizeof v));
    CHECK_OK(aclrtMemcpy(w, sizeof w, p, sizeof w, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(w[3], 0u);
    CHECK_OK(aclrtFree(p));
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--child") == 0) return child(argv[2]);
    const char *self = "/proc/self/exe";
    int keys = has_pkeys();
    printf("protection keys: %s\n", keys ? "yes" : "no");
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    own();
    const char *modes[] = {"read", "write", "thread-read"};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        char err[4096];
        int st = run(self, modes[i], "1", err, sizeof err);
        printf("child %s: %s%d; stderr: %s\n", modes[i], WIFSIGNALED(st) ? "signal " : "exit ",
               WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st), err);
        if (keys) {
            if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGSEGV)
                FAIL("child %s: want death by SIGSEGV, got status %#x", modes[i], st);
            if (strstr(err, "npuemu: host code") == NULL || strstr(err, "device memory at 0x") == NULL)
                FAIL("child %s: stderr lacks npuemu's message: %s", modes[i], err);
            if (strstr(err, strcmp(modes[i], "write") == 0 ? "wrote" : "read") == NULL)
                FAIL("child %s: the message does not say what the access was: %s", modes[i], err);
        } else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            FAIL("child %s: host access without protection keys: want exit 0, got status %#x: %s", modes[i], st, err);
        }
    }
    char err[4096];
    int st = run(self, "read", "0", err, sizeof err);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        FAIL("child read with NPUEMU_PKEYS=0: want exit 0, got status %#x: %s", st, err);
    own();
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("ok\n");
    return 0;
}
