/* check.h: the assertion helpers of the conformance cases.
 *
 * A case is a C program; it exits 0 when every check passed, 1 on the first
 * failed check (after printing where and why), and 77 after SKIP(reason) when
 * the target lacks something the case needs. The runner (conformance_test.go)
 * reports each case and prints skip reasons.
 */
#ifndef NPUEMU_CONFORMANCE_CHECK_H
#define NPUEMU_CONFORMANCE_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#define CHECK_SKIP_EXIT 77

#define SKIP(...)                                        \
    do {                                                 \
        printf("SKIP: ");                                \
        printf(__VA_ARGS__);                             \
        printf("\n");                                    \
        fflush(stdout);                                  \
        exit(CHECK_SKIP_EXIT);                           \
    } while (0)

#define FAIL(...)                                        \
    do {                                                 \
        fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__); \
        fprintf(stderr, __VA_ARGS__);                    \
        fprintf(stderr, "\n");                           \
        exit(1);                                         \
    } while (0)

#define CHECK(cond)                                      \
    do {                                                 \
        if (!(cond)) FAIL("%s", #cond);                  \
    } while (0)

/* CHECK_EQ compares two integers (as long long). */
#define CHECK_EQ(a, b)                                   \
    do {                                                 \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b); \
        if (check_a_ != check_b_)                        \
            FAIL("%s == %s: got %lld, want %lld", #a, #b, check_a_, check_b_); \
    } while (0)

/* CHECK_OK: the call returns ACL_SUCCESS; else prints the code and message. */
#define CHECK_OK(call)                                   \
    do {                                                 \
        aclError check_e_ = (call);                      \
        if (check_e_ != ACL_SUCCESS) {                   \
            const char *check_m_ = aclGetRecentErrMsg(); \
            FAIL("%s: got %d (%s), want ACL_SUCCESS", #call, (int)check_e_, \
                 check_m_ ? check_m_ : "no message");   \
        }                                                \
    } while (0)

/* CHECK_ERR: the call returns exactly code and leaves a non-empty message. */
#define CHECK_ERR(call, code)                            \
    do {                                                 \
        aclError check_e_ = (call);                      \
        if (check_e_ != (aclError)(code))                \
            FAIL("%s: got %d, want %s (%d)", #call, (int)check_e_, #code, (int)(code)); \
        const char *check_m_ = aclGetRecentErrMsg();     \
        if (check_m_ == NULL || check_m_[0] == '\0')     \
            FAIL("%s: returned %d but aclGetRecentErrMsg is empty", #call, (int)check_e_); \
    } while (0)

/* CHECK_FAILS: where the documentation gives no code, the call must fail
 * and leave a non-empty message. */
#define CHECK_FAILS(call)                                \
    do {                                                 \
        aclError check_e_ = (call);                      \
        if (check_e_ == ACL_SUCCESS) FAIL("%s: succeeded, want failure", #call); \
        const char *check_m_ = aclGetRecentErrMsg();     \
        if (check_m_ == NULL || check_m_[0] == '\0')     \
            FAIL("%s: returned %d but aclGetRecentErrMsg is empty", #call, (int)check_e_); \
    } while (0)

#endif
