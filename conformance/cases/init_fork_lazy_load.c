/* init_fork_lazy_load: loading the library starts nothing. The vendor names
 * belong to a plain-C front library that loads the Go core
 * (libnpuemu_core.so) on the first call (docs/internals.md "The C
 * boundary"): until then the process has one thread and the core is not
 * mapped, whether the library came in by linking or by dlopen; the first
 * call of any name, even one that needs no aclInit, loads it; a local
 * dlopen of a second name loads nothing more.
 *
 * needs: emulator
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>

#include "driver/ascend_hal.h"
#include "fork_work.h"

/* aclrtGetVersion (deprecated) is called on purpose: a call that needs no aclInit. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* tasks counts the threads of this process. */
static int tasks(void) {
    DIR *d = opendir("/proc/self/task");
    CHECK(d != NULL);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

/* mapped reports whether a file whose name contains name is mapped. */
static int mapped(const char *name) {
    FILE *f = fopen("/proc/self/maps", "r");
    CHECK(f != NULL);
    char line[4096];
    int found = 0;
    while (fgets(line, sizeof line, f))
        if (strstr(line, name)) found = 1;
    fclose(f);
    return found;
}

/* first_call forks a child that makes call number which as its first call
 * and checks that it loaded the core and works. */
static void first_call(int which) {
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid != 0) {
        CHECK_EQ(fork_wait(pid), 0);
        return;
    }
    alarm(50);
    CHECK(!mapped("libnpuemu_core.so"));
    switch (which) {
    case 0: {
        int32_t major = 0, minor = 0, patch = 0;
        CHECK_OK(aclrtGetVersion(&major, &minor, &patch));
        CHECK(major > 0);
        break;
    }
    case 1: {
        uint32_t n = 0;
        CHECK_EQ(drvGetDevNum(&n), DRV_ERROR_NONE);
        CHECK(n > 0);
        break;
    }
    case 2:
        aclAppLog(ACL_INFO, "init_fork_lazy_load", __FILE__, __LINE__, "the first call is a log line (%d)", 42);
        break;
    case 3: {
        const char *m = aclGetRecentErrMsg();
        (void)m;
        break;
    }
    }
    CHECK(mapped("libnpuemu_core.so"));
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    void *d = NULL;
    CHECK_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclFinalize());
    _exit(0);
}

int main(void) {
    /* Linked with -lascendcl: the front is loaded, nothing else. */
    CHECK(dlopen("libascendcl.so", RTLD_NOW | RTLD_NOLOAD) != NULL);
    CHECK_EQ(tasks(), 1);
    CHECK(!mapped("libnpuemu_core.so"));

    /* A dlopen of other names (as an import would) starts nothing either. */
    void *h = dlopen("libascend_hal.so", RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) FAIL("dlopen(libascend_hal.so): %s", dlerror());
    void *r = dlopen("libruntime.so", RTLD_NOW | RTLD_GLOBAL);
    if (r == NULL) FAIL("dlopen(libruntime.so): %s", dlerror());
    CHECK(dlsym(h, "halMemAlloc") != NULL && dlsym(r, "rtMalloc") != NULL);
    CHECK_EQ(tasks(), 1);
    CHECK(!mapped("libnpuemu_core.so"));

    /* Whatever the first call is, it loads the core (children forked now,
     * before any call). */
    for (int which = 0; which < 4; which++) first_call(which);

    /* Still nothing in the parent; its own first call starts the runtime. */
    CHECK_EQ(tasks(), 1);
    CHECK(!mapped("libnpuemu_core.so"));
    int32_t major = 0, minor = 0, patch = 0;
    CHECK_OK(aclrtGetVersion(&major, &minor, &patch));
    CHECK(mapped("libnpuemu_core.so"));
    CHECK(tasks() > 1); /* the Go runtime's threads */
    dlclose(h);
    dlclose(r);
    return 0;
}
