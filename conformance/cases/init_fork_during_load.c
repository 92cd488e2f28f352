/* init_fork_during_load: children forked while another thread makes the
 * process's first call (the front library loading the Go core, docs/node.md
 * "fork") are of one of three kinds, depending on how far the load got:
 * forked before it, the child loads its own core and works; forked during
 * it or after it, every call fails with ACL_ERROR_RT_DEV_SETUP_ERROR and a
 * message naming fork. None hangs (each child arms an alarm; the runner's
 * timeout bounds the case) and none gets anything else. The parent works.
 *
 * needs: emulator
 */
#include <pthread.h>

#include "fork_work.h"

/* aclrtGetVersion (deprecated) is called on purpose: a call that needs no aclInit. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define CHILDREN 12

static void *first_call(void *arg) {
    (void)arg;
    int32_t major = 0, minor = 0, patch = 0;
    if (aclrtGetVersion(&major, &minor, &patch) != ACL_SUCCESS) return (void *)1;
    return NULL;
}

/* child: exit 0 when it works (kind 1) or fails clearly (kind 2); 1 else. */
static int child(void) {
    alarm(50);
    aclError e = aclInit(NULL);
    if (e == ACL_ERROR_RT_DEV_SETUP_ERROR) {
        const char *m = aclGetRecentErrMsg();
        if (m == NULL || strstr(m, "fork") == NULL) FAIL("aclInit failed without naming fork: %s", m ? m : "(null)");
        CHECK_ERR(aclrtSetDevice(0), ACL_ERROR_RT_DEV_SETUP_ERROR);
        return 20; /* failed clearly */
    }
    CHECK_OK(e);
    CHECK_OK(aclrtSetDevice(0));
    void *d = NULL;
    CHECK_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    unsigned char h[64] = {9}, back[64] = {0};
    CHECK_OK(aclrtMemcpy(d, sizeof h, h, sizeof h, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(back, sizeof back, d, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(back[0], 9);
    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 10; /* worked */
}

int main(void) {
    pthread_t t;
    CHECK(pthread_create(&t, NULL, first_call, NULL) == 0);
    pid_t pids[CHILDREN];
    for (int i = 0; i < CHILDREN; i++) {
        pids[i] = fork();
        CHECK(pids[i] >= 0);
        if (pids[i] == 0) _exit(child());
        struct timespec ts = {0, 2000000}; /* spread the forks over the load */
        nanosleep(&ts, NULL);
    }
    void *r = (void *)1;
    CHECK(pthread_join(t, &r) == 0);
    CHECK(r == NULL);
    int worked = 0, refused = 0;
    for (int i = 0; i < CHILDREN; i++) {
        int st = fork_wait(pids[i]);
        if (st == 10) {
            worked++;
        } else if (st == 20) {
            refused++;
        } else {
            FAIL("child %d (pid %d) exited with %d", i, (int)pids[i], st);
        }
    }
    printf("%d children worked, %d were refused naming fork\n", worked, refused);
    /* After the load every child is refused. */
    pid_t late = fork();
    CHECK(late >= 0);
    if (late == 0) _exit(child());
    CHECK_EQ(fork_wait(late), 20);
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclFinalize());
    return 0;
}
