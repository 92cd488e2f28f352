/* init_fork_before: a child forked before the parent called the runtime
 * (Python multiprocessing's "fork" after import) works normally once it
 * calls aclInit: device, memory, a kernel launch, synchronisation, the
 * right result. The parent, which forked without calling anything, works
 * afterwards too, and so does a child started with exec (issue #12 point 5,
 * docs/node.md "fork"). A child must not hang: the runner's case timeout
 * bounds it, and each child arms an alarm.
 *
 * needs: emulator
 */
#include "fork_work.h"

int main(int argc, char **argv) {
    char so[4096];
    if (argc > 2) return fork_session(argv[2], 200); /* the exec'd child */
    fork_vadd_build(__FILE__, so, sizeof so);

    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        alarm(50);
        _exit(fork_session(so, 7));
    }
    CHECK_EQ(fork_wait(pid), 0);

    /* The parent forked before its first call: it works as well. */
    CHECK_EQ(fork_session(so, 11), 0);

    /* A child started with exec works too (node_proc.h spawns with argv[1]
     * = role; the kernel's path follows). */
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    CHECK(n > 0);
    self[n] = 0;
    char *args[] = {self, "exec", so, NULL};
    pid_t ex;
    CHECK(posix_spawn(&ex, self, &fa, NULL, args, environ) == 0);
    posix_spawn_file_actions_destroy(&fa);
    CHECK_EQ(fork_wait(ex), 0);
    npuemu_remove_kernel(so);
    return 0;
}
