/* init_fork_pool: the pattern of Python multiprocessing with the "fork" start
 * method: the parent loads the runtime's library (here by dlopen, as a
 * Python import does, and by linking), calls nothing, and forks a pool of
 * workers at once; each worker initialises the runtime on its own and runs
 * a whole session with a kernel launch, concurrently with the others. Every
 * worker succeeds, none hangs, and the parent works after them (issue #12
 * point 5, docs/node.md "fork").
 *
 * needs: emulator
 */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "fork_work.h"

#define WORKERS 3

int main(void) {
    char so[4096];
    fork_vadd_build(__FILE__, so, sizeof so);
    /* The "import": a local dlopen of the library, nothing called. */
    void *h = dlopen("libascendcl.so", RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) FAIL("dlopen(libascendcl.so): %s", dlerror());
    aclError (*init)(const char *) = (aclError (*)(const char *))dlsym(h, "aclInit");
    CHECK(init != NULL);

    /* Start every worker before any of them runs: they start together. */
    int go[2];
    CHECK(pipe(go) == 0);
    pid_t pids[WORKERS];
    for (int w = 0; w < WORKERS; w++) {
        pids[w] = fork();
        CHECK(pids[w] >= 0);
        if (pids[w] == 0) {
            alarm(50);
            close(go[1]);
            char c;
            while (read(go[0], &c, 1) < 0 && errno == EINTR) {
            }
            _exit(fork_session(so, 100 + w));
        }
    }
    close(go[0]);
    close(go[1]); /* every worker's read returns now */
    for (int w = 0; w < WORKERS; w++) {
        int st = fork_wait(pids[w]);
        if (st != 0) FAIL("worker %d (pid %d) exited with %d", w, (int)pids[w], st);
    }

    /* The parent's first call, through the dlopen'ed handle: the library's
     * state is not the workers'. */
    CHECK_OK(init(NULL));
    CHECK_OK(aclFinalize());
    CHECK_EQ(fork_session(so, 5), 0);
    dlclose(h);
    npuemu_remove_kernel(so);
    return 0;
}
