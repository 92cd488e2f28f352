/* mbuf_hook.c: a hook on the driver's mbuf calls, for stack_mbuf.c.
 * Loaded with LD_PRELOAD, it counts halMbufAlloc, halMbufFree,
 * halMbufCopyRef and halMbufGetPrivInfo and forwards them to the next
 * definition (dlsym(RTLD_NEXT)). With MBUF_HOOK_REFUSE=1 it is a sharing
 * layer with no buffer quota left: halMbufAlloc fails with
 * DRV_ERROR_OUT_OF_MEMORY without reaching the driver. The program reads
 * the counts through mbuf_hook_count(name).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/ascend_hal.h"

enum { C_alloc, C_free, C_copy, C_priv, C_N };
static const char *const names[C_N] = {"halMbufAlloc", "halMbufFree", "halMbufCopyRef", "halMbufGetPrivInfo"};
static long counts[C_N];

long mbuf_hook_count(const char *name) {
    for (int i = 0; i < C_N; i++)
        if (strcmp(names[i], name) == 0) return __atomic_load_n(&counts[i], __ATOMIC_SEQ_CST);
    return -1;
}

static void *next(const char *name) {
    void *p = dlsym(RTLD_NEXT, name);
    if (p == NULL) {
        fprintf(stderr, "mbuf_hook: no next definition of %s\n", name);
        abort();
    }
    return p;
}

int halMbufAlloc(uint64_t size, Mbuf **mbuf) {
    __atomic_add_fetch(&counts[C_alloc], 1, __ATOMIC_SEQ_CST);
    const char *v = getenv("MBUF_HOOK_REFUSE");
    if (v != NULL && strcmp(v, "1") == 0) return DRV_ERROR_OUT_OF_MEMORY;
    return ((__typeof__(&halMbufAlloc))next("halMbufAlloc"))(size, mbuf);
}

int halMbufFree(Mbuf *mbuf) {
    __atomic_add_fetch(&counts[C_free], 1, __ATOMIC_SEQ_CST);
    return ((__typeof__(&halMbufFree))next("halMbufFree"))(mbuf);
}

int halMbufCopyRef(Mbuf *mbuf, Mbuf **newMbuf) {
    __atomic_add_fetch(&counts[C_copy], 1, __ATOMIC_SEQ_CST);
    return ((__typeof__(&halMbufCopyRef))next("halMbufCopyRef"))(mbuf, newMbuf);
}

int halMbufGetPrivInfo(Mbuf *mbuf, void **priv, unsigned int *size) {
    __atomic_add_fetch(&counts[C_priv], 1, __ATOMIC_SEQ_CST);
    return ((__typeof__(&halMbufGetPrivInfo))next("halMbufGetPrivInfo"))(mbuf, priv, size);
}
