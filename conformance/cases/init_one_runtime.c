/* One Go runtime per process (ARCHITECTURE.md): every vendor library name
 * resolves to one object, npuemu's plain-C front library, which loads one
 * Go c-shared core on the first call (docs/internals.md "The C boundary"),
 * so a program linked against all eight names loads one object, one Go
 * runtime and one runtime state. Two Go runtimes in one process would crash
 * or corrupt each other.
 *
 * The proof: (a) dlopen of each name returns the same handle and
 * dlsym(handle, "aclInit") the same address; (b) walking the loaded objects,
 * none defines the cgo runtime glue that every Go c-shared library exports
 * before the first call, and exactly one does after it, and that one is not
 * the object that defines aclInit (the front).
 *
 * needs: emulator
 * link: -Wl,--no-as-needed -lascendcl -lacl_rt -lacl_rt_impl -lruntime -lascend_hal -lmsprofiler -lprofapi -lms_tools_ext
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>

#include "check.h"

static const char *const names[] = {
    "libascendcl.so", "libacl_rt.so", "libacl_rt_impl.so", "libruntime.so", "libascend_hal.so",
    "libmsprofiler.so", "libprofapi.so", "libms_tools_ext.so",
};
#define NNAMES (sizeof names / sizeof names[0])

/* Symbols that the Go toolchain puts in every -buildmode=c-shared library. */
static const char *const go_symbols[] = {"_cgo_topofstack", "crosscall2", "_cgo_wait_runtime_init_done"};
#define NGOSYMS (sizeof go_symbols / sizeof go_symbols[0])

struct walk {
    const void *acl_init;  /* address of aclInit */
    int objects;           /* loaded objects seen */
    int go_objects;        /* objects that define a Go runtime symbol */
    int acl_init_in_go;    /* the Go object also defines aclInit */
    char go_name[512];     /* path of the (last) Go object */
};

/* defines reports whether addr lies in one of the object's loaded segments. */
static int defines(const struct dl_phdr_info *info, const void *addr) {
    uintptr_t a = (uintptr_t)addr;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && a >= start && a < start + ph->p_memsz) return 1;
    }
    return 0;
}

static int visit(struct dl_phdr_info *info, size_t size, void *data) {
    struct walk *w = data;
    (void)size;
    w->objects++;
    /* The main program has an empty name: dlopen(NULL) gives its scope. */
    const char *name = info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name : NULL;
    void *h = dlopen(name, RTLD_LAZY | RTLD_NOLOAD);
    if (h == NULL) return 0; /* the vDSO: not a file, no Go in it */
    int is_go = 0;
    for (size_t i = 0; i < NGOSYMS; i++) {
        /* dlsym searches the object first, then its dependencies: only an
         * address inside this object's own segments counts. */
        void *s = dlsym(h, go_symbols[i]);
        if (s != NULL && defines(info, s)) is_go = 1;
    }
    dlclose(h);
    if (is_go) {
        w->go_objects++;
        snprintf(w->go_name, sizeof w->go_name, "%s", name ? name : "(main program)");
        if (defines(info, w->acl_init)) w->acl_init_in_go = 1;
    }
    return 0;
}

int main(void) {
    void *handles[NNAMES];
    void *inits[NNAMES];
    for (size_t i = 0; i < NNAMES; i++) {
        /* Already loaded through DT_NEEDED: RTLD_NOLOAD must find each name. */
        handles[i] = dlopen(names[i], RTLD_NOW | RTLD_NOLOAD);
        if (handles[i] == NULL) FAIL("dlopen(%s, RTLD_NOLOAD): %s", names[i], dlerror());
        inits[i] = dlsym(handles[i], "aclInit");
        if (inits[i] == NULL) FAIL("dlsym(%s, aclInit): %s", names[i], dlerror());
    }
    for (size_t i = 1; i < NNAMES; i++) {
        if (handles[i] != handles[0])
            FAIL("dlopen(%s) = %p but dlopen(%s) = %p: two objects", names[i], handles[i], names[0], handles[0]);
        if (inits[i] != inits[0])
            FAIL("aclInit from %s is %p, from %s %p", names[i], inits[i], names[0], inits[0]);
    }
    /* A plain dlopen (not NOLOAD) by name returns the same object too. */
    for (size_t i = 0; i < NNAMES; i++) {
        void *h = dlopen(names[i], RTLD_NOW);
        if (h != handles[0]) FAIL("dlopen(%s, RTLD_NOW) = %p, want %p", names[i], h, handles[0]);
        dlclose(h);
    }
    CHECK(dlsym(RTLD_DEFAULT, "aclInit") == inits[0]);

    struct walk w = {.acl_init = inits[0]};
    dl_iterate_phdr(visit, &w);
    CHECK(w.objects > 1);
    if (w.go_objects != 0)
        FAIL("%d loaded objects carry a Go runtime before the first call (last: %s), want 0", w.go_objects, w.go_name);

    /* The one runtime works through any name. */
    aclError (*init_rt)(const char *) = (aclError (*)(const char *))dlsym(handles[1], "aclInit");
    aclError (*fini_hal)(void) = (aclError (*)(void))dlsym(handles[4], "aclFinalize");
    CHECK(init_rt != NULL && fini_hal != NULL);
    CHECK_OK(init_rt(NULL));
    CHECK_OK(fini_hal());

    w = (struct walk){.acl_init = inits[0]};
    dl_iterate_phdr(visit, &w);
    if (w.go_objects != 1) FAIL("%d loaded objects carry a Go runtime, want 1 (last: %s)", w.go_objects, w.go_name);
    if (w.acl_init_in_go) FAIL("aclInit is defined by the Go object %s, not by the front library", w.go_name);

    for (size_t i = 0; i < NNAMES; i++) dlclose(handles[i]);
    printf("one Go runtime in %s\n", w.go_name);
    return 0;
}
