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
#define HOOK_NAME "mbuf_hook"
#include "hook.h"

long mbuf_hook_count(const char *name) { return hook_count(name); }

int halMbufAlloc(uint64_t size, Mbuf **mbuf) {
    count(C_alloc);
    const char *v = getenv("MBUF_HOOK_REFUSE");
    if (v != NULL && strcmp(v, "1") == 0) return DRV_ERROR_OUT_OF_MEMORY;
    return ((__typeof__(&halMbufAlloc))next("halMbufAlloc"))(size, mbuf);
}

int halMbufFree(Mbuf *mbuf) {
    count(C_free);
    return ((__typeof__(&halMbufFree))next("halMbufFree"))(mbuf);
}

int halMbufCopyRef(Mbuf *mbuf, Mbuf **newMbuf) {
    count(C_copy);
    return ((__typeof__(&halMbufCopyRef))next("halMbufCopyRef"))(mbuf, newMbuf);
}

int halMbufGetPrivInfo(Mbuf *mbuf, void **priv, unsigned int *size) {
    count(C_priv);
    return ((__typeof__(&halMbufGetPrivInfo))next("halMbufGetPrivInfo"))(mbuf, priv, size);
}
