/* timeline.c: writes the NPUEMU_TIMELINE file at process exit (timeline.go). */
#include <stdlib.h>

#include "_cgo_export.h"

static void at_exit(void) { npuemu_timeline_flush(); }

void npu_timeline_atexit(void) { atexit(at_exit); }
