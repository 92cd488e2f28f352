/* sanitize_util.h: helpers of the sanitize_* cases (NPUEMU_SANITIZE,
 * docs/sanitizer.md): capture what the sanitizer writes on stderr around a
 * part of the program, and count its report lines. */
#ifndef NPUEMU_CONFORMANCE_SANITIZE_UTIL_H
#define NPUEMU_CONFORMANCE_SANITIZE_UTIL_H

#include "rt_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#define SAN_PREFIX "npuemu: sanitize: "

static int san_saved = -1;
static char san_path[32];
static char san_out[65536];

/* san_begin sends stderr to a fresh temporary file. */
static inline void san_begin(void)
{
    fflush(stderr);
    strcpy(san_path, "/tmp/npuemu-san-XXXXXX");
    int fd = mkstemp(san_path);
    CHECK(fd >= 0);
    san_saved = dup(2);
    CHECK(san_saved >= 0);
    CHECK(dup2(fd, 2) == 2);
    close(fd);
}

/* san_end restores stderr, echoes what was captured to it (so a failing
 * case shows it) and returns it. */
static inline const char *san_end(void)
{
    fflush(stderr);
    CHECK(dup2(san_saved, 2) == 2);
    close(san_saved);
    FILE *f = fopen(san_path, "r");
    CHECK(f != NULL);
    size_t n = fread(san_out, 1, sizeof san_out - 1, f);
    san_out[n] = '\0';
    fclose(f);
    unlink(san_path);
    fputs(san_out, stderr);
    return san_out;
}

/* san_count counts the report lines of check (e.g. "racecheck") in out,
 * or every report line for check NULL; the summary line is not counted. */
static inline int san_count(const char *out, const char *check)
{
    int n = 0;
    for (const char *p = out; (p = strstr(p, SAN_PREFIX)) != NULL; p += strlen(SAN_PREFIX)) {
        const char *c = p + strlen(SAN_PREFIX);
        if (strncmp(c, "summary:", 8) == 0) continue;
        if (check == NULL || (strncmp(c, check, strlen(check)) == 0 && c[strlen(check)] == ':')) n++;
    }
    return n;
}

/* san_line returns the first report line of check that contains every
 * needle (NULL-terminated list), or NULL. */
static inline int san_has(const char *out, const char *check, const char *a, const char *b)
{
    char head[64];
    snprintf(head, sizeof head, SAN_PREFIX "%s:", check);
    for (const char *p = out; (p = strstr(p, head)) != NULL; p++) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char line[2048];
        if (len >= sizeof line) len = sizeof line - 1;
        memcpy(line, p, len);
        line[len] = '\0';
        if ((a == NULL || strstr(line, a)) && (b == NULL || strstr(line, b))) return 1;
    }
    return 0;
}

#endif
