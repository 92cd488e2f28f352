/* memory_free_inflight: aclrtFree of memory that queued work still writes
 * returns at once (CANN: it "does not ... wait until the tasks that use the
 * memory are complete"), but npuemu keeps the pages out of reuse until that
 * work is done, so the stale copy never overwrites the next owner
 * (issue #14, point 3; docs/hardening.md). The freed address is invalid
 * for new work at once.
 *
 * needs: emulator
 */
#include <stdint.h>
#include <string.h>

#include "check.h"

#define SIZE (4u << 20)

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s, other;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtCreateStream(&other));
    aclrtNotify n;
    CHECK_OK(aclrtCreateNotify(&n, 0));

    unsigned char *host; /* pinned: a pageable source makes the copy synchronous */
    CHECK_OK(aclrtMallocHost((void **)&host, SIZE));
    memset(host, 0xAB, SIZE);

    /* The copy into a waits behind a notify nobody has recorded yet. */
    void *a;
    CHECK_OK(aclrtMalloc(&a, SIZE, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK_OK(aclrtWaitAndResetNotify(n, s, 0));
    CHECK_OK(aclrtMemcpyAsync(a, SIZE, host, SIZE, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK_OK(aclrtFree(a)); /* at once */

    /* The freed address takes no new work. */
    CHECK_ERR(aclrtMemset(a, SIZE, 0, SIZE), ACL_ERROR_RT_PARAM_INVALID);

    /* A new allocation does not get a's pages while the copy is queued. */
    void *b;
    CHECK_OK(aclrtMalloc(&b, SIZE, ACL_MEM_MALLOC_NORMAL_ONLY));
    uintptr_t ab = (uintptr_t)a, bb = (uintptr_t)b;
    CHECK(bb + SIZE <= ab || ab + SIZE <= bb);
    CHECK_OK(aclrtMemset(b, SIZE, 0, SIZE));

    /* Let the stale copy run; b keeps its zeros. */
    CHECK_OK(aclrtRecordNotify(n, other));
    CHECK_OK(aclrtSynchronizeStream(s));
    unsigned char *back = malloc(SIZE);
    CHECK(back != NULL);
    CHECK_OK(aclrtMemcpy(back, SIZE, b, SIZE, ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 0; i < SIZE; i++)
        if (back[i] != 0) FAIL("b[%zu] = %#x: the stale copy overwrote the new owner", i, back[i]);

    /* Once the work is done the pages are reused again. */
    void *c;
    CHECK_OK(aclrtMalloc(&c, SIZE, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK_OK(aclrtFree(c));
    CHECK_OK(aclrtFree(b));
    CHECK_OK(aclrtDestroyNotify(n));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtDestroyStream(other));
    CHECK_OK(aclrtFreeHost(host));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    free(back);
    printf("free of in-flight memory: deferred until the queued copy ran\n");
    return 0;
}
