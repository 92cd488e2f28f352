/* rt_util.h: small helpers shared by the rt_* conformance cases.
 *
 * Include this first (before any system header): it selects POSIX 2008 so
 * that the cases, compiled with -std=c99, see mkstemp, pthreads and
 * clock_gettime.
 */
#ifndef NPUEMU_CONFORMANCE_RT_UTIL_H
#define NPUEMU_CONFORMANCE_RT_UTIL_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdint.h>
#include <unistd.h>

#include "check.h"

/* rt_device_count returns aclrtGetDeviceCount, failing the case if the call
 * itself fails. */
static inline uint32_t rt_device_count(void)
{
    uint32_t n = 0;
    CHECK_OK(aclrtGetDeviceCount(&n));
    return n;
}

/* rt_need_devices skips the case when fewer than n devices are visible.
 * The caller has already called aclInit; on skip it finalizes first so that
 * a skip leaves nothing behind. */
static inline void rt_need_devices(uint32_t n)
{
    uint32_t have = rt_device_count();
    if (have < n) {
        (void)aclFinalize();
        SKIP("needs %u devices, target has %u", n, have);
    }
}

/* rt_write_temp writes text to a fresh temporary file and stores its path in
 * path (at least 32 bytes). The caller unlinks it. */
static inline void rt_write_temp(char *path, const char *text)
{
    strcpy(path, "/tmp/npuemu-rt-XXXXXX");
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    size_t len = strlen(text);
    CHECK_EQ(write(fd, text, len), (long long)len);
    CHECK_EQ(close(fd), 0);
}

/* rt_fill writes a byte pattern that depends on seed and the offset, so that
 * two buffers filled with different seeds differ everywhere. */
static inline void rt_fill(void *p, size_t n, unsigned seed)
{
    unsigned char *b = (unsigned char *)p;
    for (size_t i = 0; i < n; i++) b[i] = (unsigned char)(seed * 131u + i * 7u + (i >> 8));
}

/* rt_check_fill reports whether p holds the pattern of rt_fill(seed). */
static inline int rt_check_fill(const void *p, size_t n, unsigned seed)
{
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != (unsigned char)(seed * 131u + i * 7u + (i >> 8))) return 0;
    return 1;
}

/* rt_all_bytes reports whether every byte of p equals v. */
static inline int rt_all_bytes(const void *p, size_t n, unsigned char v)
{
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != v) return 0;
    return 1;
}

/* rt_drain_errors clears the thread's last error and recent message so that
 * a later check observes only what follows. */
static inline void rt_drain_errors(void)
{
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    (void)aclGetRecentErrMsg();
}

#endif
