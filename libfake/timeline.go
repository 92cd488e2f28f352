package main

/*
#include <stdlib.h>
void npu_timeline_atexit(void);
*/
import "C"

import (
	"os"

	"github.com/npuemu/npuemu/timeline"
)

// NPUEMU_TIMELINE=FILE (docs/timeline.md): the recorder is attached when
// the library loads, before any device exists, and the file is written at
// aclFinalize and again at process exit (timeline.c).
func init() {
	if os.Getenv(timeline.Env) != "" {
		timeline.FromEnv()
		C.npu_timeline_atexit()
	}
}

//export npuemu_timeline_flush
func npuemu_timeline_flush() { timeline.Flush() }
