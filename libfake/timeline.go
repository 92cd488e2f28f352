package main

/*
#include <stdlib.h>
#include "trace.h"
void npu_timeline_atexit(void);
*/
import "C"

import (
	"os"
	"unsafe"

	"github.com/npuemu/npuemu/timeline"
)

// NPUEMU_TIMELINE=FILE (docs/timeline.md): the recorder is attached when
// the library loads, before any device exists, and the file is written at
// aclFinalize and again at process exit (timeline.c). The host track's
// calls are recorded by the C trace path (trace.c) and collected here.
func init() {
	if os.Getenv(timeline.Env) != "" {
		timeline.FromEnv()
		C.npu_timeline_atexit()
	}
}

// flushTimeline moves the host calls recorded in C to the recorder and
// writes the file.
func flushTimeline() {
	if timeline.Current() == nil {
		return
	}
	var recs *C.npu_tl_rec
	n := int(C.npu_tl_take(&recs))
	if recs != nil {
		for _, r := range unsafe.Slice(recs, n) {
			timeline.Host(timeline.HostCall{Tid: int(r.tid), Name: C.GoString(C.npu_tl_name(r.idx)),
				Start: int64(r.start), Dur: int64(r.dur), Ret: int64(r.ret)})
		}
		C.free(unsafe.Pointer(recs))
	}
	timeline.Flush()
}

//export npuemu_timeline_flush
func npuemu_timeline_flush() { flushTimeline() }
