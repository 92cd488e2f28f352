/* sanitize.c: the sanitizer's summary at process exit, and the exit status
 * NPUEMU_SANITIZE_EXITCODE asks for (sanitize.go, docs/sanitizer.md). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "_cgo_export.h"

static void at_exit(void)
{
    int code = npuemu_sanitize_exit();
    if (code >= 0) {
        fflush(NULL);
        _exit(code);
    }
}

void npu_sanitize_atexit(void) { atexit(at_exit); }
