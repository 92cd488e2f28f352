/* case_kernel.h: builds a case's kernel from its source text, a printf
 * format whose one %s is the repository root (the cases include
 * "<root>/emu/include/npuemu/kernel.h"), into the shared object so (n
 * bytes); a failure ends the case. file is the case's __FILE__, two levels
 * below the root. */
#ifndef NPUEMU_CASE_KERNEL_H
#define NPUEMU_CASE_KERNEL_H

#include "check.h"
#include "../../examples/kernels/build_kernel.h"

static void build_case_kernel(const char *file, const char *src, char *so, size_t n) {
    char repo[4096], code[8192];
    npuemu_repo_of(file, 2, repo, sizeof repo);
    snprintf(code, sizeof code, src, repo);
    if (npuemu_build_source(code, so, n) != 0) FAIL("cannot build the kernel");
}

#endif
