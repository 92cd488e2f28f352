package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// The Go heap's floor (docs/configuration.md, "GOGC"). The emulator's
// live Go heap is small (2–4 MiB in the benchmark), and the Go runtime's
// default (GOGC=100) collects whenever it doubles, with a 4 MiB minimum
// goal: a program's first thousands of launches (launch objects, rings
// growing) then pay a collection or two in the middle of the burst, with
// its dedicated mark worker taking a whole CPU of two. So, while GOGC is
// unset, the goal is kept at heapFloor at least: the GC percentage is set
// at the library's load so that the first goal is heapFloor, and after
// each collection from the live heap it found; from a live heap of
// heapFloor/2 up, it is the runtime's default 100. What this costs is
// garbage kept up to heapFloor (32 MiB) of host memory per process. A GOGC
// the user set is never changed, and GOMEMLIMIT still bounds the heap.
const heapFloor = 32 << 20

// runtimeMinHeap is the Go runtime's heap goal before the first
// collection at GOGC=100 (scaled by GOGC/100).
const runtimeMinHeap = 4 << 20

func init() {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	debug.SetGCPercent(gcPercentFor(0, heapFloor))
	armHeapFloor()
}

// heapSentinel is an object whose only use is to die in every collection:
// its cleanup re-tunes the GC percentage and makes the next sentinel.
type heapSentinel struct{ _ [64]byte }

func armHeapFloor() {
	s := new(heapSentinel)
	runtime.AddCleanup(s, func(struct{}) { tuneHeapFloor() }, struct{}{})
}

var liveHeap = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}

// tuneHeapFloor sets the GC percentage for the live heap the last
// collection found (runs on the runtime's cleanup goroutine, one at a
// time) and arms the next sentinel.
func tuneHeapFloor() {
	metrics.Read(liveHeap)
	if liveHeap[0].Value.Kind() == metrics.KindUint64 {
		debug.SetGCPercent(gcPercentFor(liveHeap[0].Value.Uint64(), heapFloor))
	}
	armHeapFloor()
}

// gcPercentFor returns the GC percentage that puts the goal of a heap of
// live bytes at floor at least: 100 (the runtime's default) when
// that already does, else (floor-live)/live in percent, rounded up. Live 0
// (before the first collection) gets the percentage that scales the
// runtime's first goal (runtimeMinHeap) to floor.
func gcPercentFor(live, floor uint64) int {
	if live == 0 {
		return int(max(1, floor/runtimeMinHeap) * 100)
	}
	if 2*live >= floor {
		return 100
	}
	return int(((floor-live)*100 + live - 1) / live)
}
