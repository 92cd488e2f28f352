/* passthrough.c: NPUEMU_MODE=passthrough, forwarding every shim to the
 * vendor libraries (see passthrough.h and docs/passthrough.md).
 *
 * At load the constructor finds the vendor's libascendcl.so and
 * libascend_hal.so, loads them with dlmopen into a link-map namespace of
 * their own and resolves every symbol once into npu_pt_fns by index.
 *
 * The namespace keeps the vendor's libraries from binding to ours, but
 * inside it the loader still searches LD_LIBRARY_PATH, where our
 * libruntime.so, libascend_hal.so, ... come first: a vendor library that
 * needs "libruntime.so" would get npuemu (a second Go runtime). So before
 * loading a vendor library, its DT_NEEDED entries are read from the ELF file
 * and each one found next to it (its directory, its RPATH/RUNPATH, the vendor
 * directories, LD_LIBRARY_PATH) is loaded first, by absolute path, deepest
 * first; when the loader later meets the name it matches the soname already
 * loaded in the namespace. A candidate that is npuemu's own file (same device
 * and inode as this library) is never taken.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl/acl.h"
#include "ascend_hal.h"
#include "frontid.h"
#include "passthrough.h"
#include "trace.h"

int npu_hooks;
int npu_pt_on;

static const char *const libfile[2] = {"libascendcl.so", "libascend_hal.so"};

/* Why a library is not loaded ("" when it is); written by the constructor
 * only. */
static char pt_err[2][4096];
static int pt_loaded[2];
static _Atomic int pt_told[2]; /* the reason went to stderr once */

static dev_t self_dev;
static ino_t self_ino;

/* is_self: path is npuemu's own file, this library or its front
 * (frontid.h). */
static int is_self(const char *path) {
    struct stat st;
    if (stat(path, &st) == 0 && st.st_dev == self_dev && st.st_ino == self_ino) return 1;
    return npu_front_file(path);
}

