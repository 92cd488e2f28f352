/* rt_check.h: CHECK_RT for the cases that call rt* functions directly.
 * Include after check.h and runtime/rt.h. */
#ifndef NPUEMU_CONFORMANCE_RT_CHECK_H
#define NPUEMU_CONFORMANCE_RT_CHECK_H

/* CHECK_RT fails the case unless call returns code, with the runtime's
 * last message. */
#define CHECK_RT(call, code)                                               \
    do {                                                                   \
        rtError_t check_r_ = (call);                                       \
        if (check_r_ != (rtError_t)(code)) {                               \
            const char *check_m_ = aclGetRecentErrMsg();                   \
            FAIL("%s: got %d, want %s (%d): %s", #call, (int)check_r_, #code, (int)(code), \
                 check_m_ ? check_m_ : "no message");                      \
        }                                                                  \
    } while (0)

#endif
