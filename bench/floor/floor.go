// Command floor is the crossing floor of the launch path: a C program
// (c/floor.c) calls an exported Go function, which calls a C function
// back (as a launch + synchronize calls into the core, which calls the
// kernel's block). Built as a c-shared library by bench/floor.sh; what a
// launch costs beyond these two crossings is npuemu's own work
// (docs/benchmarks.md, "Eleventh session").
package main

/*
typedef void (*floor_fn)(void);
static inline void floor_call(floor_fn f) { f(); }
*/
import "C"

// floorCross calls f n times from Go (n may be 0: the C→Go crossing alone).
//
//export floorCross
func floorCross(f C.floor_fn, n C.int) C.int {
	for range int(n) {
		C.floor_call(f)
	}
	return n
}

func main() {}
