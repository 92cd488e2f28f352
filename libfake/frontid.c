/* frontid.c: where the front library is (frontid.h). Decided once: the
 * front is libnpuemu.so in the directory of this core, and it is loaded
 * already when it loaded us. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "frontid.h"

#define FRONT_NAME "libnpuemu.so"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const void *front_base;
static struct stat front_st, core_st;
static int have_front_st, have_core_st;

static void anchor(void) {}

static void find(void) {
    Dl_info self;
    if (dladdr((void *)anchor, &self) == 0 || self.dli_fname == NULL) return;
    char *core = realpath(self.dli_fname, NULL);
    if (core == NULL) return;
    have_core_st = stat(core, &core_st) == 0;
    char *slash = strrchr(core, '/');
    char path[PATH_MAX];
    int n = snprintf(path, sizeof path, "%.*s/%s", slash ? (int)(slash - core) : 1, slash ? core : ".", FRONT_NAME);
    free(core);
    if (n < 0 || (size_t)n >= sizeof path) return;
    have_front_st = stat(path, &front_st) == 0;
    void *h = dlopen(path, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
    if (h == NULL) return;
    Dl_info where;
    void *p = dlsym(h, "aclInit");
    if (p != NULL && dladdr(p, &where) != 0) front_base = where.dli_fbase;
    dlclose(h);
}

const void *npu_front_base(void) {
    pthread_once(&once, find);
    return front_base;
}

int npu_front_file(const char *path) {
    pthread_once(&once, find);
    struct stat st;
    if (stat(path, &st) != 0) return 0;
    if (have_front_st && st.st_dev == front_st.st_dev && st.st_ino == front_st.st_ino) return 1;
    return have_core_st && st.st_dev == core_st.st_dev && st.st_ino == core_st.st_ino;
}
