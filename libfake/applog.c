/* applog.c: aclAppLog, the only variadic ACL function. Go cannot export a
 * variadic C function, so it lives here and never enters Go. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "npu.h"
#include "passthrough.h"

/* APPLOG_MAX is the documented limit of one message, NUL included. */
#define APPLOG_MAX 1024

static const char truncated[] = "...[truncated]";

NPU_EXPORT void npu_applog_v(aclLogLevel logLevel, const char *func, const char *file, uint32_t line,
                             const char *fmt, va_list ap);

static const char *level_name(aclLogLevel level) {
    switch (level) {
    case ACL_DEBUG: return "DEBUG";
    case ACL_INFO: return "INFO";
    case ACL_WARNING: return "WARNING";
    case ACL_ERROR: return "ERROR";
    }
    return "UNKNOWN";
}

NPU_EXPORT void aclAppLog(aclLogLevel logLevel, const char *func, const char *file,
                          uint32_t line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    npu_applog_v(logLevel, func, file, line, fmt, ap);
    va_end(ap);
}

/* npu_applog_v is aclAppLog with a va_list: the front library's aclAppLog
 * (libfake/front) forwards here, since a variadic call cannot be forwarded
 * through a function pointer. */
NPU_EXPORT void npu_applog_v(aclLogLevel logLevel, const char *func, const char *file, uint32_t line,
                             const char *fmt, va_list ap) {
    char msg[APPLOG_MAX];
    msg[0] = '\0';
    if (fmt != NULL) {
        int n = vsnprintf(msg, sizeof msg, fmt, ap);
        if (n < 0) {
            snprintf(msg, sizeof msg, "(bad format \"%s\")", fmt);
        } else if ((size_t)n >= sizeof msg) {
            memcpy(msg + sizeof msg - sizeof truncated, truncated, sizeof truncated);
        }
    }
    /* Passthrough forwards the formatted message; tracing records it. */
    if (__builtin_expect(npu_hooks != 0, 0) && npu_applog_hook(logLevel, func, file, line, msg)) return;
    fprintf(stderr, "[%s] %s %s:%u: %s\n", level_name(logLevel), func ? func : "?",
            file ? file : "?", (unsigned)line, msg);
}