/* msg appends to a message buffer, keeping it NUL-terminated. */
static void msg(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void msg(char *buf, size_t cap, const char *fmt, ...) {
    size_t n = strlen(buf);
    if (n + 1 >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, cap - n, fmt, ap);
    va_end(ap);
}

/* ---- directories ---- */

#define MAX_DIRS 64

typedef struct dirlist {
    char *d[MAX_DIRS];
    int n;
} dirlist;

static void dirs_add(dirlist *l, const char *d, size_t n) {
    if (n == 0 || l->n == MAX_DIRS) return;
    for (int i = 0; i < l->n; i++)
        if (strlen(l->d[i]) == n && strncmp(l->d[i], d, n) == 0) return;
    char *c = strndup(d, n);
    if (c) l->d[l->n++] = c;
}

/* dirs_split adds the entries of a ':'-separated path, replacing $ORIGIN
 * (and ${ORIGIN}) with origin. */
static void dirs_split(dirlist *l, const char *path, const char *origin) {
    while (path && *path) {
        const char *end = strchr(path, ':');
        size_t n = end ? (size_t)(end - path) : strlen(path);
        char tmp[4096];
        const char *o = NULL;
        size_t skip = 0;
        if (origin && strncmp(path, "$ORIGIN", 7) == 0) o = path, skip = 7;
        if (origin && strncmp(path, "${ORIGIN}", 9) == 0) o = path, skip = 9;
        if (o && n >= skip) {
            int m = snprintf(tmp, sizeof tmp, "%s%.*s", origin, (int)(n - skip), path + skip);
            if (m > 0 && (size_t)m < sizeof tmp) dirs_add(l, tmp, (size_t)m);
        } else {
            dirs_add(l, path, n);
        }
        path = end ? end + 1 : NULL;
    }
}

static void dirs_free(dirlist *l) {
    for (int i = 0; i < l->n; i++) free(l->d[i]);
    l->n = 0;
}

/* vendor holds the vendor directories in search order; filled by the
 * constructor. */
static dirlist vendor;

/* ---- ELF ---- */

#if __SIZEOF_POINTER__ == 8
#define ELF_CLASS_NATIVE ELFCLASS64
#else
#define ELF_CLASS_NATIVE ELFCLASS32
#endif

#define MAX_NEEDED 128

typedef struct elfdeps {
    char *needed[MAX_NEEDED];
    int n;
    char *path; /* RUNPATH, else RPATH; NULL when neither */
} elfdeps;

static void elfdeps_free(elfdeps *e) {
    for (int i = 0; i < e->n; i++) free(e->needed[i]);
    free(e->path);
    e->n = 0;
    e->path = NULL;
}

/* off_of maps a virtual address to a file offset through the PT_LOAD
 * segments; (size_t)-1 when no segment holds it. */
static size_t off_of(const ElfW(Phdr) *ph, int n, ElfW(Addr) v) {
    for (int i = 0; i < n; i++)
        if (ph[i].p_type == PT_LOAD && v >= ph[i].p_vaddr && v < ph[i].p_vaddr + ph[i].p_filesz)
            return (size_t)(v - ph[i].p_vaddr + ph[i].p_offset);
    return (size_t)-1;
}

/* read_deps reads DT_NEEDED and RUNPATH/RPATH of the ELF file at path (of
 * this process's class and byte order). It returns 0, or -1 when the file is
 * not such an ELF object. */
static int read_deps(const char *path, elfdeps *e) {
    memset(e, 0, sizeof *e);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(ElfW(Ehdr))) {
        close(fd);
        return -1;
    }
    size_t size = (size_t)st.st_size;
    const unsigned char *m = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED) return -1;
    int rc = -1;
    const ElfW(Ehdr) *eh = (const void *)m;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELF_CLASS_NATIVE ||
        eh->e_phentsize != sizeof(ElfW(Phdr)) || eh->e_phoff > size ||
        (size_t)eh->e_phnum * sizeof(ElfW(Phdr)) > size - eh->e_phoff)
        goto out;
    const ElfW(Phdr) *ph = (const void *)(m + eh->e_phoff);
    const ElfW(Dyn) *dyn = NULL;
    size_t ndyn = 0;
    for (int i = 0; i < eh->e_phnum; i++) {
        if (ph[i].p_type == PT_DYNAMIC && ph[i].p_offset <= size && ph[i].p_filesz <= size - ph[i].p_offset) {
            dyn = (const void *)(m + ph[i].p_offset);
            ndyn = ph[i].p_filesz / sizeof(ElfW(Dyn));
        }
    }
    if (dyn == NULL) goto out;
    size_t strtab = (size_t)-1, strsz = 0;
    for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
        if (dyn[i].d_tag == DT_STRTAB) strtab = off_of(ph, eh->e_phnum, dyn[i].d_un.d_ptr);
        if (dyn[i].d_tag == DT_STRSZ) strsz = dyn[i].d_un.d_val;
    }
    if (strtab == (size_t)-1 || strtab > size || strsz > size - strtab) goto out;
    const char *str = (const char *)m + strtab;
    char *rpath = NULL, *runpath = NULL;
    for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
        size_t o = dyn[i].d_un.d_val;
        if (o >= strsz || memchr(str + o, '\0', strsz - o) == NULL) continue;
        switch (dyn[i].d_tag) {
        case DT_NEEDED:
            if (e->n < MAX_NEEDED) e->needed[e->n++] = strdup(str + o);
            break;
        case DT_RPATH:
            free(rpath);
            rpath = strdup(str + o);
            break;
        case DT_RUNPATH:
            free(runpath);
            runpath = strdup(str + o);
            break;
        }
    }
    /* The loader ignores RPATH when RUNPATH is present. */
    if (runpath) {
        e->path = runpath;
        free(rpath);
    } else {
        e->path = rpath;
    }
    rc = 0;
out:
    munmap((void *)m, size);
    return rc;
}

/* ---- loading ---- */

/* system names the libraries that belong to the C library: they are left
 * to the loader, which gives the namespace its own copy. */
static int system_lib(const char *name) {
    static const char *const prefixes[] = {"libc.so", "libm.so", "libdl.so", "libpthread.so", "librt.so",
                                           "ld-linux", "libutil.so", "libresolv.so", "libgcc_s.so"};
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0) return 1;
    return 0;
}

#define MAX_VISITED 256

typedef struct loader {
    Lmid_t lmid;
    int have_lmid;
    char *visited[MAX_VISITED];
    int nvisited;
    char *err;
    size_t errcap;
} loader;

static int visited(loader *ld, const char *path) {
    for (int i = 0; i < ld->nvisited; i++)
        if (strcmp(ld->visited[i], path) == 0) return 1;
    if (ld->nvisited < MAX_VISITED) ld->visited[ld->nvisited++] = strdup(path);
    return 0;
}

/* open_in loads path into the loader's namespace (a new one the first
 * time). */
static void *open_in(loader *ld, const char *path) {
    void *h = dlmopen(ld->have_lmid ? ld->lmid : LM_ID_NEWLM, path, RTLD_LAZY | RTLD_LOCAL);
    if (h == NULL) {
        const char *e = dlerror();
        msg(ld->err, ld->errcap, "dlmopen %s: %s", path, e ? e : "failed");
        return NULL;
    }
    if (!ld->have_lmid && dlinfo(h, RTLD_DI_LMID, &ld->lmid) == 0) ld->have_lmid = 1;
    return h;
}

