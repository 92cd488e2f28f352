/* init_callbacks: aclInitCallbackRegister / aclFinalizeCallbackRegister hooks. */
#include "rt_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int init_calls, late_calls, fin_calls, fin_saw_init;
static char seen[256];
static size_t seen_len;

static aclError on_init(const char *cfg, size_t len, void *ud)
{
    init_calls += *(int *)ud;
    seen_len = len;
    snprintf(seen, sizeof seen, "%.*s", (int)len, cfg ? cfg : "");
    return ACL_SUCCESS;
}

static aclError on_late(const char *cfg, size_t len, void *ud)
{
    (void)cfg, (void)len, (void)ud;
    late_calls++;
    return ACL_SUCCESS;
}

static aclError on_fin(void *ud)
{
    fin_calls += *(int *)ud;
    /* The runtime is still usable from a finalize hook. */
    uint32_t n = 0;
    fin_saw_init = aclrtGetDeviceCount(&n) == ACL_SUCCESS && n > 0;
    return ACL_SUCCESS;
}

int main(void)
{
    static int one = 1;
    char path[] = "/tmp/dx_initcbXXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    const char *text = "{\"err_msg_mode\":\"0\"}";
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);

    /* doc: semantics.md §1 — registered before aclInit: runs in aclInit. */
    CHECK_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, on_init, &one));
    CHECK_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, on_fin, &one));
    CHECK_EQ(init_calls, 0);
    CHECK_OK(aclInit(path));
    unlink(path);
    CHECK_EQ(init_calls, 1);
    CHECK_EQ(seen_len, strlen(text));
    CHECK(strcmp(seen, text) == 0);

    /* Registered after aclInit: runs at once. */
    CHECK_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_DVPP, on_late, NULL));
    CHECK_EQ(late_calls, 1);
    CHECK_OK(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_DVPP, on_late));
    CHECK_FAILS(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_DVPP, on_late));
    CHECK_FAILS(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, NULL, NULL));

    CHECK_EQ(fin_calls, 0);
    CHECK_OK(aclFinalize());
    CHECK_EQ(fin_calls, 1);
    CHECK(fin_saw_init);

    /* Unregistered hooks do not run again. */
    CHECK_OK(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, on_init));
    CHECK_OK(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, on_fin));
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclFinalize());
    CHECK_EQ(init_calls, 1);
    CHECK_EQ(fin_calls, 1);
    return 0;
}
