/* hook.h: what every interposer of the stack cases shares — a call counter
 * per hooked name and the next definition of a symbol (dlsym RTLD_NEXT).
 * Include it after defining C_N, names[C_N] and HOOK_NAME (the library's
 * name in messages); the library exports its counts through hook_count. */
#ifndef NPUEMU_STACK_HOOK_H
#define NPUEMU_STACK_HOOK_H

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long counts[C_N];

/* hook_count returns how often name was called, -1 for a name not hooked. */
static long hook_count(const char *name) {
    for (int i = 0; i < C_N; i++)
        if (strcmp(names[i], name) == 0) return __atomic_load_n(&counts[i], __ATOMIC_SEQ_CST);
    return -1;
}

static void count(int i) { __atomic_add_fetch(&counts[i], 1, __ATOMIC_SEQ_CST); }

/* next returns the definition name would bind to without this library. */
static void *next(const char *name) {
    void *p = dlsym(RTLD_NEXT, name);
    if (p == NULL) {
        fprintf(stderr, HOOK_NAME ": no next definition of %s\n", name);
        abort();
    }
    return p;
}

#endif
