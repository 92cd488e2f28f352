/* standin.h: the recording helper shared by the stand-in vendor libraries.
 *
 * The stand-in (docs/passthrough.md) plays the vendor's libascendcl.so,
 * libruntime.so and libascend_hal.so in CI, where there is no NPU. Each
 * function appends one line "symbol key=value ..." to the file named by
 * STANDIN_LOG, so the test can check that every argument arrived exactly as
 * the program passed it.
 */
#ifndef NPUEMU_STANDIN_H
#define NPUEMU_STANDIN_H

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* standin_record writes one line to $STANDIN_LOG with a single write(2) on
 * an O_APPEND descriptor, so lines of concurrent threads do not mix. */
static void standin_record(const char *fmt, ...) __attribute__((format(printf, 1, 2), unused));
static void standin_record(const char *fmt, ...) {
    const char *path = getenv("STANDIN_LOG");
    if (path == NULL || path[0] == '\0') return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n > sizeof line - 2) n = (int)sizeof line - 2;
    line[n++] = '\n';
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return;
    ssize_t w = write(fd, line, (size_t)n);
    (void)w;
    close(fd);
}

#endif
