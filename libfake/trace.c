/* trace.c: NPUEMU_TRACE=FILE, one JSON line per call (see trace.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "passthrough.h"
#include "trace.h"

int npu_tr_on;

/* TR_LINE is the longest line; a longer one is cut after whole arguments
 * and marked "truncated":true. TR_BUF is the shared buffer. */
#define TR_LINE 4096
#define TR_BUF (64 * 1024)

struct npu_tr {
    char buf[TR_LINE];
    size_t len;
    int in_args;
    int cut;
    int idx;           /* the symbol's index (host timeline) */
    long long ret;     /* the result, when an integer (host timeline) */
};

/* Each thread's line is on the heap, not in TLS: the library's static TLS
 * block must stay small, because it is dlopen'ed after the program started
 * (libfake/front, docs/internals.md "The C boundary"). The key frees it when
 * the thread exits. */
static __thread npu_tr *line;
static __thread pid_t tid;
static pthread_key_t line_key;
static pthread_once_t line_once = PTHREAD_ONCE_INIT;

static void line_key_init(void) { pthread_key_create(&line_key, free); }

static int fd = -1;

/* The host track of NPUEMU_TIMELINE (timeline.h): with it on, the shims
 * route every call through the trace path, which records the call here
 * instead of (or besides) writing a line. Guarded by mu. */
static int tl_on;
static npu_tl_rec *tl_recs;
static size_t tl_n, tl_cap;
#define TL_MAX ((size_t)4 << 20)
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static char shared[TR_BUF]; /* guarded by mu */
static size_t shared_len;   /* guarded by mu */

int64_t npu_tr_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Precondition: mu held. */
static void flush_locked(void) {
    size_t off = 0;
    while (off < shared_len) {
        ssize_t n = write(fd, shared + off, shared_len - off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break; /* the trace is best effort: never fail the call */
        off += (size_t)n;
    }
    shared_len = 0;
}

void npu_tr_flush(void) {
    if (fd < 0) return;
    pthread_mutex_lock(&mu);
    flush_locked();
    pthread_mutex_unlock(&mu);
}

static void at_exit(void) { npu_tr_flush(); }

/* A forked child must not write the parent's buffered lines a second time. */
static void atfork_prepare(void) { pthread_mutex_lock(&mu); }
static void atfork_parent(void) { pthread_mutex_unlock(&mu); }
static void atfork_child(void) {
    shared_len = 0;
    tl_n = 0;
    tid = 0;
    pthread_mutex_unlock(&mu);
}

/* expand replaces each "%p" of name with the process id, so that several
 * processes can trace into separate files. */
static void expand(const char *name, char *out, size_t cap) {
    size_t o = 0;
    for (const char *p = name; *p && o + 1 < cap; p++) {
        if (p[0] == '%' && p[1] == 'p') {
            int n = snprintf(out + o, cap - o, "%d", (int)getpid());
            if (n < 0 || (size_t)n >= cap - o) break;
            o += (size_t)n;
            p++;
            continue;
        }
        out[o++] = *p;
    }
    out[o] = '\0';
}

/* tl_init turns the host track on when NPUEMU_TIMELINE is set and
 * NPUEMU_TIMELINE_HOST is not "0". */
static void tl_init(void) {
    const char *tl = getenv("NPUEMU_TIMELINE"), *host = getenv("NPUEMU_TIMELINE_HOST");
    if (tl == NULL || tl[0] == '\0' || (host != NULL && strcmp(host, "0") == 0)) return;
    tl_on = 1;
    npu_tr_on = 1;
}

void npu_tr_init(void) {
    tl_init();
    const char *name = getenv("NPUEMU_TRACE");
    if (name == NULL || name[0] == '\0') return;
    char path[4096];
    expand(name, path, sizeof path);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "npuemu: NPUEMU_TRACE=%s: cannot open %s: %s; tracing is off\n", name, path,
                strerror(errno));
        return;
    }
    atexit(at_exit);
    npu_tr_on = 1;
}

static void tl_atfork(void) __attribute__((constructor));
static void tl_atfork(void) { pthread_atfork(atfork_prepare, atfork_parent, atfork_child); }

static void tl_record_locked(const npu_tr *t, int64_t ns);

