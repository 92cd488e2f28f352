/* capture_debug_json: aclmdlRIDebugJsonPrint writes a JSON file describing the
 * model run instance (semantics.md §18); the file exists and parses. The
 * content is npuemu's own, so only well-formedness is checked. */
#include "rt_util.h"

#include <ctype.h>

/* A small recursive-descent JSON checker: value() advances *p past one
 * JSON value and reports whether it was well formed. */
static const char *skip(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') p++;
    return p;
}

static int value(const char **p, int depth);

static int string(const char **p)
{
    const char *s = *p;
    if (*s++ != '"') return 0;
    while (*s && *s != '"') {
        if ((unsigned char)*s < 0x20) return 0;
        if (*s == '\\') {
            s++;
            if (*s == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!isxdigit((unsigned char)s[i])) return 0;
                s += 4;
            } else if (!strchr("\"\\/bfnrt", *s) || *s == 0) {
                return 0;
            }
        }
        s++;
    }
    if (*s != '"') return 0;
    *p = s + 1;
    return 1;
}

static int number(const char **p)
{
    const char *s = *p;
    if (*s == '-') s++;
    if (!isdigit((unsigned char)*s)) return 0;
    while (isdigit((unsigned char)*s)) s++;
    if (*s == '.') {
        s++;
        if (!isdigit((unsigned char)*s)) return 0;
        while (isdigit((unsigned char)*s)) s++;
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-') s++;
        if (!isdigit((unsigned char)*s)) return 0;
        while (isdigit((unsigned char)*s)) s++;
    }
    *p = s;
    return 1;
}

static int value(const char **p, int depth)
{
    if (depth > 64) return 0;
    const char *s = skip(*p);
    if (*s == '{' || *s == '[') {
        char close = *s == '{' ? '}' : ']';
        int object = *s == '{';
        s = skip(s + 1);
        if (*s == close) {
            *p = s + 1;
            return 1;
        }
        for (;;) {
            if (object) {
                if (!string(&s)) return 0;
                s = skip(s);
                if (*s++ != ':') return 0;
            }
            if (!value(&s, depth + 1)) return 0;
            s = skip(s);
            if (*s == ',') {
                s = skip(s + 1);
                continue;
            }
            if (*s != close) return 0;
            *p = s + 1;
            return 1;
        }
    }
    if (*s == '"') {
        *p = s;
        return string(p);
    }
    if (strncmp(s, "true", 4) == 0) { *p = s + 4; return 1; }
    if (strncmp(s, "false", 5) == 0) { *p = s + 5; return 1; }
    if (strncmp(s, "null", 4) == 0) { *p = s + 4; return 1; }
    *p = s;
    return number(p);
}

static void check_json_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    CHECK(n > 0 && n < sizeof buf - 1);
    buf[n] = 0;
    const char *p = buf;
    CHECK(value(&p, 0));
    CHECK(*skip(p) == 0);
    CHECK(buf[0] == '{' || *skip(buf) == '{');
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s1 = NULL, s2 = NULL;
    CHECK_OK(aclrtCreateStream(&s1));
    CHECK_OK(aclrtCreateStream(&s2));
    aclrtEvent fork = NULL, join = NULL;
    CHECK_OK(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
    CHECK_OK(aclrtCreateEventExWithFlag(&join, ACL_EVENT_SYNC));
    void *d = NULL;
    CHECK_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));

    CHECK_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_OK(aclrtMemsetAsync(d, 4096, 1, 2048, s1));
    CHECK_OK(aclrtRecordEvent(fork, s1));
    CHECK_OK(aclrtStreamWaitEvent(s2, fork));
    CHECK_OK(aclrtMemsetAsync((char *)d + 2048, 2048, 2, 2048, s2));
    CHECK_OK(aclrtRecordEvent(join, s2));
    CHECK_OK(aclrtStreamWaitEvent(s1, join));
    aclmdlRI ri = NULL;
    CHECK_OK(aclmdlRICaptureEnd(s1, &ri));
    CHECK_OK(aclmdlRISetName(ri, "json \"quoted\" name"));

    char path[64];
    snprintf(path, sizeof path, "/tmp/npuemu-ri-%d.json", (int)getpid());
    unlink(path);
    CHECK_OK(aclmdlRIDebugJsonPrint(ri, path, ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY));
    check_json_file(path);
    unlink(path);
    CHECK_OK(aclmdlRIDebugJsonPrint(ri, path, ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE));
    check_json_file(path);
    unlink(path);

    /* doc: the path's directory must exist. */
    CHECK_FAILS(aclmdlRIDebugJsonPrint(ri, "/nonexistent-npuemu-dir/ri.json", ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY));
    /* The deprecated text form. */
    CHECK_OK(aclmdlRIDebugPrint(ri));

    CHECK_OK(aclmdlRIDestroy(ri));
    CHECK_OK(aclrtDestroyEvent(fork));
    CHECK_OK(aclrtDestroyEvent(join));
    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtDestroyStream(s1));
    CHECK_OK(aclrtDestroyStream(s2));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
