/* stack_mbuf: shared buffers cross into the driver as on the real stack
 * (acl-to-rt.tsv, rt-to-hal.tsv): aclrtAllocBuf → rtMbufAlloc →
 * halMbufAlloc, aclrtFreeBuf → rtMbufFree → halMbufFree, aclrtCopyBufRef →
 * rtMbufCopyBufRef → halMbufCopyRef, aclrtGet/SetBufUserData →
 * rtMbufGetPrivInfo → halMbufGetPrivInfo. The rt → hal step crosses into
 * libascend_hal.so in both layouts (docs/stack.md), so an LD_PRELOAD hook
 * on the hal calls (stack/mbuf_hook.c) sees an unmodified ACL program's
 * buffers, and the runtime's own rtMbufAlloc, in merged and split alike;
 * and a hook that refuses halMbufAlloc is what the program gets:
 * aclrtAllocBuf fails with ACL_ERROR_RT_MEMORY_ALLOCATION (the driver's
 * DRV_ERROR_OUT_OF_MEMORY converted).
 *
 * link: -lruntime -lascendcl -lascend_hal
 * needs: emulator
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "stack/harness.h"
#include "../../examples/kernels/build_kernel.h" /* npuemu_repo_of */
#include "driver/ascend_hal.h"
#include "runtime/rt.h"

#define CHECK_RT(call, code) CHECK_EQ((int)(call), (int)(code))

static long count(const char *name) {
    long (*f)(const char *) = (long (*)(const char *))dlsym(RTLD_DEFAULT, "mbuf_hook_count");
    if (f == NULL) FAIL("the hook is not loaded (LD_PRELOAD)");
    return f(name);
}

/* The ACL program: shared buffers under the hook. */
static int child(void) {
    const char *v = getenv("MBUF_HOOK_REFUSE");
    int refused = v != NULL && strcmp(v, "1") == 0;

    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    /* ACL's own argument check answers before the driver is asked. */
    CHECK_ERR(aclrtAllocBuf(NULL, 64), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(count("halMbufAlloc"), 0);
    aclrtMbuf a = NULL;
    if (refused) {
        CHECK_ERR(aclrtAllocBuf(&a, 64), ACL_ERROR_RT_MEMORY_ALLOCATION);
        CHECK_EQ(count("halMbufAlloc"), 1);
        rtMbufPtr_t r = NULL;
        CHECK_RT(rtMbufAlloc(&r, 64), ACL_ERROR_RT_MEMORY_ALLOCATION);
        CHECK_EQ(count("halMbufAlloc"), 2);
    } else {
        CHECK_OK(aclrtAllocBuf(&a, 64));
        CHECK_EQ(count("halMbufAlloc"), 1);
        const char msg[] = "seen";
        CHECK_OK(aclrtSetBufUserData(a, msg, sizeof msg, 0));
        CHECK(count("halMbufGetPrivInfo") >= 1);
        aclrtMbuf b = NULL;
        CHECK_OK(aclrtCopyBufRef(a, &b));
        CHECK_EQ(count("halMbufCopyRef"), 1);
        CHECK_OK(aclrtFreeBuf(a));
        CHECK_OK(aclrtFreeBuf(b));
        CHECK_EQ(count("halMbufFree"), 2);
        /* The runtime's own call meets the same hook. */
        rtMbufPtr_t r = NULL;
        CHECK_RT(rtMbufAlloc(&r, 64), ACL_RT_SUCCESS);
        CHECK_EQ(count("halMbufAlloc"), 2);
        CHECK_RT(rtMbufFree(r), ACL_RT_SUCCESS);
        CHECK_EQ(count("halMbufFree"), 3);
    }
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("%s layout, %s hook: the hal hooks see the ACL program's shared buffers\n", getenv("NPUEMU_STACK"),
           refused ? "refusing" : "forwarding");
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--child") == 0) return child();
    static const char *const runs[] = STACK_BOTH_LAYOUTS;
    stack_run_under(__FILE__, "conformance/cases/stack/mbuf_hook.c", "MBUF_HOOK_REFUSE", runs);
    printf("a hook on the driver's mbuf calls sees and decides ACL shared buffers in both layouts\n");
    return 0;
}