/* force appends s[0:n] within the line's capacity: the closing fields. */
static void force(npu_tr *t, const char *s, size_t n) {
    if (t->len + n > TR_LINE) n = TR_LINE - t->len;
    memcpy(t->buf + t->len, s, n);
    t->len += n;
}

/* TR_RESERVE bytes of a line stay free for the result and the closing
 * fields, so arguments are cut first. */
#define TR_RESERVE 160

/* emit appends one field: an argument inside "args", or the result ("ret",
 * name NULL) after it. An argument that does not fit cuts the line: it and
 * every later argument are left out, and the line says so. */
static void emit(npu_tr *t, const char *name, const char *val, size_t n) {
    if (name == NULL) {
        char *end = NULL;
        t->ret = strtoll(val, &end, 10);
        if (end != val + n) t->ret = 0;
        if (t->in_args) {
            force(t, "}", 1);
            t->in_args = 0;
        }
        if (n > 64) {
            val = "null";
            n = 4;
        }
        force(t, ",\"ret\":", 7);
        force(t, val, n);
        return;
    }
    if (t->cut || !t->in_args) return;
    char k[160];
    int kn = snprintf(k, sizeof k, "%s\"%s\":", t->buf[t->len - 1] == '{' ? "" : ",", name);
    if (kn < 0 || (size_t)kn >= sizeof k || t->len + (size_t)kn + n + TR_RESERVE > TR_LINE) {
        t->cut = 1;
        return;
    }
    force(t, k, (size_t)kn);
    force(t, val, n);
}

npu_tr *npu_tr_start(const npu_call *c, int idx) {
    (void)c;
    if (line == NULL) {
        pthread_once(&line_once, line_key_init);
        line = malloc(sizeof *line);
        if (line == NULL) return NULL; /* out of memory: no line for this call */
        pthread_setspecific(line_key, line);
    }
    npu_tr *t = line;
    if (tid == 0) tid = (pid_t)syscall(SYS_gettid);
    const char *sym = npu_pt_name(idx);
    int n = snprintf(t->buf, TR_LINE, "{\"tid\":%d,\"sym\":\"%s\",\"args\":{", (int)tid, sym);
    t->len = (n > 0 && n < TR_LINE) ? (size_t)n : 0;
    t->cut = 0;
    t->in_args = 1;
    t->idx = idx;
    t->ret = 0;
    return t;
}

/* The type classes of __builtin_classify_type (GCC's typeclass.h). */
enum {
    CLS_INTEGER = 1,
    CLS_CHAR = 2,
    CLS_ENUM = 3,
    CLS_BOOL = 4,
    CLS_POINTER = 5,
    CLS_REAL = 8,
    CLS_RECORD = 12,
    CLS_UNION = 13,
};

/* TR_STRUCT is how many bytes of a struct passed by value are shown. */
#define TR_STRUCT 256

void npu_tr_val(npu_tr *t, const char *name, const void *p, size_t n, int cls, int sgn) {
    if (t == NULL) return;
    char v[2 * TR_STRUCT + 32];
    int k = -1;
    switch (cls) {
    case CLS_INTEGER:
    case CLS_CHAR:
    case CLS_ENUM:
    case CLS_BOOL:
        if (n == 1) {
            k = sgn ? snprintf(v, sizeof v, "%d", *(const int8_t *)p)
                    : snprintf(v, sizeof v, "%u", *(const uint8_t *)p);
        } else if (n == 2) {
            int16_t s;
            uint16_t u;
            memcpy(&s, p, 2);
            memcpy(&u, p, 2);
            k = sgn ? snprintf(v, sizeof v, "%d", s) : snprintf(v, sizeof v, "%u", u);
        } else if (n == 4) {
            int32_t s;
            uint32_t u;
            memcpy(&s, p, 4);
            memcpy(&u, p, 4);
            k = sgn ? snprintf(v, sizeof v, "%d", s) : snprintf(v, sizeof v, "%u", u);
        } else if (n == 8) {
            long long s;
            unsigned long long u;
            memcpy(&s, p, 8);
            memcpy(&u, p, 8);
            k = sgn ? snprintf(v, sizeof v, "%lld", s) : snprintf(v, sizeof v, "%llu", u);
        }
        break;
    case CLS_POINTER: {
        uintptr_t u;
        memcpy(&u, p, sizeof u);
        k = snprintf(v, sizeof v, "\"0x%llx\"", (unsigned long long)u);
        break;
    }
    case CLS_REAL: {
        double d;
        if (n == sizeof(float)) {
            float f;
            memcpy(&f, p, sizeof f);
            d = f;
        } else if (n == sizeof(double)) {
            memcpy(&d, p, sizeof d);
        } else {
            break;
        }
        if (d != d || d - d != 0) { /* NaN and infinities are no JSON numbers */
            k = snprintf(v, sizeof v, "\"%g\"", d);
        } else {
            k = snprintf(v, sizeof v, n == sizeof(float) ? "%.9g" : "%.17g", d);
        }
        break;
    }
    case CLS_RECORD:
    case CLS_UNION: {
        const unsigned char *b = p;
        size_t m = n < TR_STRUCT ? n : TR_STRUCT;
        size_t o = (size_t)snprintf(v, sizeof v, "{\"struct\":\"");
        for (size_t i = 0; i < m; i++) o += (size_t)snprintf(v + o, sizeof v - o, "%02x", b[i]);
        o += (size_t)snprintf(v + o, sizeof v - o, "%s\"}", m < n ? "..." : "");
        k = (int)o;
        break;
    }
    }
    if (k < 0 || (size_t)k >= sizeof v) {
        memcpy(v, "null", 4);
        k = 4;
    }
    emit(t, name, v, (size_t)k);
}