/* find_dep returns the absolute path of the vendor's copy of the library
 * called name, needed by the object in dir with search path rpath, or NULL
 * when it is not in any of those directories (then the loader finds it).
 * *own is set when npuemu's own file was the only candidate. */
static char *find_dep(const char *name, const char *dir, const char *rpath, int *own) {
    dirlist l = {0};
    dirs_split(&l, rpath, dir);
    dirs_add(&l, dir, strlen(dir));
    for (int i = 0; i < vendor.n; i++) dirs_add(&l, vendor.d[i], strlen(vendor.d[i]));
    dirs_split(&l, getenv("LD_LIBRARY_PATH"), NULL);
    char *found = NULL;
    for (int i = 0; i < l.n && !found; i++) {
        char p[4096];
        if (snprintf(p, sizeof p, "%s/%s", l.d[i], name) >= (int)sizeof p) continue;
        char *r = realpath(p, NULL);
        if (r == NULL) continue;
        if (is_self(r)) {
            *own = 1;
            free(r);
            continue;
        }
        found = r;
    }
    dirs_free(&l);
    return found;
}

/* load loads path after its vendor dependencies (deepest first) and
 * returns its handle, or NULL with the reason in ld->err. */
static void *load(loader *ld, const char *path, int depth) {
    if (depth > 32 || visited(ld, path)) return (void *)1; /* already on its way */
    elfdeps e;
    if (read_deps(path, &e) != 0) {
        msg(ld->err, ld->errcap, "%s is not a shared library of this machine", path);
        return NULL;
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    for (int i = 0; i < e.n; i++) {
        const char *name = e.needed[i];
        if (strchr(name, '/') || system_lib(name)) continue;
        int own = 0;
        char *dep = find_dep(name, dir, e.path, &own);
        if (dep == NULL) {
            if (own) {
                msg(ld->err, ld->errcap,
                    "%s needs %s, and the only %s found is npuemu's own library: put the vendor's directory "
                    "in NPUEMU_VENDOR_LIB or ASCEND_HOME_PATH",
                    path, name, name);
                elfdeps_free(&e);
                return NULL;
            }
            continue;
        }
        void *h = load(ld, dep, depth + 1);
        free(dep);
        if (h == NULL) {
            elfdeps_free(&e);
            return NULL;
        }
    }
    elfdeps_free(&e);
    return open_in(ld, path);
}

/* candidate tries dir/file (or the file path itself when file is NULL):
 * on success it returns the resolved path; otherwise it notes why in why. */
static char *candidate(const char *what, const char *dir, const char *file, char *why, size_t cap) {
    char p[4096];
    if (file)
        snprintf(p, sizeof p, "%s/%s", dir, file);
    else
        snprintf(p, sizeof p, "%s", dir);
    char *r = realpath(p, NULL);
    if (r == NULL) {
        msg(why, cap, "%s%s (%s: not found)", why[0] ? ", " : "", what, p);
        return NULL;
    }
    if (is_self(r)) {
        msg(why, cap, "%s%s (%s: npuemu's own library, skipped)", why[0] ? ", " : "", what, p);
        free(r);
        return NULL;
    }
    return r;
}

/* search finds the vendor's copy of library lib, noting every place looked
 * at in why. */
static char *search(int lib, char *why, size_t cap) {
    const char *file = libfile[lib];
    char *r = NULL;
    const char *v = getenv("NPUEMU_VENDOR_LIB");
    if (v && v[0]) {
        struct stat st;
        if (stat(v, &st) == 0 && S_ISDIR(st.st_mode)) {
            r = candidate("NPUEMU_VENDOR_LIB", v, file, why, cap);
        } else if (lib == NPU_LIB_ACL) {
            r = candidate("NPUEMU_VENDOR_LIB", v, NULL, why, cap);
        } else {
            char d[4096];
            snprintf(d, sizeof d, "%s", v);
            char *slash = strrchr(d, '/');
            if (slash == d)
                d[1] = '\0';
            else if (slash)
                *slash = '\0';
            else
                snprintf(d, sizeof d, ".");
            r = candidate("NPUEMU_VENDOR_LIB's directory", d, file, why, cap);
        }
        if (r) return r;
    } else {
        msg(why, cap, "%sNPUEMU_VENDOR_LIB (not set)", why[0] ? ", " : "");
    }
    static const char *const homes[] = {"ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"};
    for (size_t i = 0; i < 2; i++) {
        const char *h = getenv(homes[i]);
        char what[64];
        snprintf(what, sizeof what, "$%s/lib64", homes[i]);
        if (h == NULL || h[0] == '\0') {
            msg(why, cap, "%s%s ($%s not set)", why[0] ? ", " : "", what, homes[i]);
            continue;
        }
        char d[4096];
        snprintf(d, sizeof d, "%s/lib64", h);
        if ((r = candidate(what, d, file, why, cap)) != NULL) return r;
    }
    if (lib == NPU_LIB_HAL) {
        const char *d = "/usr/local/Ascend/driver/lib64/driver";
        if ((r = candidate("the driver directory", d, file, why, cap)) != NULL) return r;
    }
    return NULL;
}

/* vendor_dirs collects the directories the vendor's dependencies are looked
 * for in (besides each library's own directory and RUNPATH). */
static void vendor_dirs(void) {
    const char *v = getenv("NPUEMU_VENDOR_LIB");
    if (v && v[0]) {
        struct stat st;
        if (stat(v, &st) == 0 && S_ISDIR(st.st_mode)) {
            dirs_add(&vendor, v, strlen(v));
        } else {
            const char *slash = strrchr(v, '/');
            if (slash) dirs_add(&vendor, v, (size_t)(slash - v));
        }
    }
    static const char *const homes[] = {"ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"};
    for (size_t i = 0; i < 2; i++) {
        const char *h = getenv(homes[i]);
        char d[4096];
        if (h && h[0] && snprintf(d, sizeof d, "%s/lib64", h) < (int)sizeof d) dirs_add(&vendor, d, strlen(d));
    }
    const char *drv = "/usr/local/Ascend/driver/lib64/driver";
    dirs_add(&vendor, drv, strlen(drv));
}

/* ---- aclGetRecentErrMsg without a vendor library ---- */

static __thread const char *pt_last;
static _Atomic unsigned char *pt_told_sym; /* by index; allocated at load */
/* The message of a missing vendor symbol, per thread; on the heap (never
 * freed: one small buffer per thread that met a missing symbol) to keep the
 * library's static TLS small (trace.c says why). */
static __thread char *pt_symmsg;
#define PT_SYMMSG 512

static int32_t pt_fail_code[2]; /* set by npu_pt_fail_all: the codes every call returns */

/* pt_recent stands in for aclGetRecentErrMsg when the vendor's ACL library
 * is not loaded: it returns why the last call failed. */
static const char *pt_recent(void) { return pt_last ? pt_last : pt_err[NPU_LIB_ACL]; }

int32_t npu_pt_fail(int idx) {
    int lib = (idx >= 0 && idx < npu_pt_nsyms) ? npu_pt_syms[idx].lib : NPU_LIB_ACL;
    int l = lib == NPU_LIB_HAL ? NPU_LIB_HAL : NPU_LIB_ACL;
    if (lib == NPU_LIB_OTHER || pt_loaded[l]) {
        if (pt_symmsg == NULL) pt_symmsg = malloc(PT_SYMMSG);
        if (pt_symmsg == NULL) return lib == NPU_LIB_ACL ? ACL_ERROR_API_NOT_SUPPORT : DRV_ERROR_NOT_SUPPORT;
        snprintf(pt_symmsg, PT_SYMMSG, "npuemu passthrough: %s is not in the vendor's %s",
                 npu_pt_name(idx), libfile[l]);
        pt_last = pt_symmsg;
        /* The vendor's aclGetRecentErrMsg knows nothing of it: tell stderr,
         * once per symbol. */
        if (pt_told_sym && idx >= 0 && idx < npu_pt_nsyms && atomic_exchange(&pt_told_sym[idx], 1) == 0)
            fprintf(stderr, "%s\n", pt_symmsg);
    } else {
        pt_last = pt_err[l];
        if (atomic_exchange(&pt_told[l], 1) == 0) fprintf(stderr, "%s\n", pt_err[l]);
    }
    if (pt_fail_code[0] != 0) return lib == NPU_LIB_ACL ? pt_fail_code[0] : pt_fail_code[1];
    return lib == NPU_LIB_ACL ? ACL_ERROR_API_NOT_SUPPORT : DRV_ERROR_NOT_SUPPORT;
}

/* npu_pt_fail_all makes every later call of the process fail with the ACL
 * code acl (HAL: drv) and the message why, without entering Go (forked
 * children, forkcheck.c). Only in emulator mode. */
void npu_pt_fail_all(int32_t acl, int32_t drv, const char *why) {
    if (npu_pt_on) return;
    for (int lib = 0; lib < 2; lib++) snprintf(pt_err[lib], sizeof pt_err[lib], "%s", why);
    pt_fail_code[0] = acl;
    pt_fail_code[1] = drv;
    if (npu_pt_idx_recent >= 0) npu_pt_fns[npu_pt_idx_recent] = (void *)pt_recent;
    npu_pt_on = 1;
    npu_hooks = 1;
}

/* ---- aclAppLog ---- */

int npu_applog_hook(aclLogLevel level, const char *func, const char *file, uint32_t line, const char *text) {
    npu_call c;
    npu_call_begin(&c);
    if (npu_pt_on) {
        void *f = npu_pt_idx_applog >= 0 ? npu_pt_fns[npu_pt_idx_applog] : NULL;
        if (f)
            ((__typeof__(&aclAppLog))f)(level, func, file, line, "%s", text);
        else
            npu_pt_fail(npu_pt_idx_applog);
    }
    if (c.trace) {
        npu_tr *t = npu_tr_start(&c, npu_pt_idx_applog);
        NPU_TR_ARG(t, "logLevel", level);
        npu_tr_str(t, "func", func);
        npu_tr_str(t, "file", file);
        NPU_TR_ARG(t, "line", line);
        npu_tr_str(t, "msg", text);
        npu_tr_finish(t, &c);
    }
    return npu_pt_on;
}

/* ---- load ---- */

static void pt_load(void) {
    pt_told_sym = calloc((size_t)npu_pt_nsyms, sizeof *pt_told_sym);
    vendor_dirs();
    void *h[2] = {NULL, NULL};
    loader ld = {0};
    for (int lib = 0; lib < 2; lib++) {
        char why[2048] = "";
        char *path = search(lib, why, sizeof why);
        if (path == NULL) {
            snprintf(pt_err[lib], sizeof pt_err[lib],
                     "npuemu passthrough (NPUEMU_MODE=passthrough): no vendor library %s found; searched: %s",
                     libfile[lib], why);
            continue;
        }
        char err[2048] = "";
        ld.err = err;
        ld.errcap = sizeof err;
        h[lib] = load(&ld, path, 0);
        if (h[lib] == (void *)1) h[lib] = dlmopen(ld.lmid, path, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
        if (h[lib] == NULL) {
            snprintf(pt_err[lib], sizeof pt_err[lib],
                     "npuemu passthrough (NPUEMU_MODE=passthrough): cannot load the vendor library %s: %s", path,
                     err[0] ? err : "dlmopen failed");
        } else {
            pt_loaded[lib] = 1;
        }
        free(path);
    }
    for (int i = 0; i < ld.nvisited; i++) free(ld.visited[i]);
    /* No libascend_hal.so where we looked, but the vendor's ACL library
     * brought one along (its dependency): use that. */
    if (h[NPU_LIB_ACL] && !h[NPU_LIB_HAL]) {
        for (int i = 0; i < npu_pt_nsyms; i++) {
            if (npu_pt_syms[i].lib == NPU_LIB_HAL && dlsym(h[NPU_LIB_ACL], npu_pt_name(i))) {
                h[NPU_LIB_HAL] = h[NPU_LIB_ACL];
                pt_loaded[NPU_LIB_HAL] = 1;
                break;
            }
        }
    }
    for (int i = 0; i < npu_pt_nsyms; i++) {
        int lib = npu_pt_syms[i].lib;
        if (lib != NPU_LIB_OTHER && h[lib]) npu_pt_fns[i] = dlsym(h[lib], npu_pt_name(i));
    }
    if (!pt_loaded[NPU_LIB_ACL] && npu_pt_idx_recent >= 0) npu_pt_fns[npu_pt_idx_recent] = (void *)pt_recent;
}

__attribute__((constructor)) static void npu_hooks_init(void) {
    const char *self;
    struct stat st;
    if (npu_object_of((void *)npu_hooks_init, &self) != NULL && self != NULL && stat(self, &st) == 0) {
        self_dev = st.st_dev;
        self_ino = st.st_ino;
    }
    npu_tr_init();
    const char *mode = getenv("NPUEMU_MODE");
    if (mode && mode[0] && strcmp(mode, "emulator") != 0) {
        npu_pt_on = 1;
        if (strcmp(mode, "passthrough") == 0) {
            pt_load();
        } else {
            for (int lib = 0; lib < 2; lib++)
                snprintf(pt_err[lib], sizeof pt_err[lib],
                         "npuemu: NPUEMU_MODE=%s is not a mode (emulator, passthrough); every call fails", mode);
            if (npu_pt_idx_recent >= 0) npu_pt_fns[npu_pt_idx_recent] = (void *)pt_recent;
        }
    }
    npu_hooks = npu_pt_on || npu_tr_on;
}
