/* rtclient.c: a library that calls the runtime's rt* functions directly,
 * as a graph engine or an operator library does, for stack_interpose.c.
 * Its rt* references bind to whatever definition the dynamic linker finds
 * first: an interposer's when one is preloaded. */
#include "runtime/rt.h"

/* rtclient_run allocates and frees device memory and creates and destroys
 * a stream; it returns the first failing rt code, 0 when all succeed. */
int rtclient_run(void) {
    void *p = NULL;
    rtError_t r = rtMalloc(&p, 4096, RT_MEMORY_DEFAULT, 33);
    if (r != ACL_RT_SUCCESS) return r;
    if ((r = rtFree(p)) != ACL_RT_SUCCESS) return r;
    rtStream_t s = NULL;
    if ((r = rtStreamCreate(&s, 0)) != ACL_RT_SUCCESS) return r;
    return rtStreamDestroy(s);
}