void npu_tr_ptr(npu_tr *t, const char *name, const void *p) {
    npu_tr_val(t, name, &p, sizeof p, CLS_POINTER, 0);
}

/* TR_STR is how many bytes of a string argument are shown. */
#define TR_STR 256

void npu_tr_str(npu_tr *t, const char *name, const char *s) {
    if (t == NULL) return;
    if (s == NULL) {
        emit(t, name, "null", 4);
        return;
    }
    char v[TR_STR * 6 + 8];
    size_t o = 0;
    v[o++] = '"';
    size_t i = 0;
    for (; s[i] && i < TR_STR; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\') {
            v[o++] = '\\';
            v[o++] = (char)ch;
        } else if (ch < 0x20 || ch >= 0x7f) {
            /* Bytes, not runes: each non-ASCII byte is escaped on its own. */
            o += (size_t)snprintf(v + o, sizeof v - o, "\\u%04x", ch);
        } else {
            v[o++] = (char)ch;
        }
    }
    if (s[i]) {
        memcpy(v + o, "...", 3);
        o += 3;
    }
    v[o++] = '"';
    emit(t, name, v, o);
}

void npu_tr_finish(npu_tr *t, const npu_call *c) {
    if (t == NULL) return;
    int64_t ns = npu_tr_now() - c->t0;
    if (t->in_args) {
        force(t, "}", 1);
        t->in_args = 0;
    }
    if (t->cut) force(t, ",\"truncated\":true", 17);
    char end[48];
    int n = snprintf(end, sizeof end, ",\"ns\":%lld}\n", (long long)ns);
    force(t, end, (size_t)n);

    pthread_mutex_lock(&mu);
    if (fd >= 0) {
        if (shared_len + t->len > sizeof shared) flush_locked();
        memcpy(shared + shared_len, t->buf, t->len);
        shared_len += t->len;
    }
    if (tl_on) tl_record_locked(t, ns);
    pthread_mutex_unlock(&mu);
}

static int64_t wall_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Precondition: mu held. */
static void tl_record_locked(const npu_tr *t, int64_t ns) {
    if (tl_n == tl_cap) {
        if (tl_cap >= TL_MAX) return; /* full: the host track stops */
        size_t cap = tl_cap ? 2 * tl_cap : 4096;
        npu_tl_rec *r = realloc(tl_recs, cap * sizeof *r);
        if (r == NULL) return;
        tl_recs = r;
        tl_cap = cap;
    }
    npu_tl_rec *r = &tl_recs[tl_n++];
    r->start = wall_now() - ns;
    r->dur = ns;
    r->ret = t->ret;
    r->tid = (int32_t)tid;
    r->idx = t->idx;
}

size_t npu_tl_take(npu_tl_rec **out) {
    pthread_mutex_lock(&mu);
    size_t n = tl_n;
    *out = tl_recs;
    tl_recs = NULL;
    tl_n = tl_cap = 0;
    pthread_mutex_unlock(&mu);
    return n;
}

const char *npu_tl_name(int idx) { return npu_pt_name(idx); }
