/* build_kernel.h: build an npuemu kernel from source at run time, for the
 * examples and conformance cases that ship their kernels as C source.
 *
 *   char so[4096];
 *   if (npuemu_build_kernel(repo, "examples/kernels/vadd.c", so, sizeof so) != 0) ...
 *   aclrtBinaryLoadFromFile(so, NULL, &bin);
 *   npuemu_remove_kernel(so);   // the loaded object stays mapped
 *
 * It runs `$CC -shared -fPIC -O2 -I <repo>/emu/include <src> -o <tmp>.so`
 * (CC defaults to cc), the one build rule of docs/kernels.md. */
#ifndef NPUEMU_BUILD_KERNEL_H
#define NPUEMU_BUILD_KERNEL_H

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* npuemu_repo_of returns in out the directory `up` levels above the
 * directory of path (e.g. __FILE__). */
static inline void npuemu_repo_of(const char *path, int up, char *out, size_t outlen) {
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    char *d = dirname(buf);
    snprintf(out, outlen, "%s", d);
    for (int i = 0; i < up; i++) {
        snprintf(buf, sizeof buf, "%s", out);
        snprintf(out, outlen, "%s", dirname(buf));
    }
}

/* npuemu_build_kernel compiles <repo>/<src> into a fresh temporary
 * directory and writes the .so path into out; 0 on success. */
static inline int npuemu_build_kernel(const char *repo, const char *src, char *out, size_t outlen) {
    char dir[] = "/tmp/npuemu-kernel-XXXXXX";
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return -1;
    }
    const char *cc = getenv("CC");
    if (cc == NULL || *cc == 0) cc = "cc";
    snprintf(out, outlen, "%s/kernel.so", dir);
    char cmd[16384];
    snprintf(cmd, sizeof cmd, "%s -shared -fPIC -O2 -Wall -Werror -I '%s/emu/include' '%s/%s' -o '%s'", cc, repo, repo, src, out);
    if (system(cmd) != 0) {
        fprintf(stderr, "building the kernel failed: %s\n", cmd);
        return -1;
    }
    return 0;
}

/* npuemu_build_source compiles C source text the same way (for shared
 * objects that are not kernel binaries, in negative tests). */
static inline int npuemu_build_source(const char *code, char *out, size_t outlen) {
    char dir[] = "/tmp/npuemu-kernel-XXXXXX";
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return -1;
    }
    char src[64];
    snprintf(src, sizeof src, "%s/src.c", dir);
    FILE *f = fopen(src, "w");
    if (f == NULL) {
        perror(src);
        return -1;
    }
    fputs(code, f);
    fclose(f);
    const char *cc = getenv("CC");
    if (cc == NULL || *cc == 0) cc = "cc";
    snprintf(out, outlen, "%s/kernel.so", dir);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s -shared -fPIC -O2 '%s' -o '%s'", cc, src, out);
    int r = system(cmd);
    unlink(src);
    if (r != 0) {
        fprintf(stderr, "building failed: %s\n", cmd);
        return -1;
    }
    return 0;
}

/* npuemu_remove_kernel deletes a built kernel and its directory. */
static inline void npuemu_remove_kernel(const char *so) {
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", so);
    unlink(so);
    rmdir(dirname(buf));
}

#endif
