/* bench_ck.h: what the launch-path probes share (launch_ab.c,
 * phase_probe.c, collapse_probe.c): CK, which exits with the failing
 * call, its aclError and aclGetRecentErrMsg(), and now_ns, the monotonic
 * clock in ns. Include it after acl/acl.h. */
#ifndef NPUEMU_BENCH_CK_H
#define NPUEMU_BENCH_CK_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CK(x)                                                                            \
    do {                                                                                 \
        aclError e_ = (x);                                                               \
        if (e_) {                                                                        \
            fprintf(stderr, "%s: %d %s\n", #x, e_, aclGetRecentErrMsg());                \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

static inline double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

#endif
