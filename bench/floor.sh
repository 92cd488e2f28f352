#!/bin/bash
# floor.sh: the crossing floor of the launch path on this machine: the
# median time of a C→Go call, and of a C→Go call that calls one C function
# back (as a launch + synchronize calls into npuemu's core, which calls the
# kernel's block), through a Go c-shared library like npuemu's core
# (docs/benchmarks.md, "Eleventh session"). The Go side is written here
# (only libfake is a cgo package of the module); the C side is
# bench/c/floor.c. Run from the repository root; needs go and a C compiler.
set -e
B=$(mktemp -d); trap 'rm -rf "$B"' EXIT
mkdir "$B/floor"
printf 'module floor\n\ngo 1.22\n' > "$B/floor/go.mod"
cat > "$B/floor/floor.go" <<'GO'
package main

/*
typedef void (*floor_fn)(void);
static inline void floor_call(floor_fn f) { f(); }
*/
import "C"

// floorCross calls f n times from Go (n 0: the C→Go crossing alone).
//
//export floorCross
func floorCross(f C.floor_fn, n C.int) C.int {
	for range int(n) {
		C.floor_call(f)
	}
	return n
}

func main() {}
GO
(cd "$B/floor" && GOFLAGS= go build -buildmode=c-shared -o "$B/libfloor.so" .)
${CC:-cc} -O2 -Wall -Werror -I "$B" -o "$B/floor.bin" bench/c/floor.c -L "$B" -lfloor
LD_LIBRARY_PATH=$B "$B/floor.bin"
