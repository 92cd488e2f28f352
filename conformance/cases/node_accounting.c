/* node_accounting: device memory is accounted node-wide. Process A holds
 * 40 GiB; process B sees them in aclrtGetMemInfo, cannot take 40 GiB more,
 * and gets the documented out-of-memory code; when B frees, A sees it.
 * (issue #12 point 1; semantics: aclrtGetMemInfo reports the device.) */
#include "node_proc.h"

static void child(void) {
    char line[256];
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    size_t free0 = 0, total = 0;
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
    /* A's 40 GiB are in use for B too. */
    CHECK(total - free0 >= 40 * GiB);
    void *p = NULL;
    CHECK_ERR(aclrtMalloc(&p, 40 * GiB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    CHECK_OK(aclrtMalloc(&p, 8 * GiB, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemset(p, 2 * MiB, 0x5a, 2 * MiB));
    size_t free1 = 0;
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    CHECK(free0 - free1 >= 8 * GiB);
    send_line(4, "allocated");
    recv_line(3, line, sizeof line); /* "free" */
    CHECK_OK(aclrtFree(p));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    send_line(4, "done");
}

int main(int argc, char **argv) {
    if (argc > 1) {
        child();
        return 0;
    }
    char line[256];
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    size_t free0 = 0, total = 0;
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
    if (total < 48 * GiB) SKIP("needs a device of 48 GiB or more, this one has %zu bytes", total);
    void *p = NULL;
    CHECK_OK(aclrtMalloc(&p, 40 * GiB, ACL_MEM_MALLOC_HUGE_FIRST));
    size_t freeA = 0; /* the runtime pads and rounds: measure what A holds */
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &freeA, &total));
    CHECK(free0 - freeA >= 40 * GiB);

    struct child c = spawn_child("child");
    recv_line(c.from, line, sizeof line);
    CHECK(strcmp(line, "allocated") == 0);
    size_t free1 = 0;
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    CHECK(freeA - free1 >= 8 * GiB); /* the child's, on top of ours */
    /* Neither can A exceed what is left. */
    void *q = NULL;
    CHECK_ERR(aclrtMalloc(&q, free1 + 2 * MiB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    send_line(c.to, "free");
    recv_line(c.from, line, sizeof line);
    CHECK(strcmp(line, "done") == 0);
    CHECK_EQ(wait_child(c), 0);
    size_t free2 = 0;
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free2, &total));
    CHECK_EQ(free2, freeA); /* the child's memory came back */
    CHECK_OK(aclrtFree(p));
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free2, &total));
    CHECK_EQ(free2, free0);
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
